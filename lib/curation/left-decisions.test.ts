import { describe, expect, it } from 'vitest';
import { judgeLeft, KEEP_MS, SETTLE_MS, type LeftDecision, type Standing } from './left-decisions';

const at = 1_800_000_000_000;
const d = (ids: string[], wanted: LeftDecision['wanted'] = 'approved'): LeftDecision => ({
  ids,
  wanted,
  text: 'Approving “x”',
  at,
});
const rows = (...r: [string, Standing['status'], string?][]) =>
  new Map(
    r.map(([id, status, by]) => [id, { id, status, decidedBy: by ?? null, decidedAt: by ? '2026-11-26' : null }]),
  );

describe('what became of a decision sent as the page went', () => {
  it('took when every proposal stands as it would have left them, whoever decided', () => {
    expect(judgeLeft(d(['a', 'b']), rows(['a', 'approved', 'me'], ['b', 'approved', 'bob']), at + 1000)).toEqual({
      kind: 'took',
    });
  });

  it('is refused when a colleague decided otherwise first, naming those and counting out of how many', () => {
    const v = judgeLeft(d(['a', 'b'], 'rejected'), rows(['a', 'approved', 'bob'], ['b', 'rejected', 'me']), at);
    expect(v).toMatchObject({ kind: 'refused', of: 2, pending: [] });
    expect(v.kind === 'refused' && v.otherwise.map((r) => [r.id, r.decidedBy])).toEqual([['a', 'bob']]);
  });

  it('waits for a pending proposal while the decision may be on its way, then says it never arrived', () => {
    const standing = rows(['a', 'pending']);
    expect(judgeLeft(d(['a']), standing, at + SETTLE_MS - 1)).toEqual({ kind: 'wait' });
    expect(judgeLeft(d(['a']), standing, at + SETTLE_MS)).toMatchObject({ kind: 'refused', otherwise: [], of: 1 });
  });

  it('believes the refusal the page heard, even when the proposal stands as the decision would have left it', () => {
    // A colleague approved first, plainly: this approval's edits were not applied, though the status is the same.
    const said = 'proposal “x” already approved by bob at 27 Nov 2026, 02:00 UTC; your decision was not applied';
    expect(judgeLeft({ ...d(['a']), refused: said }, rows(['a', 'approved', 'bob']), at + 10)).toEqual({
      kind: 'refused',
      otherwise: [],
      pending: [],
      of: 1,
      said,
    });
    // A request that never left the browser is said at once, not after the settling time, whoever decided since.
    expect(judgeLeft({ ...d(['a']), failed: 'Failed to fetch' }, rows(['a', 'pending']), at + 10)).toMatchObject({
      kind: 'refused',
      pending: [{ id: 'a' }],
      said: 'it never reached the server (Failed to fetch)',
    });
    expect(
      judgeLeft({ ...d(['a']), failed: 'Failed to fetch' }, rows(['a', 'approved', 'bob']), at + 10),
    ).toMatchObject({ kind: 'refused', said: 'it never reached the server (Failed to fetch)' });
  });

  it("leaves another project's decisions for that project's inbox, for a week", () => {
    expect(judgeLeft(d(['z']), rows(['a', 'approved', 'me']), at + KEEP_MS)).toEqual({ kind: 'elsewhere' });
    expect(judgeLeft(d(['z']), rows(), at + KEEP_MS + 1)).toEqual({ kind: 'expired' });
  });
});
