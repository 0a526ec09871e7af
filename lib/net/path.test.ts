import { describe, expect, it } from 'vitest';
import { decodeSegment } from './path';

describe('decodeSegment', () => {
  it('decodes percent-encoding and keeps a malformed segment as it came', () => {
    expect(decodeSegment('a%20b%2Fc')).toBe('a b/c');
    expect(decodeSegment('%E0%A4%A')).toBe('%E0%A4%A');
  });
});
