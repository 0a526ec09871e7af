/**
 * Imported first by every bench: refuses to measure while something else on the machine would skew the figures (a
 * leftover app server, its private PostgreSQL, a headless browser, a test run). On 2 cores one stray server catching
 * up replay digests took 2.55 s of CPU in a 3.3 s measurement, and its figure passed for a real one.
 * BENCH_ALLOW_BUSY=1 measures anyway, and says so in the output.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

const STRAYS: [string, RegExp][] = [
  ['an app server', /server\/cli\/serve\.ts|next(\/dist\/bin\/next)? start|next-server/],
  ["a test or bench's private PostgreSQL", /postgres.* -D \S*mnemoscope-pg-/],
  ['a headless browser', /chromium.*--headless|headless_shell/],
  ['a test run', /vitest/],
];

/** Processes other than this one whose command line matches a stray's, with what each is. */
export function strayProcesses(): { pid: number; what: string; cmd: string }[] {
  const out: { pid: number; what: string; cmd: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    const hit = STRAYS.find(([, re]) => re.test(cmd));
    if (hit) out.push({ pid, what: hit[0], cmd: cmd.slice(0, 160) });
  }
  return out;
}

const strays = strayProcesses();
if (strays.length) {
  const list = strays.map((s) => `  ${s.pid}  ${s.what}: ${s.cmd}`).join('\n');
  if (process.env.BENCH_ALLOW_BUSY === '1') {
    console.log(`MEASURED ON A BUSY MACHINE (BENCH_ALLOW_BUSY=1), these ran beside it:\n${list}`);
  } else {
    const cores = os.cpus().length;
    console.error(
      `refusing to measure: other processes would share the ${cores} cores and skew the figures:\n${list}\n` +
        'Stop them (kill PID), or set BENCH_ALLOW_BUSY=1 to measure anyway.',
    );
    process.exit(2);
  }
}
