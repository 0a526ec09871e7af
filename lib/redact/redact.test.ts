import { describe, expect, it } from 'vitest';
import { mayHoldSecret, redactDeep, redactText, type RedactionRecord } from './redact';

const cases: [string, string, string][] = [
  [
    'private_key',
    'key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----\nend',
    'MIIEowIBAAKCAQEA7',
  ],
  ['aws_access_key', 'use AKIAIOSFODNN7EXAMPLE for s3', 'AKIAIOSFODNN7EXAMPLE'],
  ['github_token', 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789 here', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
  ['api_key', 'OPENAI sk-proj-abcdefghijklmnopqrstuvwx', 'sk-proj-abcdefghijklmnopqrstuvwx'],
  ['slack_token', 'xoxb-123456789012-abcdefghij', 'xoxb-123456789012-abcdefghij'],
  ['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijkl', 'eyJhbGciOiJIUzI1NiJ9'],
  ['bearer_token', 'Authorization: Bearer abcdefghijklmnop1234', 'abcdefghijklmnop1234'],
  ['url_password', 'postgres://admin:hunter2pass@db.internal:5432/app', 'hunter2pass'],
  ['password', 'DB_PASSWORD=Sup3rS3cretPass! please', 'Sup3rS3cretPass!'],
  ['password', 'The password for the db is hunter22hunter now', 'hunter22hunter'],
  ['card_number', 'card 4111 1111 1111 1111 exp 12/29', '4111 1111 1111 1111'],
  ['email', 'mail jlee.personal@example.com now', 'jlee.personal@example.com'],
  ['us_ssn', 'ssn 123-45-6789', '123-45-6789'],
  ['password', 'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI/K7MDENG'],
  [
    'private_key',
    '-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF0xyz\n-----END PGP PRIVATE KEY BLOCK-----',
    'lQOYBF0xyz',
  ],
  [
    'slack_webhook',
    'post to https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX now',
    'XXXXXXXXXXXXXXXXXXXXXXXX',
  ],
  ['basic_auth', 'Authorization: Basic dXNlcjpodW50ZXIy', 'dXNlcjpodW50ZXIy'],
  ['npm_token', 'npm_abcdefghijklmnopqrstuvwxyz0123456789 in .npmrc', 'npm_abcdefghijklmnopqrstuvwxyz0123456789'],
  ['huggingface_token', 'HF hf_abcdefghijklmnopqrstuvwxyzABCDEFGH ok', 'hf_abcdefghijklmnopqrstuvwxyzABCDEFGH'],
  ['gitlab_token', 'glpat-abcdefghij0123456789 for ci', 'glpat-abcdefghij0123456789'],
  [
    'sendgrid_key',
    'SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG mail',
    'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG',
  ],
  [
    'azure_key',
    'DefaultEndpointsProtocol=https;AccountName=x;AccountKey=' + 'A'.repeat(86) + '==;EndpointSuffix=core',
    'A'.repeat(86),
  ],
  ['azure_key', 'client secret abc8Q~abcdefghijklmnopqrstuvwxyz012345 set', 'abc8Q~abcdefghijklmnopqrstuvwxyz012345'],
];

describe('redactText', () => {
  it.each(cases)('redacts %s', (type, text, secret) => {
    const r = redactText(text);
    expect(r.text).not.toContain(secret);
    expect(r.text).toContain(`[REDACTED:${type}]`);
    expect(r.findings).toContainEqual({ type, count: 1 });
  });

  it.each(cases)('lets %s through the cheap gate, also as JSON', (_, text) => {
    expect(mayHoldSecret(text)).toBe(true);
    expect(mayHoldSecret(JSON.stringify({ x: [text] }))).toBe(true);
  });

  it('opens the gate on every word a rule starts from, in any case, wherever it stands', () => {
    const words = [
      '@',
      '-----BEGIN',
      'AKIA',
      'ASIA',
      'ghp_',
      'gho_',
      'ghu_',
      'ghs_',
      'ghr_',
      'github_pat_',
      'glpat-',
      'npm_',
      'hf_',
      'SG.',
      'sk-',
      'xox',
      'hooks.slack',
      'AIza',
      '_live_',
      '_test_',
      'AccountKey',
      'SharedAccessKey',
      'q~',
      'eyJ',
      'Bearer',
      'authorization',
      'password',
      'pwd',
      'secret',
      'apikey',
      'api_key',
      'api-key',
      'token',
      'private_key',
      'privatekey',
    ];
    for (const w of words)
      for (const text of [w, `x ${w} y`, `prefix${w.toUpperCase()}suffix`, `${w.toLowerCase()}.`])
        expect(mayHoldSecret(text), text).toBe(true);
    for (const text of ['plain prose', 'goal(reduce(502_rate))', 'the apiary', 'tok en', 'pas s', 'a k i a'])
      expect(mayHoldSecret(text), text).toBe(false);
  });

  it('catches a card number split in small groups', () => {
    expect(redactText('pay 4111 111 111 111 111').text).toBe('pay [REDACTED:card_number]');
  });

  it('leaves CCS terms, numbers and ordinary prose alone', () => {
    const text =
      'timing(502_spikes after(http2_enable)) constraints: no_restart(nginx) 502 rate 2.1% → 0.05% at 10:41; ' +
      'order 1234 5678';
    expect(redactText(text)).toEqual({ text, findings: [] });
  });

  it('does not take a non-Luhn digit run for a card', () => {
    expect(redactText('ticket 4111 1111 1111 1112').findings).toEqual([]);
  });

  it('does not take an id or a time that passes the Luhn check but has no issuer for a card', () => {
    // A span's start in nanoseconds and a 19-digit snowflake id, both passing the Luhn check; then cards of each
    // issuer family, the Mastercard 2-series among them.
    for (const id of ['1795690116508000000', '1161978474374807612', '9000000000000000001'])
      expect(redactText(`at ${id}`).findings, id).toEqual([]);
    for (const card of [
      '378282246310005',
      '4012888888881881',
      '5555555555554444',
      '6011111111111117',
      '2221000000000009',
    ])
      expect(redactText(`card ${card}`).text, card).toBe('card [REDACTED:card_number]');
  });

  it('redacts hints given by the emitter and is idempotent on its own marks', () => {
    const once = redactText('grafana password is Gr4f4na!Edge', ['Gr4f4na!Edge']);
    expect(once.text).toBe('grafana password is [REDACTED:hint]');
    expect(redactText(once.text).findings).toEqual([]);
  });

  it('reports findings by path inside JSON', () => {
    const found: RedactionRecord[] = [];
    const out = redactDeep({ constraints: ['ok(x)', 'mail a@b.io'], n: 3 }, 'ccs', [], found);
    expect(out).toEqual({ constraints: ['ok(x)', 'mail [REDACTED:email]'], n: 3 });
    expect(found).toEqual([{ path: 'ccs.constraints[1]', type: 'email', count: 1 }]);
  });

  it('copies only what it redacts, and leaves the value it was given as it was', () => {
    const sent = { input: 'mail a@b.io', ccs: { gist: ['x(y)'], entities: ['e(1)', 'f(2)'] }, n: 3 };
    const before = structuredClone(sent);
    const out = redactDeep(sent, '', [], [], 'mail a@b.io x(y) e(1) f(2)');
    expect(out.input).toBe('mail [REDACTED:email]');
    expect(out.ccs).toBe(sent.ccs); // untouched branches are the same objects, not copies
    expect(sent).toEqual(before);
  });

  it('masks the value of a field whose name says it is a secret: in JSON the value alone matches no rule', () => {
    const found: RedactionRecord[] = [];
    const sent = {
      nested: { password: 'hunter2hunter2', db_password: 'x1y2z3w4', apiKey: 'abcd1234', 'client-secret': 'zzzz9' },
      github_token: 'tok3n-value',
      api__key: 'k3y-value',
      pin_password: 12345678,
      secrets: { db: 'dbs3cret', list: ['s3cret-one', 'ab'] },
      note: 'fine',
      input_tokens: 1200,
      pwd: 'ab',
      PWD: '/home/alice/project',
      is_secret: 'true',
    };
    expect(redactDeep(sent, 'extra', [], found)).toEqual({
      nested: {
        password: '[REDACTED:password]',
        db_password: '[REDACTED:password]',
        apiKey: '[REDACTED:password]',
        'client-secret': '[REDACTED:password]',
      },
      github_token: '[REDACTED:password]',
      api__key: '[REDACTED:password]',
      pin_password: '[REDACTED:password]',
      secrets: { db: '[REDACTED:password]', list: ['[REDACTED:password]', 'ab'] },
      note: 'fine',
      input_tokens: 1200,
      pwd: 'ab',
      PWD: '/home/alice/project',
      is_secret: 'true',
    });
    expect(found.map((f) => f.path)).toEqual([
      'extra.nested.password',
      'extra.nested.db_password',
      'extra.nested.apiKey',
      'extra.nested.client-secret',
      'extra.github_token',
      'extra.api__key',
      'extra.pin_password',
      'extra.secrets.db',
      'extra.secrets.list[0]',
    ]);
    // The one-test gate sees such names too (a JSON with nothing else to redact is still walked).
    expect(redactDeep({ credentials: { user: 'svc-backup' } }, '')).toEqual({
      credentials: { user: '[REDACTED:password]' },
    });
    // Its name is read in linear time, however long.
    const t0 = performance.now();
    redactDeep({ [`${'a1_'.repeat(100_000)}x`]: 'value of a long name', password: 'p4ssw0rd!' }, '');
    expect(performance.now() - t0).toBeLessThan(500);
  });

  it('redacts a field named __proto__ as a field, without touching any prototype', () => {
    const sent = JSON.parse('{"__proto__": {"note": "password=hunter22x"}, "ok": "fine"}') as Record<string, unknown>;
    const found: RedactionRecord[] = [];
    const out = redactDeep(sent, 'extra', [], found);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ note: 'password=[REDACTED:password]' });
    expect(found).toEqual([{ path: 'extra.__proto__.note', type: 'password', count: 1 }]);
  });
});
