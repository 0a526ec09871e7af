import { describe, expect, it } from 'vitest';
import { redactText } from './redact';
import { REDOS_SHAPES as SHAPES } from './hostile-shapes';

// Condition-based, not timed: each shape at 100 KB and at 1 MB, and the ratio of the times.

const time = (text: string) => {
  const t0 = performance.now();
  redactText(text);
  return performance.now() - t0;
};

describe('redaction on hostile input', () => {
  it.each(SHAPES)('stays linear on %s', (_, make) => {
    const small = make(100_000);
    const large = make(1_000_000);
    time(small); // warm the regular expressions up
    const ratio = (time(large) + 1) / (time(small) + 1);
    expect(ratio).toBeLessThan(30);
  });
});
