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
  for (const k of [...Object.keys(a), ...Object.keys(b)]) if (!(CCS_FIELDS as readonly string[]).includes(k)) extra.add(k);
  return [...CCS_FIELDS, ...extra];
}

export function diffField(field: string, before: readonly string[], after: readonly string[]): FieldDiff {
  const prev = new Set(before);
  const next = new Set(after);
  const unchanged: string[] = [];
  let added: string[] = [];
  let removed: string[] = [];
  for (const t of after) if (prev.has(t)) unchanged.push(t);
  else added.push(t);
  for (const t of before) if (!next.has(t)) removed.push(t);
  const changed: { from: string; to: string }[] = [];
  if (added.length && removed.length && !IDENTITY_FIELDS.has(field)) {
    const byName = (list: string[]) => {
      const m = new Map<string, string[]>();
      for (const t of list) {
        const n = termName(t);
        if (n) m.set(n, [...(m.get(n) ?? []), t]);
      }
      return m;
    };
    const addedBy = byName(added);
    const removedBy = byName(removed);
    const paired = new Set<string>();
    for (const [name, rs] of removedBy) {
      const as = addedBy.get(name);
      if (rs.length === 1 && as?.length === 1) {
        changed.push({ from: rs[0]!, to: as[0]! });
        paired.add(rs[0]!).add(as[0]!);
      }
    }
    if (paired.size) {
      added = added.filter((t) => !paired.has(t));
      removed = removed.filter((t) => !paired.has(t));
    }
  }
  return { field, added, removed, changed, unchanged };
}

export function diffCcs(a: CcsTerms, b: CcsTerms): CcsDiff {
  const fields: FieldDiff[] = [];
  const counts = { added: 0, removed: 0, changed: 0 };
  for (const f of fieldOrder(a, b)) {
    const before = a[f] ?? [];
    const after = b[f] ?? [];
    if (!before.length && !after.length) continue;
    const d = diffField(f, before, after);
    counts.added += d.added.length;
    counts.removed += d.removed.length;
    counts.changed += d.changed.length;
    fields.push(d);
  }
  return { fields, same: counts.added + counts.removed + counts.changed === 0, counts };
}
