import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * One process per embedded data directory. PGlite keeps its own copy of the database in memory and writes
 * it back on its own schedule, so two processes on one directory each acknowledge writes the other never
 * sees, and the last to stop wins. `mnemoscope.lock` names the holder (pid, host, start time); a second
 * process refuses to open the directory while the holder lives. A lock left by a crash (kill -9) is stale —
 * its process is gone, or its pid now belongs to a process started later — and is taken over.
 */
export interface DirLockHolder {
  pid: number;
  host: string;
  /** The holder's start time as the kernel counts it (Linux `/proc/<pid>/stat` field 22), if known. */
  started: string | null;
  at: string;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: DirLockHolder,
  ) {
    super(
      `the data directory ${dir} is in use by process ${holder.pid} on ${holder.host} (since ${holder.at}); ` +
        'an embedded database serves one process: stop that process first, or use another MNEMOSCOPE_DATA_DIR ' +
        '(several instances need PostgreSQL: set DATABASE_URL)',
    );
    this.name = 'DataDirInUseError';
  }
}

function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) may hold spaces and parentheses: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(holder: DirLockHolder): boolean {
  if (holder.host !== os.hostname()) return true; // another machine's process: cannot tell, assume it lives
  try {
    process.kill(holder.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const started = processStart(holder.pid);
  // The pid lives; it is the holder unless the kernel says that process started at another time (pid reuse).
  return !(holder.started && started && started !== holder.started);
}

function readHolder(file: string): DirLockHolder | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as DirLockHolder;
  } catch {
    return null; // gone, or half-written by a process that died while writing it: stale
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Locks `dir` for this process; resolves to the release function, or throws DataDirInUseError. */
export async function lockDataDir(dir: string): Promise<() => void> {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'mnemoscope.lock');
  const me: DirLockHolder = {
    pid: process.pid,
    host: os.hostname(),
    started: processStart(process.pid),
    at: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        if (readHolder(file)?.pid === me.pid) unlinkSync(file);
      };
      process.on('exit', release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = readHolder(file);
    if (holder && holder.pid !== process.pid && alive(holder)) throw new DataDirInUseError(dir, holder);
    // An unreadable lock may be one another process has just created and not yet written: give it a moment.
    const age = Date.now() - (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    if (!holder && age < 2000) {
      await sleep(20);
      continue;
    }
    // Stale (or our own pid from an earlier run in a reused pid namespace): take it over, one process at a
    // time, so that two processes starting together cannot both remove a lock and both create one.
    const takeover = `${file}.takeover`;
    try {
      mkdirSync(takeover);
    } catch {
      // Someone else is taking over; a takeover left by a crash is removed after five seconds.
      if (Date.now() - (statSync(takeover, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 5000)
        rmSync(takeover, { recursive: true, force: true });
      await sleep(20);
      continue;
    }
    try {
      const again = readHolder(file);
      if (JSON.stringify(again) === JSON.stringify(holder)) unlinkSync(file);
    } catch {
      /* already removed */
    } finally {
      rmdirSync(takeover);
    }
  }
  throw new Error(`could not lock the data directory ${dir}: the lock file kept changing`);
}
