import { describe, expect, it } from 'vitest';
import { readRecallView, RECALL_VIEW, writeRecallView } from './url';

describe('the Recall page in its address', () => {
  it('writes only what differs from the defaults, and reads it back', () => {
    expect(writeRecallView(RECALL_VIEW)).toBe('');
    const view = {
      ...RECALL_VIEW,
      tab: 'duplicates' as const,
      q: '  bad gateway & 502  ',
      mode: 'keyword' as const,
      kinds: ['turn' as const, 'artifact' as const],
      session: 'itops-nginx-502',
      from: '2026-11-01',
      like: 'ccs_term:itops-nginx-502/constraints/no_restart(nginx)',
    };
    const hash = writeRecallView(view);
    expect(hash).toBe(
      'view=duplicates&q=bad+gateway+%26+502&mode=keyword&kind=turn%2Cartifact&session=itops-nginx-502' +
        '&from=2026-11-01&like=ccs_term%3Aitops-nginx-502%2Fconstraints%2Fno_restart%28nginx%29',
    );
    expect(readRecallView(new URLSearchParams(hash))).toEqual({ ...view, q: 'bad gateway & 502' });
  });

  it('leaves out words that hold a secret: an address goes to the history and to whoever gets the link', () => {
    const hash = writeRecallView({
      ...RECALL_VIEW,
      q: 'did ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8 leak',
      mode: 'keyword',
    });
    expect(hash).toBe('mode=keyword');
  });

  it('leaves out what it does not know, so the default stands', () => {
    expect(
      readRecallView(
        new URLSearchParams('view=graph&mode=fuzzy&kind=artifact,nope,turn,turn&from=2026-13-45&to=yesterday'),
      ),
    ).toEqual({ ...RECALL_VIEW, kinds: ['turn', 'artifact'] });
  });
});
