/** `memevt_` and 32 random hex digits, as the Agentlas schema wants (Web Crypto: Node, Bun, Deno, browsers). */
export function newEventId(): string {
  return `memevt_${globalThis.crypto.randomUUID().replaceAll('-', '')}`;
}
