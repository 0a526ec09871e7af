import { signOutPost } from '@/server/http/auth';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Sign-out (server/http/auth.ts). */
export const POST = signOutPost;
