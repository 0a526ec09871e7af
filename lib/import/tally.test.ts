import { describe, expect, it } from 'vitest';
import type { Envelope, IngestResult } from '@/lib/ingest/contract';
import { locateRecord, tallyByFile } from './tally';

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
});
