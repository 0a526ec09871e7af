/**
 * A JSON state (a LangGraph turn's graph state) as the rows of a collapsible tree: paths as a reader writes them,
 * the kind and size of each value, which rows show, and what a key does to the tree. Pure; the replay's state view
 * (components/sessions/state-panel.tsx) only renders the rows.
 */

export type PathSegment = string | number;

const IDENT = /^[A-Za-z_$][\w$]*$/;

/** A path as a reader writes it: `messages[3].content`, `plan.steps[1].done`, `["odd key"]`; the root is ''. */
export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (IDENT.test(p)) out += out ? `.${p}` : p;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out;
}

export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

export function kindOf(v: unknown): JsonKind {
  if (Array.isArray(v)) return 'array';
  if (v === null || v === undefined) return 'null';
  const t = typeof v;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'object';
}

const isContainer = (k: JsonKind) => k === 'object' || k === 'array';

export interface ValueRow {
  kind: JsonKind;
  /** The formatted path: the row's identity (focus, opening, marks). */
  path: string;
  segments: PathSegment[];
  /** Its key, or its index in an array. */
  key: PathSegment;
  depth: number;
  /** The parent row's path; null at the top level. */
  parent: string | null;
  /** An object's keys or an array's items; a string's characters. */
  size: number;
  /** A leaf's value. */
  value?: string | number | boolean | null;
  /** A container itself, for a one-line preview while it is closed. */
  node?: object;
  open: boolean;
}

/** Stands for the children of a container past the first `childCap`. */
export interface MoreRow {
  kind: 'more';
  path: string;
  /** The container's path ('' for the root). */
  parent: string;
  depth: number;
  hidden: number;
}

export type TreeRow = ValueRow | MoreRow;

export interface TreeOptions {
  /** Whether a container shows its children. */
  isOpen: (path: string, depth: number) => boolean;
  /** Containers that show all their children; others show the first `childCap` and a MoreRow. */
  showAll?: ReadonlySet<string>;
  childCap?: number;
}

/** By default the top level is open: the state's channels show, each collapsed. */
export const openTopLevel = (_path: string, depth: number) => depth === 0;

/**
 * The rows a tree shows, in order: the root's children at depth 0, then, under each open container, its children.
 * A root that is not an object or array is one row.
 */
export function flattenTree(root: unknown, o: TreeOptions): TreeRow[] {
  const cap = o.childCap ?? 100;
  const out: TreeRow[] = [];
  // `at`: the container's path ('' for the root); its children's parent (null at the top level).
  const walk = (v: unknown, segments: PathSegment[], depth: number, at: string) => {
    const parent = depth === 0 ? null : at;
    const entries: [PathSegment, unknown][] = Array.isArray(v)
      ? v.map((x, i) => [i, x])
      : Object.entries(v as Record<string, unknown>);
    const shown = o.showAll?.has(at) ? entries.length : Math.min(cap, entries.length);
    for (const [key, x] of entries.slice(0, shown)) {
      const segs = [...segments, key];
      const path = formatPath(segs);
      const kind = kindOf(x);
      const container = isContainer(kind);
      const size = container
        ? Array.isArray(x)
          ? x.length
          : Object.keys(x as object).length
        : kind === 'string'
          ? (x as string).length
          : 0;
      const open = container && size > 0 && o.isOpen(path, depth);
      out.push({
        kind,
        path,
        segments: segs,
        key,
        depth,
        parent,
        size,
        ...(container
          ? { node: x as object }
          : { value: x === undefined ? null : (x as string | number | boolean | null) }),
        open,
      });
      if (open) walk(x, segs, depth + 1, path);
    }
    if (shown < entries.length)
      out.push({ kind: 'more', path: `${at}…`, parent: at, depth, hidden: entries.length - shown });
  };
  const rootKind = kindOf(root);
  if (!isContainer(rootKind)) {
    out.push({
      kind: rootKind,
      path: '',
      segments: [],
      key: '',
      depth: 0,
      parent: null,
      size: 0,
      value: root as null,
      open: false,
    });
    return out;
  }
  walk(root, [], 0, '');
  return out;
}

/** What a key does in the tree, or null when the key is not the tree's (the player keeps it). */
export type TreeAction =
  | { focus: number }
  | { toggle: string }
  | { showAll: string }
  /** The key is the tree's, but there is nothing to do (ArrowRight on a leaf): it must not step the player. */
  | { none: true };

/**
 * The tree's keys, as the WAI-ARIA tree pattern has them: ↓/↑ the next and previous row, → opens a closed container
 * or goes to its first child, ← closes an open container or goes to the parent, Home/End the first and last row,
 * Enter and Space open or close (on a long text: show it whole; on a MoreRow: show all).
 */
export function treeKey(
  rows: readonly TreeRow[],
  i: number,
  key: string,
  isLong = (_r: ValueRow) => false,
): TreeAction | null {
  const row = rows[i];
  if (!row) return null;
  const open = row.kind !== 'more' && row.open;
  const size = row.kind === 'more' ? 0 : row.size;
  const container = row.kind === 'object' || row.kind === 'array';
  switch (key) {
    case 'ArrowDown':
      return { focus: Math.min(rows.length - 1, i + 1) };
    case 'ArrowUp':
      return { focus: Math.max(0, i - 1) };
    case 'Home':
      return { focus: 0 };
    case 'End':
      return { focus: rows.length - 1 };
    case 'ArrowRight':
      if (!container || !size) return { none: true };
      return open ? { focus: i + 1 } : { toggle: row.path };
    case 'ArrowLeft': {
      if (open) return { toggle: row.path };
      const p = rows.findIndex((r) => r.path === row.parent && r.kind !== 'more');
      return p >= 0 ? { focus: p } : { none: true };
    }
    case 'Enter':
    case ' ':
      if (row.kind === 'more') return { showAll: row.parent };
      if (container) return size ? { toggle: row.path } : { none: true };
      return isLong(row) ? { toggle: row.path } : { none: true };
    default:
      return null;
  }
}

/**
 * A closed container on one line, at most `max` characters: a chat message (`{type, content}`, as LangGraph states
 * hold them) as `ai: its text → the tools it calls`, anything else as compact JSON.
 */
export function summarize(node: unknown, max = 110): string {
  const clip = (t: string) => (t.length > max ? `${t.slice(0, max - 1)}…` : t);
  if (node && typeof node === 'object' && !Array.isArray(node)) {
    const m = node as Record<string, unknown>;
    const text =
      typeof m.content === 'string'
        ? m.content
        : Array.isArray(m.content)
          ? m.content
              .map((p) =>
                typeof p === 'string' ? p : p && typeof p === 'object' ? ((p as { text?: unknown }).text ?? '') : '',
              )
              .filter((t) => typeof t === 'string' && t)
              .join(' ')
          : null;
    if (typeof m.type === 'string' && text !== null) {
      const calls = Array.isArray(m.tool_calls)
        ? m.tool_calls.map((c) => (c && typeof c === 'object' ? (c as { name?: unknown }).name : null)).filter(Boolean)
        : [];
      return clip(`${m.type}: ${text.replace(/\s+/g, ' ').trim()}${calls.length ? ` → ${calls.join(', ')}` : ''}`);
    }
  }
  return clip(JSON.stringify(node) ?? '');
}
