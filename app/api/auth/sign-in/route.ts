import { signInPost } from '@/server/http/auth';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The sign-in form posts here (server/http/auth.ts). */
export const POST = signInPost;
