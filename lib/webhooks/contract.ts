/**
 * Webhooks: what a project's decisions announce, how each call is signed, and when a failed call is tried again.
 * Signing and checking use Web Crypto only, so the same code signs on the server and verifies in a receiver written
 * with the SDK (Node ≥ 20, Deno, Bun, workers).
 */

export const WEBHOOK_EVENTS = ['proposal.created', 'proposal.decided', 'entry.deprecated'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'proposal.created': 'the curator asks for a review',
  'proposal.decided': 'a reviewer approves (perhaps edited) or rejects',
  'entry.deprecated': 'a memory entry is deprecated',
};

/** The header that carries `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const SIGNATURE_HEADER = 'mnemoscope-signature';
/** A signature older or newer than this is refused by `verifyWebhook` (a replayed call). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** Tries a delivery gets; the waits between them double from 10 s up to an hour (about 85 minutes in all). */
export const MAX_DELIVERY_ATTEMPTS = 10;

/** Seconds to wait after the `failures`-th failed attempt (1-based) before the next. */
export function retryDelaySeconds(failures: number): number {
  return Math.min(3600, 10 * 2 ** Math.max(0, failures - 1));
}

/** What a webhook URL must be: http(s), no credentials in it (they would be logged with every delivery). */
export function webhookUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return `must be http or https, not ${u.protocol}`;
  if (u.username || u.password) return 'must not carry a user name or password (the signature authenticates calls)';
  return null;
}

const enc = new TextEncoder();

function hmacKey(secret: string, use: 'sign' | 'verify') {
  return crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [use]);
}

const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('');

/** The signature header's value for `body` sent at `at` (unix seconds). */
export async function signWebhook(secret: string, body: string, at: number): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(secret, 'sign'), enc.encode(`${at}.${body}`));
  return `t=${at},v1=${hex(mac)}`;
}

/**
 * Checks a received call: true only when the header's HMAC matches the body exactly as received and its time is
 * within `toleranceSeconds` of `now` (unix seconds). Compared in constant time (Web Crypto's verify).
 */
export async function verifyWebhook(
  secret: string,
  body: string,
  header: string | null | undefined,
  { now = Date.now() / 1000, toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS } = {},
): Promise<boolean> {
  const parts = Object.fromEntries(
    (header ?? '').split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
  const at = Number(parts.t);
  const sig = parts.v1 ?? '';
  if (!Number.isInteger(at) || Math.abs(now - at) > toleranceSeconds || !/^[0-9a-f]{64}$/.test(sig)) return false;
  const bytes = new Uint8Array(sig.match(/../g)!.map((h) => parseInt(h, 16)));
  return crypto.subtle.verify('HMAC', await hmacKey(secret, 'verify'), bytes, enc.encode(`${at}.${body}`));
}
