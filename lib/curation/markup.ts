/**
 * Markup in memory content: a memory entry is text that a later agent reads into its prompt and that people read in
 * tools, so HTML, scripts, script URLs, template expressions and characters that hide text from a human reader are
 * flagged by the curator's safety step (the curator paper's σ(e), §6 step 2: "deterministic pattern matching … with
 * LLM-based judgment for contextual cases"): such an event is never written without a person seeing it.
 *
 * `active` findings could run code where the text is rendered as HTML or evaluated (a script tag, an event handler, a
 * `javascript:` URL, an iframe or object, a template expression); `hidden` ones carry text a reader does not see
 * (HTML comments, invisible or direction-changing characters, Unicode tag characters, a markdown image whose URL
 * carries a query, the usual channel for exfiltration); `markup` is any other HTML tag. Every pattern is bounded, so
 * 20,000 characters of hostile text are scanned in linear time (tested).
 */

export interface MarkupFinding {
  level: 'active' | 'hidden' | 'markup';
  what: string;
  /** The text that matched, shortened, with invisible characters shown as code points. */
  sample: string;
}

const RULES: { level: MarkupFinding['level']; what: string; re: RegExp }[] = [
  { level: 'active', what: 'a script tag', re: /<\s*script\b/i },
  {
    level: 'active',
    what: 'an event-handler attribute',
    // In a tag (`<svg/onload=…>` too), or an attribute smuggled out of one (`x" onerror="…`).
    re: /<[a-z][a-z0-9-]*[\s/][^<>]{0,500}?\bon[a-z]+\s*=|[\s/"'`]on[a-z]{3,}\s*=\s*["'`]/i,
  },
  { level: 'active', what: 'a script URL', re: /\b(?:javascript|vbscript|livescript)\s*:|data:\s*text\/html/i },
  { level: 'active', what: 'an embedded frame or object', re: /<\s*(?:iframe|frame|object|embed|applet|base)\b/i },
  { level: 'active', what: 'an srcdoc document', re: /\bsrcdoc\s*=/i },
  { level: 'active', what: 'a template expression', re: /\{\{[^{}]{0,200}?(?:constructor|\bthis\b|\$\{|\(\))/i },
  { level: 'hidden', what: 'an HTML comment', re: /<!--/ },
  {
    level: 'hidden',
    what: 'invisible or direction-changing characters',
    // Zero-width and joiner characters, bidirectional controls, the byte-order mark, Unicode tag characters.
    re: /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/,
  },
  {
    level: 'hidden',
    what: 'a markdown image whose URL carries a query',
    re: /!\[[^\]]{0,500}\]\(\s{0,20}https?:[^)\s?]{0,2000}\?/i,
  },
  {
    level: 'hidden',
    what: 'text styled to be invisible',
    re: /style\s*=\s*["'][^"']{0,500}?(?:display\s*:\s*none|font-size\s*:\s*0)/i,
  },
  { level: 'markup', what: 'an HTML tag', re: /<\/?[a-z][a-z0-9-]*(?:[\s/][^<>]{0,500})?>/i },
];

const visible = (s: string) =>
  [...s]
    .map((ch) =>
      /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/.test(ch) || ch.codePointAt(0)! > 0xe0000
        ? `U+${ch.codePointAt(0)!.toString(16).toUpperCase()}`
        : ch,
    )
    .join('')
    .slice(0, 60);

/** Every kind of markup the content holds, the most dangerous first (one finding per rule). */
export function findMarkup(content: string): MarkupFinding[] {
  const out: MarkupFinding[] = [];
  for (const r of RULES) {
    const m = r.re.exec(content);
    if (m) out.push({ level: r.level, what: r.what, sample: visible(m[0]) });
  }
  // A tag already reported as active or hidden is not reported again as plain markup.
  return out.some((f) => f.level !== 'markup') ? out.filter((f) => f.level !== 'markup') : out;
}

/** One line for a reviewer: what was found and where. */
export function describeMarkup(findings: readonly MarkupFinding[]): string {
  return findings.map((f) => `${f.what} (${JSON.stringify(f.sample)})`).join('; ');
}
