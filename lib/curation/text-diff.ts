import { diffWords } from 'diff';

export interface DiffPart {
  text: string;
  op: 'same' | 'add' | 'del';
}

/** A word-level diff from `before` to `after`, for showing what a proposal changes. */
export function textDiff(before: string, after: string): DiffPart[] {
  return diffWords(before, after).map((p) => ({ text: p.value, op: p.added ? 'add' : p.removed ? 'del' : 'same' }));
}
