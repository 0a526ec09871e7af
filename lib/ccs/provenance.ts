import type { CcsTerms } from './contract';
import { diffCcs, type CcsDiff } from './diff';

/**
 * Provenance ("blame") over a session: for every term, the turns where it appeared, changed or was
 * dropped; for every constraint, when it was present. Built in one pass over the turn-to-turn diffs of a whole
 * session held in memory: the reference that the stored history (`term_events`, written by `DigestBuilder` in
 * `digest.ts`, read by `windowBlame`) is tested against. The replay itself never builds it.
 */

export type TermEventKind = 'added' | 'removed' | 'changed_from' | 'changed_to';

export interface TermEvent {
  /** The turn number (as the agent numbered it). */
  turn: number;
  kind: TermEventKind;
  /** For a change: the term on the other side. */
  other?: string;
}

export interface SessionHistory {
  turns: number[];
  /** diffs[i] is turn i against turn i − 1 (turn 0 against an empty state). */
  diffs: CcsDiff[];
  events: Map<string, TermEvent[]>;
  /** Distinct constraints in order of first appearance, each with the turn indexes where it is present. */
  constraints: { term: string; present: Uint8Array }[];
}

const key = (field: string, term: string) => `${field}\u0000${term}`;

export function buildHistory(turns: readonly { turn: number; ccs: CcsTerms }[]): SessionHistory {
  const events = new Map<string, TermEvent[]>();
  const push = (field: string, term: string, e: TermEvent) => {
    const k = key(field, term);
    const list = events.get(k);
    if (list) list.push(e);
    else events.set(k, [e]);
  };
  const diffs: CcsDiff[] = [];
  const constraintIndex = new Map<string, number>();
  const constraints: { term: string; present: Uint8Array }[] = [];
  let prev: CcsTerms = {};
  turns.forEach((t, i) => {
    const d = diffCcs(prev, t.ccs);
    diffs.push(d);
    for (const f of d.fields) {
      for (const term of f.added) push(f.field, term, { turn: t.turn, kind: 'added' });
      for (const term of f.removed) push(f.field, term, { turn: t.turn, kind: 'removed' });
      for (const c of f.changed) {
        push(f.field, c.from, { turn: t.turn, kind: 'changed_from', other: c.to });
        push(f.field, c.to, { turn: t.turn, kind: 'changed_to', other: c.from });
      }
    }
    for (const c of t.ccs.constraints ?? []) {
      let idx = constraintIndex.get(c);
      if (idx === undefined) {
        idx = constraints.length;
        constraintIndex.set(c, idx);
        constraints.push({ term: c, present: new Uint8Array(turns.length) });
      }
      constraints[idx]!.present[i] = 1;
    }
    prev = t.ccs;
  });
  return { turns: turns.map((t) => t.turn), diffs, events, constraints };
}

export interface Blame {
  /** The turn whose commit brought the term in (by adding it, or changing another term into it). */
  introduced: TermEvent | null;
  /** Everything that happened to this term in the session, in order. */
  history: TermEvent[];
}

/** Who put `term` in `field` as of turn `turn`. */
export function blame(h: SessionHistory, field: string, term: string, turn: number): Blame {
  const history = h.events.get(key(field, term)) ?? [];
  let introduced: TermEvent | null = null;
  for (const e of history) {
    if (e.turn > turn) break;
    if (e.kind === 'added' || e.kind === 'changed_to') introduced = e;
  }
  return { introduced, history };
}

/** Runs of presence, as [first, last] turn indexes, for a constraint timeline. */
export function segments(present: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= present.length; i++) {
    if (i < present.length && present[i]) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push([start, i - 1]);
      start = -1;
    }
  }
  return out;
}
