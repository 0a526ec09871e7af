/**
 * The app's process-wide database for tests that call route handlers in-process: an in-memory
 * PGlite with the demo, in local mode. `enterApp` sets the environment the app reads; `leaveApp`
 * closes the database and puts this process's globals and environment back as they were.
 */
const KEYS = ['MNEMOSCOPE_DATA_DIR', 'DATABASE_URL', 'MNEMOSCOPE_DEMO', 'MNEMOSCOPE_AUTH'] as const;

export function enterApp(): Record<string, string | undefined> {
  const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
  Object.assign(process.env, {
    MNEMOSCOPE_DATA_DIR: 'memory',
    DATABASE_URL: '',
    MNEMOSCOPE_DEMO: '1',
    MNEMOSCOPE_AUTH: 'local',
  });
  return saved;
}

export async function leaveApp(saved: Record<string, string | undefined>) {
  const { ready } = await import('@/server/bootstrap');
  await (await ready()).close();
  const g = globalThis as Record<string, unknown>;
  delete g.__mnemoscopeDb;
  delete g.__mnemoscopeReady;
  for (const k of KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
}
