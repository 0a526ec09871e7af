import { NextResponse, type NextRequest } from 'next/server';
import { refuseCrossSite } from '@/lib/net/origin';

/**
 * Security headers on every response, cross-site and DNS-rebinding requests refused, and a strict
 * Content-Security-Policy with a fresh nonce per
 * request: scripts run only if they carry it ('strict-dynamic' lets Next's own loader pass it on),
 * so no script can ride in on memory content. Styles allow inline (React style attributes); the
 * page never renders memory text as HTML in the first place.
 */
const PUBLIC = ['/sign-in', '/api/auth/', '/api/v1/', '/api/health', '/api/ready', '/models/', '/ort/'];

export function proxy(request: NextRequest) {
  // Next's router answers a path with malformed percent-encoding with a bare 500: say what is wrong.
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    return new NextResponse('Bad request: the path has malformed percent-encoding\n', {
      status: 400,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  // Pages and tRPC act for the local user without a key: refuse other sites and rebound hosts.
  // The ingest API (/api/v1) authenticates every request with its Bearer key instead.
  if (!request.nextUrl.pathname.startsWith('/api/v1/')) {
    const why = refuseCrossSite(request, {
      loopbackOnly: process.env.MNEMOSCOPE_AUTH !== 'users',
      formPost: request.nextUrl.pathname.startsWith('/api/auth/'),
    });
    if (why)
      return new NextResponse(`Refused: ${why}\n`, {
        status: 403,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
      });
  }
  // Users mode: everything but sign-in, the key-authenticated API and static assets needs a session
  // cookie (whether it is valid, and what it may do, the tRPC context decides).
  if (
    process.env.MNEMOSCOPE_AUTH === 'users' &&
    !PUBLIC.some((p) => request.nextUrl.pathname.startsWith(p)) &&
    !request.cookies.get('mnemoscope_session')
  ) {
    if (request.nextUrl.pathname.startsWith('/api/'))
      return NextResponse.json({ error: 'sign in first' }, { status: 401 });
    const to = new URL('/sign-in', request.url);
    to.searchParams.set('next', `${request.nextUrl.pathname}${request.nextUrl.search}`);
    return NextResponse.redirect(to);
  }
  const nonce = btoa(crypto.randomUUID());
  const dev = process.env.NODE_ENV !== 'production';
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('Content-Security-Policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', csp);
  response.headers.set('X-Content-Type-Options', 'nosniff');
  // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on form posts, which the sign-in form
  // needs.
  response.headers.set('Referrer-Policy', 'same-origin');
  response.headers.set('X-Frame-Options', 'DENY');
  response.headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  response.headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  return response;
}

// The key-authenticated API (/api/v1) does not pass through here: Next buffers a copy of every body that does, and
// cuts it at 10 MB, below the documented 16 MiB limit and the unlimited project import. Its headers come from
// next.config.js.
export const config = {
  matcher: ['/((?!_next/static|_next/image|icon.svg|favicon.ico|api/v1/).*)'],
};
