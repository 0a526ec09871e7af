import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/** The newest modification time under `p` (a file or a folder; node_modules and the demo data left out); 0 if none. */
function newest(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(p).reduce(
    (m, n) => (n === 'node_modules' || n === 'demo' ? m : Math.max(m, newest(path.join(p, n)))),
    st.mtimeMs,
  );
}

/** Whether there is no build (`buildId`, a file it writes last) or a source (paths under `root`) is newer. */
export function buildIsStale(root: string, sources: readonly string[], buildId: string): boolean {
  return (
    !existsSync(buildId) || Math.max(...sources.map((s) => newest(path.join(root, s)))) > statSync(buildId).mtimeMs
  );
}

/**
 * Dates a build by its start: a source saved while it ran may not be in it, and must make the next start build again
 * (dated by its end, the build looked newer than that source, and the edit was served stale).
 */
export function dateBuild(buildId: string, startedMs: number) {
  utimesSync(buildId, startedMs / 1000, startedMs / 1000);
}

/** The lock's directory, beside `.next` (a build empties `.next`). */
export const BUILD_LOCK = '.next-build.lock';

export type BuildOutcome = 'built' | 'fresh';

/**
 * Builds the app if it is stale, one process at a time. Two instances started together on one checkout (or both
 * restarted after an upgrade) would otherwise write `.next` at once and leave a build neither can serve: the second
 * waits for the first's lock, then looks again and finds the build fresh. A lock whose holder died (no refresh for
 * 20 s) is taken over. `build` must not block the event loop: the lock is kept fresh from it.
 */
export async function buildOnce(
  root: string,
  isStale: () => boolean,
  build: () => Promise<void>,
  onWait: () => void = () => {},
): Promise<BuildOutcome> {
  if (!isStale()) return 'fresh';
  const options = { lockfilePath: path.join(root, BUILD_LOCK), realpath: false, stale: 20_000, update: 5_000 };
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(root, options);
  } catch (e) {
    if ((e as { code?: string }).code !== 'ELOCKED') throw e;
    onWait();
    release = await lockfile.lock(root, { ...options, retries: { forever: true, minTimeout: 250, maxTimeout: 1000 } });
  }
  try {
    if (!isStale()) return 'fresh';
    await build();
    return 'built';
  } finally {
    await release();
  }
}
