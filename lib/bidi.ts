/**
 * Bidirectional controls (embedding, override, isolate: U+202A–E, U+2066–9) in untrusted text. Applied, an override
 * draws the rest of a line backwards ("invoice_\u202Efdp.exe" reads "invoice_exe.pdf"), so the app shows each by its
 * name instead. Zero-width and joiner characters are left alone here (emoji and some scripts need them); the
 * curator's markup check flags them in memory events (lib/curation/markup.ts).
 */
export const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/g;

export const BIDI_NAMES: Record<string, [abbr: string, name: string]> = {
  '\u202A': ['LRE', 'left-to-right embedding'],
  '\u202B': ['RLE', 'right-to-left embedding'],
  '\u202C': ['PDF', 'pop directional formatting'],
  '\u202D': ['LRO', 'left-to-right override'],
  '\u202E': ['RLO', 'right-to-left override'],
  '\u2066': ['LRI', 'left-to-right isolate'],
  '\u2067': ['RLI', 'right-to-left isolate'],
  '\u2068': ['FSI', 'first strong isolate'],
  '\u2069': ['PDI', 'pop directional isolate'],
};

/** Plain text with each bidirectional control written as its name ("⟨RLO⟩"): for a native dialog or a label. */
export const showBidiControls = (s: string) => s.replace(BIDI_CONTROL, (c) => `⟨${BIDI_NAMES[c]![0]}⟩`);
