import { describe, expect, it } from 'vitest';
import { fmtCost, fmtCount, fmtDuration, fmtLatency, fmtSigned, fmtSpan, plural } from './format';

describe('durations', () => {
  it('read a call latency in ms below a second, in tenths of a second below a minute', () => {
    expect([fmtLatency(0), fmtLatency(450), fmtLatency(2400), fmtLatency(90_000), fmtLatency(null)]).toEqual([
      '0 ms',
      '450 ms',
      '2.4 s',
      fmtDuration(90_000),
      '—',
    ]);
  });

  it('read a cost in cents from a dollar up, to two significant digits below (axis ticks stay distinct)', () => {
    expect([0.0042, 0.015, 0.01, 0, 1.5, null].map(fmtCost)).toEqual([
      '$0.0042',
      '$0.015',
      '$0.01',
      '$0',
      '$1.50',
      '—',
    ]);
  });
});

describe('spans', () => {
  it('say how long a session ran, and nothing for one turn (it did not run "over 0 s")', () => {
    const t0 = '2026-11-21T09:00:00.000Z';
    expect([
      fmtSpan(t0, '2026-11-21T09:12:00.000Z', 30),
      fmtSpan(t0, '2026-11-21T09:00:00.400Z', 3),
      fmtSpan(t0, t0, 1),
      fmtSpan(null, t0, 5),
      fmtSpan(t0, 'not a time', 5),
    ]).toEqual(['over 12 min', 'within 1 s', '', '', '']);
  });
});

describe('counts', () => {
  it('say one thing in the singular, any other count in the plural, grouped', () => {
    expect([
      plural(1, 'φ-cycle'),
      plural(0, 'φ-cycle'),
      plural(1204, 'log line'),
      plural(2, 'entry', 'entries'),
    ]).toEqual(['1 φ-cycle', '0 φ-cycles', '1,204 log lines', '2 entries']);
    // Signed, with a typographic minus.
    expect([fmtSigned(3), fmtSigned(-100), fmtSigned(0), fmtSigned(-1204)]).toEqual(['+3', '−100', '0', '−1,204']);
  });

  it('fit a badge in four characters at most, at any size', () => {
    const ns = [0, 999, 1000, 1204, 9999, 15_500, 999_999, 1_500_000, 123_456_789, 1_500_000_000];
    expect(ns.map(fmtCount)).toEqual(['0', '999', '1k', '1.2k', '10k', '16k', '1M', '1.5M', '120M', '1.5B']);
  });
});
