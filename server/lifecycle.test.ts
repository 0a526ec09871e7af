import { describe, expect, it } from 'vitest';
import { finishWork, finishWorkWithin, onShutdown, periodic } from './lifecycle';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('periodic work and shutdown', () => {
  it('runs one job at a time, and stopping (or shutdown) waits for the run under way', async () => {
    let runs = 0;
    let inFlight = 0;
    let most = 0;
    let finished = 0;
    periodic('test-job', 'db-1', 5, async () => {
      runs++;
      most = Math.max(most, ++inFlight);
      await sleep(40);
      inFlight--;
      finished++;
    });
    await sleep(20);
    expect(runs).toBe(1);
    await finishWork();
    // Shutdown waited for the run it found, and no run starts after it.
    expect(finished).toBe(runs);
    await sleep(30);
    expect(runs).toBe(finished);
    expect(most).toBe(1);
  });

  it('gives up on work or a database close that does not end within the budget, and says so', async () => {
    const closed: string[] = [];
    expect(await finishWorkWithin(1_000, async () => void closed.push('db'))).toBe(true);
    expect(closed).toEqual(['db']);
    const off = onShutdown(() => new Promise(() => {})); // a sweep waiting on a database that no longer answers
    const t0 = performance.now();
    // The database is closed all the same, with time of its own.
    expect(await finishWorkWithin(50, async () => void closed.push('closed after the work gave up'))).toBe(false);
    expect(performance.now() - t0).toBeLessThan(1_000);
    off();
    expect(await finishWorkWithin(50, () => new Promise(() => {}))).toBe(false); // a close that never ends
    expect(closed).toEqual(['db', 'closed after the work gave up']);
  });

  it('keeps one job per name: the same key gets the same job, another key replaces it', async () => {
    const seen: string[] = [];
    const a = periodic('test-replace', 'db-1', 5, async () => void seen.push('a'));
    expect(periodic('test-replace', 'db-1', 5, async () => void seen.push('x'))).toBe(a);
    const b = periodic('test-replace', 'db-2', 5, async () => void seen.push('b'));
    await sleep(30);
    await b();
    expect(seen).not.toContain('x');
    expect(seen.at(-1)).toBe('b');
    const count = seen.length;
    await sleep(20);
    expect(seen.length).toBe(count);
  });

  it("waits for writes that work it waited for handed on after the writer's hook had found none", async () => {
    // The writer (text-vectors' vectorsStored) and a run that hands it a write as it ends (a search's vector run).
    const writes = new Set<Promise<void>>();
    let written = 0;
    const stored = async () => {
      while (writes.size) await Promise.all([...writes]);
    };
    const run = sleep(20).then(() => {
      const w = sleep(20).then(() => void written++);
      writes.add(w);
      void w.finally(() => writes.delete(w));
    });
    const offWriter = onShutdown(stored);
    const offRun = onShutdown(() => run);
    await finishWork();
    expect(written).toBe(1);
    offWriter();
    offRun();
  });
});
