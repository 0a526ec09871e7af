import { inject } from 'vitest';

/**
 * The server a UI test file runs against: the embedded database with the demo, or PostgreSQL with the demo when
 * the file is run from e2e/on-postgres/ (which sets MNEMOSCOPE_E2E_DB before importing it).
 */
export function uiServer() {
  const name = process.env.MNEMOSCOPE_E2E_DB === 'postgres' ? 'postgres' : 'pglite';
  return inject('uiServers').find((s) => s.name === name)!;
}

/** Which database a UI test file runs on, for test names. */
export const uiDb = () => uiServer().name;
