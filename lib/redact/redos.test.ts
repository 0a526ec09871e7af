import { describe, expect, it } from 'vitest';
import { redactText } from './redact';

/**
 * Hostile shapes for every rule: a long run of the characters a rule scans, with its trigger word repeated, and
 * no match at the end. A backtracking pattern that restarts inside the run takes time quadratic in its length
 * (200 KB of `a_a_…token` took 38 s before the rules were made linear). Condition-based, not timed: growing the
 * text tenfold must grow the time about tenfold, not a hundredfold.
 */
const SHAPES: [string, (n: number) => string][] = [
  ['password prefix', (n) => 'a_'.repeat(n / 2) + 'token'],
  ['password prefix with dashes', (n) => 'a-'.repeat(n / 2) + 'secretx'],
  ['password "for the"', (n) => 'password for the '.repeat(n / 17)],
  ['email local part', (n) => 'a'.repeat(n)],
  ['email dots', (n) => 'a.'.repeat(n / 2) + '@'],
  ['email domain', (n) => 'x@' + 'a.'.repeat(n / 2)],
  ['URL password', (n) => 'a.'.repeat(n / 2) + '://x'],
  ['URL user', (n) => 'http://' + 'a'.repeat(n) + ':'],
  ['JWT', (n) => 'eyJ-'.repeat(n / 4)],
  ['OpenAI key', (n) => 'sk-'.repeat(n / 3)],
  ['Slack token', (n) => 'xoxb-'.repeat(n / 5)],
  ['private key without END', (n) => '-----BEGIN RSA PRIVATE KEY-----'.repeat(n / 31)],
  ['bearer', (n) => 'Bearer '.repeat(n / 7)],
  ['basic auth', (n) => 'Authorization: Basic '.repeat(n / 21)],
  ['card digits', (n) => '1 '.repeat(n / 2)],
  ['Azure secret', (n) => 'abc8Q~'.repeat(n / 6)],
];

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
