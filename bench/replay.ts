/**
 * Replay benchmarks:
 *  1. CCS diff throughput against jsondiffpatch on the same pairs of states, checking both find the
 *     same set of changed terms;
 *  2. in headless Chromium on the embedded database, sessions of 1,000, 10,000 and 100,000 turns: opening cold
 *     (a new browser context) and warm (navigation → CCS painted, medians of 3), the HTML sent, step latency
 *     one key press at a time (key press → the frame after the new turn's CCS shows), what an idle page transfers
 *     in 10 s, the browser's heap and the server's resident memory, with the growth 1k → 100k.
 *     (`npm run bench:scale` runs this part and bench:sessions, the 10,000-session list.)
 *
 *   npm run bench:replay
 */
import './quiet';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { create } from 'jsondiffpatch';
import { diffCcs } from '@/lib/ccs/diff';
import type { CcsTerms } from '@/lib/ccs/contract';
import { sessionEnvelopes } from '@/server/demo/generate';
import { SCENARIOS } from '@/server/demo/scenarios';
import { normalizeCcs } from '@/lib/ccs/parse';
import { startNextServer } from '@/server/test/next-server';
import type { BrowserContext, Page } from 'playwright-core';
import { launch } from '../e2e/browser';

const root = path.resolve(import.meta.dirname, '..');
const KEY = 'bench-key-0123456789abcdef';
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/** Resident memory of the server process now (its own, not its children's), from /proc. */
function serverRss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

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
    // BENCH_REPLAY_ONLY=bench-100k measures one size (the growth line then needs all three).
    const only = process.env.BENCH_REPLAY_ONLY;
    const sizes = (
      [
        ['bench-1k', 1000],
        ['bench-10k', 10_000],
        ['bench-100k', 100_000],
      ] as const
    ).filter(([id]) => !only || id === only);
    for (const [id, n] of sizes) {
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
    // The digests are built once turns arrive, in the background once ingest pauses: wait for them (asking for each
    // one catches it up), so that no figure below measures a server still building the 100k-turn one.
    for (const [id] of sizes) {
      const input = encodeURIComponent(JSON.stringify({ json: { id } }));
      const r = await fetch(`${url}/api/trpc/sessions.digest?input=${input}`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      if (!r.ok) throw new Error(`digest of ${id}: ${r.status}`);
    }
    /**
     * Navigation start → the turn's CCS painted, in a page of its own (cold: a new browser context too); and → the
     * whole page drawn and live (the digest's timeline, charts and alerts, where terms came from, the keys bound).
     */
    const openOnce = async (id: string, context: BrowserContext, turn = 1) => {
      const page = await context.newPage();
      const html: number[] = [];
      page.on('response', async (r) => {
        if (r.request().resourceType() === 'document') html.push((await r.body().catch(() => Buffer.alloc(0))).length);
      });
      await page.goto(`${url}/sessions/${id}?turn=${turn}`, { waitUntil: 'commit' });
      await page.locator('[data-testid=ccs-state]').waitFor({ timeout: 120_000 });
      const painted = () =>
        page.evaluate(
          () => new Promise<number>((res) => requestAnimationFrame(() => setTimeout(() => res(performance.now())))),
        );
      const ms = await painted();
      await page.locator('.replay[data-complete]').waitFor({ state: 'attached', timeout: 120_000 });
      await page.locator('html[data-replay-keys]').waitFor({ state: 'attached', timeout: 120_000 });
      const all = await painted();
      return { ms, all, page, html: html[0] ?? 0 };
    };
    /**
     * One step at a time: key press → the frame after the new turn's CCS shows (the readout moved on and the CCS panel
     * is that turn's, not a loading placeholder), as a user waits for it. Also, per step: the page's own work (key
     * press → the DOM holds the new turn), and whether the new turn was in the first frame drawn after the key press
     * (the painted figure includes the wait for that frame, up to one frame interval, whatever the work).
     */
    const steps = async (page: Page, count: number) => {
      const lat: number[] = [];
      const work: number[] = [];
      let nextFrame = 0;
      // The player's keys are bound once it has hydrated (replay-view sets this attribute).
      await page.locator('html[data-replay-keys]').waitFor({ state: 'attached', timeout: 120_000 });
      await page.evaluate(() => {
        const w = window as unknown as { __t0: number; __frame: Promise<number> };
        window.addEventListener(
          'keydown',
          () => {
            w.__t0 = performance.now();
            // The timestamp of the first frame after the key press.
            w.__frame = new Promise<number>((res) => requestAnimationFrame((ts) => res(ts)));
          },
          { capture: true },
        );
      });
      for (let s = 0; s < count; s++) {
        // The observer is in place before the key is pressed (evaluateHandle returns once it is installed).
        const watch = await page.evaluateHandle(() => ({
          painted: new Promise<[number, number, boolean]>((res) => {
            const w = window as unknown as { __t0: number; __frame: Promise<number> };
            // No named functions in here: the bundler would wrap them in a helper the page does not have.
            const sel = '[data-testid=turn-readout] b';
            const before = document.querySelector(sel)?.textContent ?? '';
            const mo = new MutationObserver(() => {
              const turn = document.querySelector(sel)?.textContent ?? '';
              const head = document.querySelector('[data-testid=ccs-panel] .panel-head .mono')?.textContent;
              if (turn === before || head !== turn || !document.querySelector('[data-testid=ccs-state]')) return;
              mo.disconnect();
              const done = performance.now() - w.__t0;
              requestAnimationFrame((ts) =>
                setTimeout(() => void w.__frame.then((f) => res([performance.now() - w.__t0, done, ts === f]))),
              );
            });
            mo.observe(document.querySelector('.replay')!, { subtree: true, characterData: true, childList: true });
          }),
        }));
        // Mostly forward, across a window boundary (turns 50 → ~140).
        await page.keyboard.press(s % 40 < 35 ? 'ArrowRight' : 'ArrowLeft');
        const timeout = new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`step ${s}: the turn did not change within 30 s`)), 30_000),
        );
        const [painted, done, first] = await Promise.race([watch.evaluate((h) => h.painted), timeout]);
        lat.push(painted);
        work.push(done);
        if (first) nextFrame++;
        await watch.dispose();
      }
      return { lat, work, nextFrame: nextFrame / count };
    };
    const results: {
      id: string;
      cold: number;
      coldAll: number;
      warm: number;
      html: number;
      p50: number;
      p95: number;
      work50: number;
      work95: number;
      nextFrame: number;
      heap: number;
      idle: number;
      requests: number;
      rss: number;
    }[] = [];
    for (const [id] of sizes) {
      console.error(`[replay] ${id}: opening and stepping`);
      const cold: number[] = [];
      const coldAll: number[] = [];
      const warm: number[] = [];
      let html = 0;
      for (let r = 0; r < 3; r++) {
        const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
        const first = await openOnce(id, context);
        cold.push(first.ms);
        coldAll.push(first.all);
        html = first.html;
        await first.page.close();
        const second = await openOnce(id, context, r === 2 ? 50 : 1);
        warm.push(second.ms);
        if (r === 2) {
          const { lat, work, nextFrame } = await steps(second.page, 120);
          if (process.env.BENCH_VERBOSE)
            console.error(`[replay] ${id} steps (ms):`, lat.map((x) => Math.round(x)).join(' '));
          const heap = await second.page.evaluate(
            () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0,
          );
          // Idle: what the open page sends and receives in 10 s when nothing happens (headers and bodies).
          const cdp = await second.page.context().newCDPSession(second.page);
          await cdp.send('Network.enable');
          let idle = 0;
          let requests = 0;
          cdp.on('Network.requestWillBeSent', () => requests++);
          cdp.on('Network.dataReceived', (e) => (idle += e.encodedDataLength));
          cdp.on('Network.responseReceivedExtraInfo', (e) => (idle += e.headersText?.length ?? 0));
          cdp.on('Network.requestWillBeSentExtraInfo', (e) => (idle += JSON.stringify(e.headers).length));
          await new Promise((r) => setTimeout(r, 10_000));
          await cdp.detach();
          results.push({
            id,
            cold: pct(cold, 50),
            coldAll: pct(coldAll, 50),
            warm: pct(warm, 50),
            html,
            p50: pct(lat, 50),
            p95: pct(lat, 95),
            work50: pct(work, 50),
            work95: pct(work, 95),
            nextFrame,
            heap,
            idle,
            requests,
            rss: serverRss(server.proc.pid!),
          });
        }
        await context.close();
      }
    }
    console.log(
      '\nReplay at 1k, 10k and 100k turns, embedded PGlite, production server. Open: navigation start → CCS of the ' +
        'turn painted (the server renders it), median of 3 (cold: a new browser context; the digest is in the ' +
        'database, built as the turns arrived; warm: the same context again); all drawn: cold, until the timeline, ' +
        'charts, alerts and term history are drawn from the digest and the keys are live. Step: one key press at a ' +
        'time → the frame after the new turn’s CCS shows, 120 steps from turn 50 (across a window boundary); ' +
        'work: key press → the DOM holds the new turn; next frame: steps whose new turn was in the first frame ' +
        'drawn after the key press. Headless Chromium with no GPU rasterises and draws in software.',
    );
    console.log(
      '| session | open cold (ms) | all drawn, cold (ms) | open warm (ms) | step p50 (ms) | step p95 (ms) | ' +
        'work p50 / p95 (ms) | next frame | HTML (KB) | idle bytes / 10 s (requests) | JS heap (MiB) | ' +
        'server RSS (MiB) |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of results)
      console.log(
        `| ${r.id} | ${Math.round(r.cold)} | ${Math.round(r.coldAll)} | ${Math.round(r.warm)} | ` +
          `${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ` +
          `${r.work50.toFixed(1)} / ${r.work95.toFixed(1)} | ${(r.nextFrame * 100).toFixed(0)}% | ` +
          `${Math.round(r.html / 1024)} | ${r.idle} (${r.requests}) | ${(r.heap / 2 ** 20).toFixed(0)} | ` +
          `${(r.rss / 2 ** 20).toFixed(0)} |`,
      );
    const [small, , large] = results;
    if (large)
      console.log(
        `growth 1k → 100k: open cold ×${(large!.cold / small!.cold).toFixed(1)}, all drawn ` +
          `×${(large!.coldAll / small!.coldAll).toFixed(1)}, step p95 ` +
          `×${(large!.p95 / small!.p95).toFixed(1)} (target ≤ 1.5), HTML ×${(large!.html / small!.html).toFixed(1)}; ` +
          `step p95 target ≤ 16 ms: ${results.map((r) => `${r.id} ${r.p95 <= 16 ? 'met' : 'NOT met'}`).join(', ')}; ` +
          `every step in the next frame: ` +
          results.map((r) => `${r.id} ${r.nextFrame === 1 ? 'yes' : 'no'}`).join(', '),
      );
  } finally {
    await browser.close();
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

// bench:scale sets BENCH_REPLAY_SCALE: the browser part only.
if (!process.env.BENCH_REPLAY_SCALE) diffBench();
browserBench().catch((e) => {
  console.error(e);
  process.exit(1);
});
