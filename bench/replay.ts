/**
 * Replay benchmarks:
 *  1. CCS diff throughput against jsondiffpatch on the same pairs of states, checking both find the
 *     same set of changed terms;
 *  2. step latency in headless Chromium on a 1,000-turn session (key press → new turn painted);
 *  3. opening a 1,000- and a 10,000-turn session on the embedded database (navigation → CCS shown).
 *
 *   npm run bench:replay
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { create } from 'jsondiffpatch';
import { diffCcs } from '@/lib/ccs/diff';
import type { CcsTerms } from '@/lib/ccs/contract';
import { sessionEnvelopes } from '@/server/demo/generate';
import { SCENARIOS } from '@/server/demo/scenarios';
import { normalizeCcs } from '@/lib/ccs/parse';
import { startNextServer } from '@/server/test/next-server';
import { launch } from '../e2e/browser';

const root = path.resolve(import.meta.dirname, '..');
const KEY = 'bench-key-0123456789abcdef';
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/** A long session: the demo scenarios' turns again and again, each cycle's trace a little different. */
function longSession(id: string, turns: number): unknown[] {
  const base = SCENARIOS.flatMap((s, i) => sessionEnvelopes(s, 1000 + i, false).filter((e) => e.type === 'turn')).map(
    (e) => e.data as Record<string, unknown>,
  );
  const out: unknown[] = [
    { type: 'session', data: { id, agent: 'bench-agent', title: `Bench: ${turns} turns`, domain: 'it_ops' } },
  ];
  for (let t = 1; t <= turns; t++) {
    const b = base[(t - 1) % base.length]!;
    const ccs = structuredClone(b.ccs) as Record<string, string[]>;
    ccs.episodic_trace = [...(ccs.episodic_trace ?? []), `cycle(${Math.floor((t - 1) / base.length)})`];
    out.push({
      type: 'turn',
      data: {
        ...b,
        session_id: id,
        agent: 'bench-agent',
        turn: t,
        ccs,
        timestamp: new Date(Date.UTC(2026, 10, 1) + t * 30_000).toISOString(),
      },
    });
  }
  return out;
}

function diffBench() {
  const states: CcsTerms[] = (longSession('d', 1000).slice(1) as { data: { ccs: Record<string, string[]> } }[]).map(
    (e) => normalizeCcs(e.data.ccs),
  );
  const pairs = states.slice(1).map((b, i) => [states[i]!, b] as const);
  const jdp = create({ arrays: { detectMove: true } });

  // Same changed terms: ours (added + changed-to, removed + changed-from) against jsondiffpatch's array inserts and
  // deletes.
  let mismatches = 0;
  for (const [a, b] of pairs) {
    const ours = diffCcs(a, b);
    const add = new Set<string>();
    const rem = new Set<string>();
    for (const f of ours.fields) {
      f.added.forEach((t) => add.add(`${f.field}:${t}`));
      f.removed.forEach((t) => rem.add(`${f.field}:${t}`));
      f.changed.forEach((c) => (add.add(`${f.field}:${c.to}`), rem.add(`${f.field}:${c.from}`)));
    }
    const theirsAdd = new Set<string>();
    const theirsRem = new Set<string>();
    const delta = (jdp.diff(a, b) ?? {}) as Record<string, unknown>;
    for (const [field, d] of Object.entries(delta)) {
      if (Array.isArray(d)) {
        // A whole field added or removed.
        if (d.length === 1) (d[0] as string[]).forEach((t) => theirsAdd.add(`${field}:${t}`));
        else if (d.length === 3 && d[2] === 0) (d[0] as string[]).forEach((t) => theirsRem.add(`${field}:${t}`));
        continue;
      }
      for (const [k, v] of Object.entries(d as Record<string, unknown[]>)) {
        if (k === '_t') continue;
        if (k.startsWith('_') && v[2] === 0) theirsRem.add(`${field}:${v[0]}`);
        else if (!k.startsWith('_') && v.length === 1) theirsAdd.add(`${field}:${v[0]}`);
      }
    }
    const same = (x: Set<string>, y: Set<string>) => x.size === y.size && [...x].every((t) => y.has(t));
    if (!same(add, theirsAdd) || !same(rem, theirsRem)) mismatches++;
  }

  const time = (f: () => void) => {
    for (let i = 0; i < 3; i++) f(); // warm
    const runs: number[] = [];
    for (let r = 0; r < 7; r++) {
      const t0 = performance.now();
      f();
      runs.push(performance.now() - t0);
    }
    return pct(runs, 50);
  };
  // 20 passes over the pairs a run, so a run lasts long enough to time.
  const REPS = 20;
  const ours =
    time(() => {
      for (let r = 0; r < REPS; r++) for (const [a, b] of pairs) diffCcs(a, b);
    }) / REPS;
  const theirs =
    time(() => {
      for (let r = 0; r < REPS; r++) for (const [a, b] of pairs) jdp.diff(a, b);
    }) / REPS;
  console.log(`\nCCS diff on ${pairs.length} consecutive pairs (20 passes a run, median of 7 runs):`);
  console.log(`| differ | pairs/s | µs/pair |\n|---|---:|---:|`);
  console.log(
    `| Mnemoscope diffCcs | ${Math.round(pairs.length / (ours / 1000))} | ` +
      `${((ours * 1000) / pairs.length).toFixed(1)} |`,
  );
  console.log(
    `| jsondiffpatch 0.7.7 (detectMove) | ${Math.round(pairs.length / (theirs / 1000))} | ` +
      `${((theirs * 1000) / pairs.length).toFixed(1)} |`,
  );
  console.log(
    `speed-up ${(theirs / ours).toFixed(1)}× (target ≥ 5×: ${theirs / ours >= 5 ? 'met' : 'NOT met'}); pairs ` +
      `whose changed terms differ: ${mismatches}`,
  );
}

async function browserBench() {
  if (!existsSync(path.join(root, '.next', 'BUILD_ID'))) {
    if (
      spawnSync(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build'], {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
      }).status
    )
      process.exit(1);
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-bench-replay-'));
  const server = await startNextServer({ MNEMOSCOPE_API_KEY: KEY, MNEMOSCOPE_DATA_DIR: dir, DATABASE_URL: '' });
  const url = server.url;
  const browser = await launch();
  try {
    for (const [id, n] of [
      ['bench-1k', 1000],
      ['bench-10k', 10_000],
    ] as const) {
      const rows = longSession(id, n);
      for (let i = 0; i < rows.length; i += 1000) {
        const r = await fetch(`${url}/api/v1/ingest`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}` },
          body: JSON.stringify(rows.slice(i, i + 1000)),
        });
        if (!r.ok) throw new Error(`ingest failed: ${r.status}`);
      }
    }
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();

    console.log('\nOpening a session (navigation start → CCS of the turn painted), embedded PGlite, median of 3:');
    console.log('| session | first meaningful paint (ms) | target |\n|---|---:|---:|');
    for (const [id, target] of [
      ['bench-1k', 1000],
      ['bench-10k', 2000],
    ] as const) {
      const runs: number[] = [];
      for (let r = 0; r < 3; r++) {
        await page.goto(`${url}/sessions/${id}?turn=1`, { waitUntil: 'commit' });
        await page.locator('[data-testid=ccs-state]').waitFor({ timeout: 60_000 });
        runs.push(
          await page.evaluate(() => new Promise<number>((res) => requestAnimationFrame(() => res(performance.now())))),
        );
      }
      const m = pct(runs, 50);
      console.log(`| ${id} | ${Math.round(m)} | ≤ ${target} (${m <= target ? 'met' : 'NOT met'}) |`);
    }

    await page.goto(`${url}/sessions/bench-1k?turn=1`);
    await page.locator('[data-testid=ccs-state]').waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { __lat: number[]; __t0: number };
      w.__lat = [];
      const el = document.querySelector('[data-testid=turn-readout]')!;
      window.addEventListener('keydown', () => (w.__t0 = performance.now()), { capture: true });
      new MutationObserver(() => requestAnimationFrame(() => w.__lat.push(performance.now() - w.__t0))).observe(el, {
        subtree: true,
        characterData: true,
        childList: true,
      });
    });
    for (let s = 0; s < 300; s++) {
      await page.keyboard.press(s < 200 ? 'ArrowRight' : 'ArrowLeft');
    }
    await page.waitForTimeout(200);
    const lat = await page.evaluate(() => (window as unknown as { __lat: number[] }).__lat);
    console.log(
      `\nStep latency on a 1,000-turn session (key press → next frame with the new turn), ${lat.length} steps:`,
    );
    console.log(`| p50 (ms) | p95 (ms) | max (ms) | target p95 |\n|---:|---:|---:|---:|`);
    console.log(
      `| ${pct(lat, 50).toFixed(1)} | ${pct(lat, 95).toFixed(1)} ` +
        `| ${Math.max(...lat).toFixed(1)} ` +
        `| ` +
        `≤ ` +
        `16 ` +
        `(${pct(lat, 95) <= 16 ? 'met' : 'NOT met'}) |`,
    );
  } finally {
    await browser.close();
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

diffBench();
browserBench().catch((e) => {
  console.error(e);
  process.exit(1);
});
