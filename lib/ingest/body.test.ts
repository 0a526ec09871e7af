import { describe, expect, it } from 'vitest';
import { parseIngestBody } from './body';

const enc = (s: string) => new TextEncoder().encode(s);

describe('parseIngestBody', () => {
  it('reads a JSON array', () => {
    const r = parseIngestBody(enc('[{"type":"session","data":{}}, {"type":"turn","data":{}}]'));
    expect(r.ok && r.format === 'json' && r.items.length).toBe(2);
  });

  it('reads NDJSON, making a bad line a rejected record of its own', () => {
    const bad = new Uint8Array([
      ...enc('{"type":"session","data":{"id":"a"}}\n'),
      0x7b,
      0xff,
      0xfe,
      0x7d,
      ...enc('\nnot json\n\n{"type":"turn","data":{}}\n'),
    ]);
    const r = parseIngestBody(bad);
    if (!r.ok) throw new Error(r.error);
    expect(r.format).toBe('ndjson');
    expect(r.items.map((i) => i.ok)).toEqual([true, false, false, true]);
    expect(r.items[1]).toMatchObject({
      ok: false,
      errors: [{ message: expect.stringContaining('line 2 is not valid UTF-8') }],
    });
    expect(r.items[2]).toMatchObject({
      ok: false,
      errors: [{ message: expect.stringContaining('line 3 is not valid JSON') }],
    });
  });

  it('reads valid UTF-8 NDJSON whole with the same line numbers: BOM, CRLF, blank lines, non-ASCII text', () => {
    const body = enc('\ufeff{"type":"turn","data":{"x":"é 🙂"}}\r\n\r\n{broken\r\n{"type":"session","data":{}}');
    const r = parseIngestBody(body);
    if (!r.ok) throw new Error(r.error);
    expect(r.items.map((i) => i.ok)).toEqual([true, false, true]);
    expect(r.items[0]).toMatchObject({ ok: true, value: { data: { x: 'é 🙂' } } });
    expect(r.items[1]).toMatchObject({ errors: [{ message: expect.stringContaining('line 3 is not valid JSON') }] });
  });

  it('drops the byte order mark of each file joined into one NDJSON body, with or without a bad byte elsewhere', () => {
    const joined = '\ufeff{"type":"turn","data":{"n":1}}\n\ufeff{"type":"turn","data":{"n":2}}\n';
    const r = parseIngestBody(enc(joined));
    expect(r.ok && r.items).toEqual([
      { ok: true, value: { type: 'turn', data: { n: 1 } } },
      { ok: true, value: { type: 'turn', data: { n: 2 } } },
    ]);
    const bad = parseIngestBody(new Uint8Array([...enc(joined), 0xc3, 0x28, 0x0a]));
    expect(bad.ok && bad.items.map((i) => i.ok)).toEqual([true, true, false]);
  });

  it('takes one pretty-printed envelope', () => {
    const r = parseIngestBody(enc('{\n  "type": "session",\n  "data": {"id": "x"}\n}'));
    expect(r.ok && r.items.length).toBe(1);
  });

  it('rejects an empty body, a broken JSON array and an array with invalid UTF-8 as a whole', () => {
    expect(parseIngestBody(enc('  \n'))).toMatchObject({ ok: false, error: expect.stringContaining('empty') });
    expect(parseIngestBody(enc('[{"type":'))).toMatchObject({
      ok: false,
      error: expect.stringContaining('not valid JSON'),
    });
    expect(parseIngestBody(new Uint8Array([0x5b, 0x22, 0xc3, 0x28, 0x22, 0x5d]))).toMatchObject({
      ok: false,
      error: expect.stringContaining('offset 2'),
    });
    expect(parseIngestBody(enc('{"a":1}'.replace('{', '[{')))).toMatchObject({ ok: false });
  });

  it('refuses as a whole a body none of whose lines is JSON, naming the first line’s reason', () => {
    expect(parseIngestBody(enc('{not json'))).toEqual({
      ok: false,
      error: expect.stringMatching(/^body is neither JSON nor NDJSON: line 1 is not valid JSON: /),
    });
    const form = parseIngestBody(enc('type=turn&data=x\nmore=1\n'));
    expect(form).toMatchObject({ ok: false, error: expect.stringContaining('(and so is its other line)') });
    expect(parseIngestBody(new Uint8Array([0xff, 0x0a, 0x7b]))).toMatchObject({
      ok: false,
      error: expect.stringContaining('line 1 is not valid UTF-8'),
    });
  });
});
