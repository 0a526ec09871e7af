/**
 * Whether this instance is shutting down, shared by the server (server/cli/serve.ts) and the app's bundled
 * code (readiness answers 503 once it is, so a load balancer stops sending requests here).
 */
const g = globalThis as unknown as { __mnemoscopeStopping?: boolean };

export function beginShutdown(): void {
  g.__mnemoscopeStopping = true;
}

export function shuttingDown(): boolean {
  return g.__mnemoscopeStopping === true;
}
