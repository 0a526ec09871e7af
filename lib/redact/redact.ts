/**
 * Secret and PII redaction for memory text. Runs before anything is stored; what was found is
 * reported (type and count, never the secret) so the redaction can be recorded and shown.
 */

export type SecretType =
  | 'private_key'
  | 'aws_access_key'
  | 'github_token'
  | 'gitlab_token'
  | 'npm_token'
  | 'huggingface_token'
  | 'sendgrid_key'
  | 'api_key'
  | 'slack_token'
  | 'slack_webhook'
  | 'google_api_key'
  | 'stripe_key'
  | 'azure_key'
  | 'jwt'
  | 'bearer_token'
  | 'basic_auth'
  | 'url_password'
  | 'password'
  | 'card_number'
  | 'email'
  | 'us_ssn'
  | 'hint';

export interface Finding {
  type: SecretType;
  count: number;
}

interface Rule {
  type: SecretType;
  re: RegExp;
  /** Index of the capture group holding the secret; the rest of the match is kept. 0 = whole match. */
  group?: number;
  check?: (secret: string) => boolean;
}

/*
 * Every rule runs in time linear in the text (the hostile-input tests prove it on 1 MB strings). Two habits keep
 * them so under a backtracking engine: a match may only start where a run of its own characters starts (a
 * lookbehind for the run's class), so a long run is scanned once rather than once per position; and every
 * repetition is bounded where a secret has a known length.
 */
const RULES: Rule[] = [
  {
    type: 'private_key',
    // PEM and PGP private keys: to the END line, or to the end of the text when it was cut off.
    re: new RegExp(
      String.raw`-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?` +
        String.raw`(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)`,
      'g',
    ),
  },
  { type: 'aws_access_key', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  {
    type: 'github_token',
    re: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{40,255})(?![A-Za-z0-9_])/g,
  },
  { type: 'gitlab_token', re: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,64}/g },
  { type: 'npm_token', re: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g },
  { type: 'huggingface_token', re: /(?<![A-Za-z0-9_])hf_[A-Za-z]{30,40}(?![A-Za-z0-9])/g },
  { type: 'sendgrid_key', re: /(?<![A-Za-z0-9_.-])SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}/g },
  { type: 'api_key', re: /(?<![A-Za-z0-9_-])sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,255}/g },
  { type: 'slack_token', re: /(?<![A-Za-z0-9-])xox[abposr]-[A-Za-z0-9-]{10,255}/g },
  { type: 'slack_webhook', re: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,255}/g },
  { type: 'google_api_key', re: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}/g },
  { type: 'stripe_key', re: /(?<![A-Za-z0-9_])(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,255}/g },
  {
    type: 'azure_key',
    // A storage or service-bus connection string's key, and an Entra ID client secret (`xxx8Q~…`).
    re: new RegExp(
      String.raw`(?:AccountKey|SharedAccessKey)=[A-Za-z0-9+/]{20,120}={0,2}` +
        String.raw`|(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`,
      'g',
    ),
  },
  {
    type: 'jwt',
    re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{6,8192}\.eyJ[A-Za-z0-9_-]{6,8192}\.[A-Za-z0-9_-]{6,8192}/g,
  },
  { type: 'bearer_token', re: /\b[Bb]earer\s{1,16}([A-Za-z0-9._~+/-]{16,4096}=*)/g, group: 1 },
  {
    type: 'basic_auth',
    re: /authorization["']?\s{0,4}[:=]\s{0,4}["']?basic[ \t]{1,16}([A-Za-z0-9+/]{8,1024}={0,2})/gi,
    group: 1,
  },
  {
    type: 'url_password',
    re: /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,31}:\/\/[^\s:/@]{1,256}:([^\s@/]{1,256})@/gi,
    group: 1,
  },
  {
    type: 'password',
    // A secret-looking name (prefixes allowed), optionally "for the <thing>", then `:`/`=`/"is" and the value.
    re: new RegExp(
      [
        String.raw`(?<![A-Za-z0-9_-])(?:[A-Za-z0-9]{1,32}[_-]){0,6}`,
        String.raw`(?:password|passwd|pwd|passphrase|secret(?:[_-]?access)?(?:[_-]?key)?|client[_-]?secret`,
        String.raw`|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|refresh[_-]?token|private[_-]?key)`,
        String.raw`\b["']?(?:\s{1,4}(?:for|of|on|to)\s{1,4}(?:the\s{1,4})?[\w.-]{1,64})?\s{0,4}(?:[:=]|\bis\b)\s{0,4}`,
        String.raw`["']?([^\s"',;)]{4,512})`,
      ].join(''),
      'gi',
    ),
    group: 1,
  },
  { type: 'card_number', re: /\b\d(?:[ -]?\d){12,18}\b/g, check: cardNumber },
  {
    type: 'email',
    re: new RegExp(
      String.raw`(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@` +
        String.raw`[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b`,
      'g',
    ),
  },
  { type: 'us_ssn', re: /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/g },
];

const MARK = /\[REDACTED:[a-z_]+\]/;

/**
 * A payment card's number: an issuer's prefix (American Express, Diners and JCB 3; Visa 4; Mastercard and Maestro 5;
 * Discover, Maestro and UnionPay 6; Mastercard 2221–2720 and Mir 2200–2204) and the Luhn check. Other digit runs that
 * pass the check (one in ten) are ids and times: a nanosecond timestamp, a 19-digit snowflake id.
 */
function cardNumber(s: string): boolean {
  const digits = s.replace(/\D/g, '');
  const p4 = Number(digits.slice(0, 4));
  const issuer = '3456'.includes(digits[0]!) || (p4 >= 2200 && p4 <= 2204) || (p4 >= 2221 && p4 <= 2720);
  return issuer && luhn(digits);
}

function luhn(digits: string): boolean {
  if (digits.length < 13 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function mask(type: SecretType): string {
  return `[REDACTED:${type}]`;
}

/**
 * Cheap gate: every rule above needs one of these words (in lower case) or a run of 8 digits to
 * match, and most memory text has none, so it skips every rule. The words are grouped by their first
 * letter, so that the engine tries one branch per position instead of all 28: on a 1.3 KB turn 6.9 µs,
 * against 14 µs for the flat list, 10–16 µs for one case-insensitive expression and 8.7 µs for a list of
 * `includes`. Keep it in step with RULES (a test runs every rule's examples through it).
 */
const GATE_WORDS = new RegExp(
  String.raw`@|-----begin|a(?:kia|sia|iza|ccountkey|uthorization|pi[^a-z0-9]{0,3}key)|g(?:h[pousr]_|ithub_pat_|lpat-)` +
    String.raw`|npm_|hf_|s(?:g\.|k-|haredaccesskey|ecret)|xox|hooks\.slack|_(?:live|test)_|q~|eyj|earer|credential` +
    String.raw`|p(?:ass|wd|rivate[^a-z0-9]{0,3}key)|token`,
);
const GATE_DIGITS = /\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d/;

export function mayHoldSecret(text: string): boolean {
  return GATE_DIGITS.test(text) || GATE_WORDS.test(text.toLowerCase());
}

/** Redacts secrets in one string. `hints` are literal strings the emitter asked to be redacted. */
export function redactText(text: string, hints: readonly string[] = []): { text: string; findings: Finding[] } {
  const counts = new Map<SecretType, number>();
  let out = text;
  for (const hint of hints) {
    if (hint.length < 3 || !out.includes(hint)) continue;
    const parts = out.split(hint);
    counts.set('hint', (counts.get('hint') ?? 0) + parts.length - 1);
    out = parts.join(mask('hint'));
  }
  if (mayHoldSecret(out)) {
    for (const rule of RULES) {
      rule.re.lastIndex = 0;
      if (!rule.re.test(out)) continue;
      rule.re.lastIndex = 0;
      out = out.replace(rule.re, (match: string, ...groups: unknown[]) => {
        const secret = rule.group ? (groups[rule.group - 1] as string) : match;
        if (!secret || MARK.test(secret) || (rule.check && !rule.check(secret))) return match;
        counts.set(rule.type, (counts.get(rule.type) ?? 0) + 1);
        return rule.group ? match.replace(secret, mask(rule.type)) : mask(rule.type);
      });
    }
  }
  return { text: out, findings: [...counts].map(([type, count]) => ({ type, count })) };
}

export interface RedactionRecord {
  path: string;
  type: SecretType;
  count: number;
}

/**
 * Redacts every string inside a JSON value, reporting findings by path (`output`, `ccs.constraints[2]`).
 * Object keys are not touched: they are schema, not memory text.
 */
export function redactDeep<T>(
  value: T,
  path: string,
  hints: readonly string[] = [],
  out: RedactionRecord[] = [],
  /** A text holding every string of the value (its JSON, or the strings joined), when the caller has one. */
  text?: string,
): T {
  // One test of the whole value decides for most records that there is nothing to walk.
  if (!hints.length && typeof value === 'object' && value !== null && !mayHoldSecret(text ?? JSON.stringify(value)))
    return value;
  return walk(value, path, hints, out);
}

/**
 * A field whose name says it holds a secret (`password`, `db_password`, `apiKey`, `client-secret`, `github_token`,
 * `credentials`…): its value is the secret whatever it looks like — a string, a number, or every string and number
 * inside a list or an object so named (`"secrets": {"db": "…"}`) — so it is masked whole. In JSON the name and the
 * value are apart, and the value alone ("hunter2hunter2") matches no rule. Read as the name's letters and digits, lower
 * case, by how it ends (linear in the name, whatever its length). Not secrets: the `PWD` and `OLDPWD` of an
 * environment (directories), a flag's "true"/"false", a value of fewer than 4 characters, a count of tokens.
 */
const SECRET_NAME_ENDINGS = [
  'password',
  'passwords',
  'passwd',
  'pwd',
  'passphrase',
  'secret',
  'secrets',
  'secretkey',
  'apikey',
  'apikeys',
  'token',
  'privatekey',
  'credential',
  'credentials',
];
const NOT_SECRET_NAMES = new Set(['pwd', 'oldpwd']);
const FLAG_WORDS = /^(?:true|false|yes|no|none|null|n\/a)$/i;
function secretName(name: string): boolean {
  const n = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return !NOT_SECRET_NAMES.has(n) && SECRET_NAME_ENDINGS.some((e) => n.endsWith(e));
}

/** Every string and number of a value under a secret's name, masked (a copy; findings at their paths). */
function maskAll(value: unknown, path: string, out: RedactionRecord[]): unknown {
  if (typeof value === 'number' || typeof value === 'string') {
    const text = String(value);
    if (text.length < 4 || FLAG_WORDS.test(text) || MARK.test(text)) return value;
    out.push({ path, type: 'password', count: 1 });
    return mask('password');
  }
  if (Array.isArray(value)) return value.map((v, i) => maskAll(v, `${path}[${i}]`, out));
  if (value && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(copy, k, { value: maskAll(v, `${path}.${k}`, out), enumerable: true, writable: true });
    return copy;
  }
  return value;
}

/** Copy-on-write: a value none of whose strings changed is returned as it was (most of a record, when one is found). */
function walk<T>(value: T, path: string, hints: readonly string[], out: RedactionRecord[]): T {
  if (typeof value === 'string') {
    if (!hints.length && !mayHoldSecret(value)) return value;
    const r = redactText(value, hints);
    for (const f of r.findings) out.push({ path, ...f });
    return r.text as T;
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const w = typeof v === 'object' || typeof v === 'string' ? walk(v, `${path}[${i}]`, hints, out) : v;
      if (w !== v) (copy ??= value.slice())[i] = w;
    }
    return (copy ?? value) as T;
  }
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    for (const k in o) {
      if (!Object.hasOwn(o, k)) continue;
      const v = o[k];
      const at = path ? `${path}.${k}` : k;
      const w =
        v !== null && typeof v !== 'boolean' && secretName(k)
          ? maskAll(v, at, out)
          : typeof v === 'object' || typeof v === 'string'
            ? walk(v, at, hints, out)
            : v;
      // defineProperty: a key named `__proto__` (JSON may have one) is a field, not the prototype.
      if (w !== v) Object.defineProperty((copy ??= { ...o }), k, { value: w, enumerable: true, writable: true });
    }
    return (copy ?? value) as T;
  }
  return value;
}
