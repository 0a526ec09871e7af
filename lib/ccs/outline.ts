import type { CcsTerms } from './contract';

/**
 * A whole session in the compact form the replay opens with: per-turn metrics as columns, and every
 * CCS dictionary-encoded (each distinct term once, turns as lists of term numbers). A 10,000-turn
 * session is then ~1–2 MB instead of ~20 MB, and the full turns (input, output, artifacts) are
 * fetched in windows around the playhead.
 */
export interface SessionOutline {
  turns: number[];
  timestamps: (string | null)[];
  stress: (string | null)[];
  footprint: { ccs: (number | null)[]; transcript: (number | null)[]; retrieval: (number | null)[] };
  hallucination: (number | null)[];
  drift: (number | null)[];
  /** Judge scores by metric name, one column each. */
  judge: Record<string, (number | null)[]>;
  fields: string[];
  terms: string[];
  /** Per turn: [fieldNumber, termNumber, termNumber, …] for each field present. */
  ccs: number[][][];
  /** What the server's outline stamp was when this outline was built (see sessions.outlineStamp). */
  stamp?: string;
}

export interface OutlineRow {
  turn: number;
  timestamp: string | null;
  stress: string | null;
  footprint: Record<string, number> | null;
  hallucination: number | null;
  drift: number | null;
  judge: Record<string, number> | null;
  ccs: CcsTerms;
}

export function encodeOutline(rows: readonly OutlineRow[]): SessionOutline {
  const fieldIds = new Map<string, number>();
  const termIds = new Map<string, number>();
  const fields: string[] = [];
  const terms: string[] = [];
  const judgeNames = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r.judge ?? {})) judgeNames.add(k);
  const judge: Record<string, (number | null)[]> = {};
  for (const k of judgeNames) judge[k] = [];
  const out: SessionOutline = {
    turns: [],
    timestamps: [],
    stress: [],
    footprint: { ccs: [], transcript: [], retrieval: [] },
    hallucination: [],
    drift: [],
    judge,
    fields,
    terms,
    ccs: [],
  };
  for (const r of rows) {
    out.turns.push(r.turn);
    out.timestamps.push(r.timestamp);
    out.stress.push(r.stress);
    out.footprint.ccs.push(r.footprint?.ccs ?? null);
    out.footprint.transcript.push(r.footprint?.transcript ?? null);
    out.footprint.retrieval.push(r.footprint?.retrieval ?? null);
    out.hallucination.push(r.hallucination);
    out.drift.push(r.drift);
    for (const k of judgeNames) judge[k]!.push(r.judge?.[k] ?? null);
    const enc: number[][] = [];
    for (const [f, list] of Object.entries(r.ccs)) {
      if (!list) continue;
      let fid = fieldIds.get(f);
      if (fid === undefined) fieldIds.set(f, (fid = fields.push(f) - 1));
      const row = [fid];
      for (const t of list) {
        let tid = termIds.get(t);
        if (tid === undefined) termIds.set(t, (tid = terms.push(t) - 1));
        row.push(tid);
      }
      enc.push(row);
    }
    out.ccs.push(enc);
  }
  return out;
}

/** The outline as the server sends it (JSON text of `encodeOutline`'s result, server/services/session-outline.ts). */
export function parseOutline(json: string): SessionOutline {
  return JSON.parse(json) as SessionOutline;
}

/** The CCS of turn index i, with strings shared from the dictionary (nothing is copied). */
export function decodeCcs(o: SessionOutline, i: number): CcsTerms {
  const ccs: CcsTerms = {};
  for (const row of o.ccs[i] ?? []) {
    const list: string[] = new Array(row.length - 1);
    for (let k = 1; k < row.length; k++) list[k - 1] = o.terms[row[k]!]!;
    ccs[o.fields[row[0]!]!] = list;
  }
  return ccs;
}

/** Full turns are fetched this many at a time, around the playhead. */
export const TURN_WINDOW = 100;

/** Index of the turn numbered `turn`, or of the nearest one after it (turn numbers may have gaps). */
export function indexOfTurn(turns: readonly number[], turn: number): number {
  let lo = 0;
  let hi = turns.length - 1;
  if (hi < 0) return 0;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (turns[mid]! < turn) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
