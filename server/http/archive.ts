import { NextResponse } from 'next/server';
import type { Db } from '@/server/db';
import { log } from '@/server/log';
import { exportProject, importProject } from '@/server/services/archive';
import { DomainError, InvalidInputError } from '@/server/services/errors';
import { domainErrorStatus, jsonError } from './respond';

/** A project's archive as a gzip download, streamed as it is read (backpressure from the client). */
export function archiveDownload(db: Db, projectId: string): Response {
  const text = new TransformStream<string, string>();
  const writer = text.writable.getWriter();
  void exportProject(db, projectId, (line) => writer.write(`${line}\n`)).then(
    () => writer.close(),
    (e: Error) => writer.abort(e),
  );
  const body = text.readable.pipeThrough(new TextEncoderStream()).pipeThrough(new CompressionStream('gzip'));
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      'content-type': 'application/gzip',
      'content-disposition': `attachment; filename="mnemoscope-${projectId.replace(/[^\w.-]/g, '_')}-${day}.ndjson.gz"`,
      'cache-control': 'no-store',
    },
  });
}

/** Longest line an export file holds: a row of one table (a turn with its CCS is well under this). */
const MAX_LINE = 64 * 1024 * 1024;

/** The lines of a body, gunzipped when it starts with the gzip magic bytes; read as they arrive. */
export async function* bodyLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const first = await reader.read();
  const head = first.value ?? new Uint8Array();
  const rest = new ReadableStream<Uint8Array>({
    start(c) {
      if (head.byteLength) c.enqueue(head);
      if (first.done) c.close();
    },
    async pull(c) {
      const r = await reader.read();
      if (r.done) c.close();
      else c.enqueue(r.value);
    },
    cancel: (why) => reader.cancel(why),
  });
  const gz = head[0] === 0x1f && head[1] === 0x8b;
  const bytes = gz
    ? rest.pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>)
    : rest;
  const text = bytes.pipeThrough(
    new TextDecoderStream('utf-8', { fatal: true }) as unknown as TransformStream<Uint8Array, string>,
  );
  // A line is assembled from its pieces once, when its newline arrives: a long line costs its length, not its
  // length squared. A broken body (truncated or corrupt gzip, bytes that are not UTF-8) is the sender's error.
  let pieces: string[] = [];
  let length = 0;
  try {
    for await (const chunk of text as unknown as AsyncIterable<string>) {
      let start = 0;
      for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
        pieces.push(chunk.slice(start, nl));
        yield pieces.join('');
        pieces = [];
        length = 0;
        start = nl + 1;
      }
      if (start < chunk.length) {
        pieces.push(chunk.slice(start));
        length += chunk.length - start;
        if (length > MAX_LINE)
          throw new InvalidInputError(`a line is longer than ${MAX_LINE} characters: this is not an export file`);
      }
    }
  } catch (e) {
    if (e instanceof DomainError) throw e;
    throw new InvalidInputError(
      `the body could not be read as ${gz ? 'gzip-compressed ' : ''}UTF-8 text: ${(e as Error).message}`,
    );
  }
  if (pieces.length) yield pieces.join('');
}

/** Imports a request body into a project; 400 naming the line and reason when the file is refused. */
export async function archiveUpload(db: Db, projectId: string, req: Request): Promise<Response> {
  if (!req.body) return jsonError(400, 'body is empty: send the export file (.ndjson or .ndjson.gz)');
  try {
    const r = await importProject(db, bodyLines(req.body), { as: projectId });
    // Not an audit record (export → import → export gives the same file): the log says it happened.
    log.info({ projectId, imported: r }, 'project imported');
    return NextResponse.json(r);
  } catch (e) {
    if (e instanceof DomainError) return jsonError(domainErrorStatus(e), e.message);
    throw e;
  }
}
