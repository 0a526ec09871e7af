import { describe, expect, it } from 'vitest';
import { otlpRequests } from './file';

const request = (trace: string) => ({
  resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: trace, spanId: 'a' }] }] }],
});

describe('a file of OTLP/JSON trace exports', () => {
  it('reads a collector file exporter’s lines, or one export saved whole', () => {
    const lines = [request('t1'), request('t2')].map((r) => JSON.stringify(r)).join('\n');
    expect(otlpRequests(`${lines}\n\n`)).toEqual([request('t1'), request('t2')]);
    expect(otlpRequests(JSON.stringify(request('t3'), null, 2))).toEqual([request('t3')]);
  });

  it('is not one when any line is something else', () => {
    expect(otlpRequests(`${JSON.stringify(request('t1'))}\n{"type":"turn","data":{}}`)).toBeNull();
    expect(otlpRequests(`${JSON.stringify(request('t1'))}\n{not json`)).toBeNull();
    expect(otlpRequests('{"type":"turn","data":{}}')).toBeNull();
    expect(otlpRequests('[{"resourceSpans":[]}]')).toBeNull();
    expect(otlpRequests('')).toBeNull();
  });
});
