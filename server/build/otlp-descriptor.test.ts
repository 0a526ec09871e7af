import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DESCRIPTOR, otlpDescriptor } from './otlp-descriptor';

describe('the OTLP trace schema the server decodes with', () => {
  it('is the one compiled from the vendored .proto files (run npm run otlp:descriptor after changing them)', () => {
    expect(JSON.parse(readFileSync(DESCRIPTOR, 'utf8'))).toEqual(otlpDescriptor());
  });
});
