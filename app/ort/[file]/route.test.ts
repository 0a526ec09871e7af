import { describe, expect, it } from 'vitest';
import { GET } from './route';

const get = (file: string) => GET(new Request(`http://localhost/ort/${file}`), { params: Promise.resolve({ file }) });

describe('GET /ort/[file]', () => {
  it('serves the two runtime files and answers 404, never 500, for anything else', async () => {
    const wasm = await get('ort-wasm-simd-threaded.asyncify.wasm');
    expect(wasm.status).toBe(200);
    expect(wasm.headers.get('content-type')).toBe('application/wasm');
    await wasm.body?.cancel();
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', '../package.json'])
      expect((await get(name)).status, name).toBe(404);
  });
});
