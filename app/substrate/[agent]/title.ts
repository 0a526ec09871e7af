import { decodeSegment } from '@/lib/net/path';

/** A substrate page's title: the page and the agent it shows ("Judgment · ops-agent · Mnemoscope"). */
export function agentPageTitle(page: string) {
  return async ({ params }: { params: Promise<{ agent: string }> }) => ({
    title: `${page} · ${decodeSegment((await params).agent)}`,
  });
}
