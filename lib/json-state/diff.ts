import microdiff from 'microdiff';
import { formatPath, type PathSegment } from './tree';

/**
 * A path-level diff of two JSON states (microdiff): each changed path (`messages[3]`, `plan[1].done`) added, removed
 * or changed, with its old and new value; arrays are compared index by index. What the replay's Diff tab lists for a
 * turn that carries a graph state instead of a CCS, and what its State tab marks. Pure.
 */

export type ChangeKind = 'added' | 'removed' | 'changed';

export interface StateChange {
  path: string;
  segments: PathSegment[];
  kind: ChangeKind;
  /** The value before (absent when added). */
  from?: unknown;
  /** The value after (absent when removed). */
  to?: unknown;
}

const container = (v: unknown): v is object => v !== null && typeof v === 'object';

/** What changed from `before` to `after`, in the order microdiff walks them (the old keys, then the new). */
export function diffStates(before: unknown, after: unknown): StateChange[] {
  if (!container(before) || !container(after) || Array.isArray(before) !== Array.isArray(after)) {
    if (JSON.stringify(before) === JSON.stringify(after)) return [];
    if (before === undefined) return [{ path: '', segments: [], kind: 'added', to: after }];
    return [{ path: '', segments: [], kind: 'changed', from: before, to: after }];
  }
  return microdiff(before as Record<string, unknown>, after as Record<string, unknown>, { cyclesFix: false }).map(
    (d) => {
      const base = { path: formatPath(d.path), segments: d.path };
      if (d.type === 'CREATE') return { ...base, kind: 'added', to: d.value };
      if (d.type === 'REMOVE') return { ...base, kind: 'removed', from: d.oldValue };
      return { ...base, kind: 'changed', from: d.oldValue, to: d.value };
    },
  );
}

export function countChanges(changes: readonly StateChange[]): Record<ChangeKind, number> {
  const n = { added: 0, removed: 0, changed: 0 };
  for (const c of changes) n[c.kind]++;
  return n;
}

/**
 * Where the changes are, for the tree: the kind of change at each changed path, and for each container above one
 * how many changes it holds.
 */
export function changeMarks(changes: readonly StateChange[]): {
  at: Map<string, ChangeKind>;
  within: Map<string, number>;
} {
  const at = new Map<string, ChangeKind>();
  const within = new Map<string, number>();
  for (const c of changes) {
    at.set(c.path, c.kind);
    for (let k = 1; k < c.segments.length; k++) {
      const p = formatPath(c.segments.slice(0, k));
      within.set(p, (within.get(p) ?? 0) + 1);
    }
  }
  return { at, within };
}

/** A value on one line, at most `max` characters: a string in quotes, anything else as compact JSON. */
export function preview(v: unknown, max = 120): { text: string; clipped: boolean } {
  const s = v === undefined ? '—' : JSON.stringify(v);
  return s.length > max ? { text: `${s.slice(0, max - 1)}…`, clipped: true } : { text: s, clipped: false };
}

/** A value in full: a string as its text, anything else as indented JSON. */
export function wholeValue(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined ? '—' : JSON.stringify(v, null, 2);
}
