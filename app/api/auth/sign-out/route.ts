import { ready } from '@/server/bootstrap';
import { SESSION_COOKIE, signOut } from '@/server/services/auth';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request) {
  const token = /(?:^|;\s*)mnemoscope_session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  if (token) await signOut((await ready()).db, decodeURIComponent(token));
  return new Response(null, { status: 303, headers: { location: '/sign-in', 'set-cookie': `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0` } });
}
