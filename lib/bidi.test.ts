import { describe, expect, it } from 'vitest';
import { BIDI_CONTROL, BIDI_NAMES, showBidiControls } from './bidi';

describe('bidirectional controls', () => {
  it('are written by name in plain text, every one of them, and nothing else is touched', () => {
    expect(showBidiControls('invoice_\u202Efdp.exe')).toBe('invoice_⟨RLO⟩fdp.exe');
    expect(showBidiControls('a\u2066b\u2069c')).toBe('a⟨LRI⟩b⟨PDI⟩c');
    // A joiner in an emoji and Hebrew text stay as they are.
    expect(showBidiControls('👩\u200D💻 שלום')).toBe('👩\u200D💻 שלום');
    for (const c of Object.keys(BIDI_NAMES)) expect(c.match(BIDI_CONTROL)).toEqual([c]);
    expect(Object.keys(BIDI_NAMES)).toHaveLength(9);
  });
});
