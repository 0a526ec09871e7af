import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVE_BUNDLE } from './serve-bundle';

describe('the server bundle', () => {
  it('is the file `npm start` runs, outside the build output a concurrent build empties', () => {
    const pkg = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8'));
    expect(pkg.scripts.start).toBe(`tsx server/cli/start.ts && exec node ${SERVE_BUNDLE}`);
    expect(SERVE_BUNDLE.startsWith('.next')).toBe(false);
  });
});
