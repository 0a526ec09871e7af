import { NextResponse } from 'next/server';
import { ready } from '@/server/bootstrap';
import { verifyKey } from '@/server/services/api-keys';
import type { Db } from '@/server/db';

export function jsonError(status: number, error: string, extra: Record<string, unknown> = {}) {
  return NextResponse.json({ error, ...extra }, { status });
}

export type Authed = { db: Db; projectId: string; actor: string };

/** Checks `Authorization: Bearer <key>` and resolves the key's project. */
export async function authenticate(req: Request): Promise<Authed | NextResponse> {
  const { db } = await ready();
  const header = req.headers.get('authorization') ?? '';
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  if (!m) return jsonError(401, 'missing API key: send "Authorization: Bearer <key>" (create keys in Settings, or set MNEMOSCOPE_API_KEY)');
  const key = await verifyKey(db, m[1]!);
  if (!key) return jsonError(401, 'unknown or revoked API key');
  return { db, projectId: key.projectId, actor: `api_key:${key.keyId}` };
}

/** Reads a request body, refusing more than `limit` bytes without buffering them all. */
export async function readBody(req: Request, limit: number): Promise<Uint8Array | NextResponse> {
  const tooLarge = () => jsonError(413, `body is larger than the limit of ${limit} bytes; split it into smaller batches`, { limitBytes: limit });
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) return tooLarge();
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return tooLarge();
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.byteLength;
  }
  return out;
}
