import { annotationsGet, annotationsPost } from '@/server/http/annotations';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = annotationsGet;
export const POST = annotationsPost;
