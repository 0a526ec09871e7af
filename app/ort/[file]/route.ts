import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

/**
 * onnxruntime-web's WASM runtime, served by the app itself from node_modules (never a CDN), so
 * in-browser embeddings work offline. Only the two files transformers.js loads are served.
 */
const FILES: Record<string, string> = {
  'ort-wasm-simd-threaded.asyncify.mjs': 'text/javascript; charset=utf-8',
  'ort-wasm-simd-threaded.asyncify.wasm': 'application/wasm',
};

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const type = Object.hasOwn(FILES, file) ? FILES[file] : undefined;
  if (!type) return new Response('Not found\n', { status: 404 });
  const full = path.join(process.cwd(), 'node_modules', 'onnxruntime-web', 'dist', file);
  const size = statSync(full).size;
  return new Response(Readable.toWeb(createReadStream(full)) as ReadableStream, {
    headers: { 'content-type': type, 'content-length': String(size), 'cache-control': 'public, max-age=86400' },
  });
}
