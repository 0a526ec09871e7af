import { describeMarkup, findMarkup } from './markup';

/**
 * Instructions aimed at an agent's memory or its next reader (memory poisoning, the curator paper's safety step):
 * "ignore previous instructions", "always trust…", "share the password". The curator rejects an event holding one
 * (lib/curation/pipeline.ts); the replay flags a turn whose input holds one (lib/ccs/digest.ts).
 */
export const INSTRUCTION_TO_MEMORY = new RegExp(
  String.raw`\b(${[
    'ignore (all |any )?(previous|prior|above) instructions',
    'disregard (the )?(rules|instructions)',
    'always trust',
    'mark (all )?(mail|email|messages?) from .{0,40} as (trusted|safe)',
    '(password|credentials?|secret|token)s? (can|may|should) be (shared|posted|sent)',
    'disable (mfa|2fa|multi-factor|the safety)',
  ].join('|')})`,
  'i',
);

/** How far into a text the checks look (a turn's input can be long; injections sit in what the agent reads). */
const SCAN_CHARS = 20_000;

/**
 * What in a text tries to steer the agent: an instruction aimed at memory, or active or hidden markup (a script, an
 * event handler, invisible text); null when nothing. Bounded: every pattern is linear (markup.ts) and the text is
 * read up to SCAN_CHARS.
 */
export function injectionIn(text: string): string | null {
  const t = text.length > SCAN_CHARS ? text.slice(0, SCAN_CHARS) : text;
  const instruction = INSTRUCTION_TO_MEMORY.exec(t);
  if (instruction) return `instruction aimed at memory: "${instruction[0]}"`;
  const markup = findMarkup(t).filter((f) => f.level !== 'markup');
  return markup.length ? describeMarkup(markup) : null;
}
