import { describe, expect, it } from 'vitest';
import type { Envelope, IngestResult } from '@/lib/ingest/contract';
import { groupWarnings, locateRecord, tallyByFile } from './tally';

const env = (n: number) => Array.from({ length: n }, () => ({ type: 'turn', data: {} }) as unknown as Envelope);
const files = [
  { path: 'snapshots/torusfield_state.00399.json', kind: 'ucs-snapshot', envelopes: env(1) },
  { path: 'ucs/state/action_log.jsonl', kind: 'ucs-actions', envelopes: env(3) },
  { path: 'ucs/state/torusfield_state.json', kind: 'ucs-state', envelopes: env(1) },
];
const ok = (index: number, status: 'accepted' | 'duplicate'): IngestResult => ({
  index,
  status,
  type: 'turn',
  id: 'x',
});

describe('an import, file by file', () => {
  it('finds the file and place of a record by its index among all the envelopes', () => {
    expect(locateRecord(files, 0)).toEqual({ path: 'snapshots/torusfield_state.00399.json', record: 1 });
    expect(locateRecord(files, 3)).toEqual({ path: 'ucs/state/action_log.jsonl', record: 3 });
    expect(locateRecord(files, 4)).toEqual({ path: 'ucs/state/torusfield_state.json', record: 1 });
    expect(locateRecord(files, 5)).toBeNull();
  });

  it('counts each answer for its own file; answers not yet come count nowhere', () => {
    const results: (IngestResult | undefined)[] = [
      ok(0, 'accepted'),
      ok(1, 'accepted'),
      { index: 2, status: 'rejected', errors: [{ path: 'data.t', message: 'required' }] },
      undefined,
      ok(4, 'duplicate'),
    ];
    expect(tallyByFile(files, results).map((t) => [t.path, t.records, t.accepted, t.duplicate, t.rejected])).toEqual([
      ['snapshots/torusfield_state.00399.json', 1, 1, 0, 0],
      ['ucs/state/action_log.jsonl', 3, 1, 0, 1],
      ['ucs/state/torusfield_state.json', 1, 0, 1, 0],
    ]);
  });

  it('says a warning once for all the records it came with, where it was first met, in the order met', () => {
    const slip = { path: 'data.halucination', message: 'not a field of a turn; did you mean hallucination?' };
    const other = { path: 'data.sessionId', message: 'not a field of a turn; did you mean session_id?' };
    const warned = (index: number, id: string, warnings: (typeof slip)[]): IngestResult => ({
      index,
      status: 'accepted',
      type: 'turn',
      id,
      warnings,
    });
    const results: (IngestResult | undefined)[] = [
      ok(0, 'accepted'),
      warned(1, 's/1', [slip]),
      undefined,
      { index: 3, status: 'rejected', errors: [{ path: 'data.turn', message: 'required' }] },
      warned(4, 's/4', [other, slip]),
      { ...warned(5, 's/5', [slip]), status: 'duplicate' } as IngestResult,
    ];
    expect(groupWarnings(results)).toEqual([
      { ...slip, records: 3, first: 1, firstId: 's/1' },
      { ...other, records: 1, first: 4, firstId: 's/4' },
    ]);
    expect(groupWarnings([ok(0, 'accepted'), undefined])).toEqual([]);
  });
});
