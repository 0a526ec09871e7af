import path from 'node:path';
import lockfile from 'proper-lockfile';

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
