/**
 * Hostile shapes for every redaction rule, `n` characters long: a long run of the characters a rule scans, with
 * its trigger word repeated, and no match at the end. A backtracking pattern that restarts inside the run takes
 * time quadratic in its length (200 KB of `a_a_…token` took 38 s before the rules were made linear). Used by the
 * redaction tests (`redos.test.ts`: growing the text tenfold must grow the time about tenfold, not a hundredfold)
 * and the ingest fuzzer.
 */
export const REDOS_SHAPES: [string, (n: number) => string][] = [
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
