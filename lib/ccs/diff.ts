import { CCS_FIELDS, type CcsTerms } from './contract';
import { termName } from './terms';

/**
 * Term-level difference between two CCS states, field by field. Terms are compared as a set, so a
 * term that only moved is not a change. A removed and an added term with the same predicate name
 * in a field (`level(medium)` → `level(low)`) are one change when they pair one to one — except in
 * focal_entities, where `service(nginx)` and `service(redis)` are different entities.
 */

export interface FieldDiff {
  field: string;
  added: string[];
  removed: string[];
  changed: { from: string; to: string }[];
  unchanged: string[];
}

export interface CcsDiff {
  fields: FieldDiff[];
  /** True when nothing was added, removed or changed in any field. */
  same: boolean;
  counts: { added: number; removed: number; changed: number };
}

const IDENTITY_FIELDS = new Set(['focal_entities', 'retrieved_artifacts']);

export function fieldOrder(a: CcsTerms, b: CcsTerms): string[] {
  const extra = new Set<string>();
  for (const k of [...Object.keys(a), ...Object.keys(b)])
    if (!(CCS_FIELDS as readonly string[]).includes(k)) extra.add(k);
  return [...CCS_FIELDS, ...extra];
}

const NONE: string[] = [];
const NO_CHANGES: { from: string; to: string }[] = [];

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Predicate name → its only term in the list (null when the name occurs more than once). */
function byName(list: readonly string[]): Map<string, string | null> {
  const m = new Map<string, string | null>();
  for (const t of list) {
    const n = termName(t);
    if (n !== null) m.set(n, m.has(n) ? null : t);
  }
  return m;
}

function without(list: readonly string[], drop: Set<string>): string[] {
  const out: string[] = [];
  for (const t of list) if (!drop.has(t)) out.push(t);
  return out;
}

export function diffField(field: string, before: readonly string[], after: readonly string[]): FieldDiff {
  // Most fields do not change from one turn to the next: no allocation for those.
  if (sameList(before, after))
    return { field, added: NONE, removed: NONE, changed: NO_CHANGES, unchanged: after as string[] };
  const unchanged: string[] = [];
  let added: string[] = [];
  let removed: string[] = [];
  // CCS fields hold a handful of terms: a scan beats building sets.
  const small = before.length <= 16 && after.length <= 16;
  const prev = small ? null : new Set(before);
  const next = small ? null : new Set(after);
  for (const t of after)
    if (prev ? prev.has(t) : before.includes(t)) unchanged.push(t);
    else added.push(t);
  for (const t of before) if (!(next ? next.has(t) : after.includes(t))) removed.push(t);
  let changed = NO_CHANGES;
  if (added.length && removed.length && !IDENTITY_FIELDS.has(field)) {
    changed = [];
    const addedBy = byName(added);
    let paired: Set<string> | null = null;
    for (const [name, from] of byName(removed)) {
      const to = from === null ? undefined : addedBy.get(name);
      if (from !== null && to) {
        changed.push({ from, to });
        (paired ??= new Set()).add(from).add(to);
      }
    }
    if (paired) {
      added = without(added, paired);
      removed = without(removed, paired);
    }
  }
  return { field, added, removed, changed, unchanged };
}

const KNOWN = new Set<string>(CCS_FIELDS);

function hasExtraFields(o: CcsTerms): boolean {
  for (const k in o) if (!KNOWN.has(k)) return true;
  return false;
}

export function diffCcs(a: CcsTerms, b: CcsTerms): CcsDiff {
  const fields: FieldDiff[] = [];
  const counts = { added: 0, removed: 0, changed: 0 };
  const order = hasExtraFields(a) || hasExtraFields(b) ? fieldOrder(a, b) : CCS_FIELDS;
  for (const f of order) {
    const before = a[f] ?? NONE;
    const after = b[f] ?? NONE;
    if (!before.length && !after.length) continue;
    const d = diffField(f, before, after);
    counts.added += d.added.length;
    counts.removed += d.removed.length;
    counts.changed += d.changed.length;
    fields.push(d);
  }
  return { fields, same: counts.added + counts.removed + counts.changed === 0, counts };
}
