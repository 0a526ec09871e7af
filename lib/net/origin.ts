import { isLoopback } from './loopback';

/**
 * Cross-site request checks for the browser-facing endpoints (pages and tRPC):
 *  - in local single-user mode the Host must be this machine (a loopback name), which defeats DNS
 *    rebinding (with sign-in, cookies are per host, so a rebound name carries none);
 *  - a state-changing request must come from this origin (Origin, or Sec-Fetch-Site when sent),
 *    and as JSON, which a cross-site form or no-cors fetch cannot send.
 * Returns the reason to refuse, or null.
 */
export function refuseCrossSite(
  req: { method: string; headers: { get(name: string): string | null } },
  opts: { loopbackOnly?: boolean; formPost?: boolean } = { loopbackOnly: true },
): string | null {
  const host = req.headers.get('host') ?? '';
  const hostname = host.replace(/:\d+$/, '');
  if (opts.loopbackOnly !== false && !isLoopback(hostname)) return `Host ${JSON.stringify(host)} is not this machine`;
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return null;
  const site = req.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return `cross-site request (Sec-Fetch-Site: ${site})`;
  const origin = req.headers.get('origin');
  if (origin && origin !== 'null') {
    let o: URL;
    try {
      o = new URL(origin);
    } catch {
      return `malformed Origin ${JSON.stringify(origin)}`;
    }
    if (o.host !== host) return `Origin ${origin} is not this site`;
  } else if (origin === 'null') return 'opaque Origin';
  const type = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  // The sign-in form posts form-encoded: accepted only with an Origin of this site.
  if (opts.formPost && type === 'application/x-www-form-urlencoded')
    return origin ? null : 'a form post must carry an Origin';
  if (type !== 'application/json')
    return `state-changing requests must be application/json, not ${JSON.stringify(type || 'none')}`;
  return null;
}
