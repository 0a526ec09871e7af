import { describe, expect, it } from 'vitest';
import { additionReport } from './addition';
import { compareKept, consolidate, factRecall, lostBeyond, mergeAtoms, novelty, type Atom } from './consolidation';
import { historyFires, periodicFires, removeNow, simulateSizes, type DeletionParams } from './deletion';
import { errorChains, itemHealth, utilityOf, type LabTurn, type MemoryItem } from './items';

const P: DeletionParams = { period: 10, alpha: 0, n: 5, beta: 0.5, capacity: 100 };

describe('periodic deletion: retrieved ≤ α times in the last period', () => {
  it('removes an item not retrieved in the last P steps, keeps one retrieved in it, does not judge one younger', () => {
    expect(periodicFires(0, [3], 20, P)).toBe(true); // last retrieval at 3, window (10, 20]
    expect(periodicFires(0, [3, 15], 20, P)).toBe(false);
    expect(periodicFires(15, [], 20, P)).toBe(false); // in memory for 5 steps only
    expect(periodicFires(10, [], 20, P)).toBe(true); // exactly one period old
    expect(periodicFires(0, [15], 20, { ...P, alpha: 1 })).toBe(true); // 1 ≤ α = 1
    expect(periodicFires(0, [15, 18], 20, { ...P, alpha: 1 })).toBe(false);
    expect(periodicFires(0, [10], 20, P)).toBe(true); // step 10 is outside (10, 20]
  });
});

describe('history-based deletion: retrieved more than n times with mean utility ≤ β', () => {
  it('waits for more than n retrievals, then compares the mean utility with β', () => {
    expect(historyFires([1, 2, 3, 4, 5], [0, 0, 0, 0, 0], P)).toBe(false); // 5 = n: not yet judged
    expect(historyFires([1, 2, 3, 4, 5, 6], [0, 1, 0, 1, 0.5, 0.5], P)).toBe(true); // mean 0.5 ≤ β
    expect(historyFires([1, 2, 3, 4, 5, 6], [0.6, 0.5, 0.5, 0.5, 0.5, 0.5], P)).toBe(false); // mean 0.517
    expect(historyFires([1, 2, 3, 4, 5, 6], [], P)).toBe(false); // no utility known
  });
});

describe('removeNow', () => {
  const items = [
    { id: 'stale', addedStep: 0 }, // never recalled since step 2
    { id: 'bad', addedStep: 0 }, // recalled a lot, badly
    { id: 'good', addedStep: 0 },
    { id: 'fresh', addedStep: 18 },
  ];
  const retr = [
    { item: 'stale', step: 2, utility: 1 },
    ...[11, 12, 13, 14, 15, 16].map((step) => ({ item: 'bad', step, utility: 0.1 })),
    ...[12, 19].map((step) => ({ item: 'good', step, utility: 0.9 })),
  ];
  const removed = (v: { id: string; removed: boolean }[]) => v.filter((x) => x.removed).map((x) => x.id);

  it('selects per policy; combined is either rule; each verdict says why', () => {
    const r = removeNow(items, retr, 20, P);
    expect(removed(r.periodic)).toEqual(['stale']);
    expect(removed(r.history)).toEqual(['bad']);
    expect(removed(r.combined)).toEqual(['stale', 'bad']);
    expect(r.periodic.find((v) => v.id === 'stale')!.reason).toBe('retrieved 0× in the last 10 steps (≤ α = 0)');
    expect(r.history.find((v) => v.id === 'bad')!.reason).toBe('mean utility 0.10 over 6 retrievals (≤ β = 0.5)');
    expect(r.periodic.find((v) => v.id === 'fresh')!.reason).toBe('younger than one period');
  });

  it('combined as the printed product φ_period × φ_history removes only what both rules remove', () => {
    const worn = { id: 'worn', addedStep: 0 }; // tried six times early, badly, then never again
    const more = [...retr, ...[1, 2, 3, 4, 5, 6].map((step) => ({ item: 'worn', step, utility: 0.1 }))];
    const r = removeNow([...items, worn], more, 20, P);
    expect(removed(r.product)).toEqual(['worn']);
    expect(removed(r.combined)).toEqual(['stale', 'bad', 'worn']);
    expect(r.product.find((v) => v.id === 'bad')!.reason).toMatch(/^only history-based fires: /);
    // Over time: the product waits for a period boundary (step 20) where both fire; "applied together" removes
    // 'worn' at its sixth bad recall (step 6), long before.
    const sizes = simulateSizes([...items, worn], more, 20, P);
    expect(sizes.map((x) => x.product).slice(18)).toEqual([5, 5, 4]);
    expect([sizes[5]!.combined, sizes[6]!.combined, sizes[6]!.product]).toEqual([4, 3, 4]);
    expect(sizes.every((x) => x.product >= x.combined)).toBe(true);
  });

  it('capacity: periodic first, then the least useful items until memory fits', () => {
    const r = removeNow(items, retr, 20, { ...P, capacity: 2 });
    // After periodic: bad (0.1), good (0.9), fresh (unknown = 0.5): one over → bad goes.
    expect(removed(r.capacity)).toEqual(['stale', 'bad']);
    expect(r.capacity.find((v) => v.id === 'bad')!.reason).toMatch(/over capacity 2/);
  });

  it('replays memory size over the history under each policy', () => {
    const sizes = simulateSizes(items, retr, 20, { ...P, capacity: 2 });
    expect(sizes).toHaveLength(21);
    // Periodic at step 10 judges (0, 10]: 'bad' and 'good' were not recalled yet and go (so their
    // later recalls never happen); 'stale' (recalled at 2) stays until step 20; 'fresh' enters at 18.
    expect(sizes[9]!.periodic).toBe(3);
    expect(sizes[10]!.periodic).toBe(1);
    // History fires after the sixth bad recall (step 16).
    expect(sizes[15]!.history).toBe(3);
    expect(sizes[16]!.history).toBe(2);
    expect(sizes[20]).toEqual({ step: 20, none: 4, periodic: 1, history: 3, combined: 1, product: 4, capacity: 1 });
  });
});

const unit = (...xs: number[]) => {
  const v = Float32Array.from(xs);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

describe('consolidation under a budget B', () => {
  const atoms: Atom[] = [
    { id: 'A', content: 'A fact', tokens: 10, vector: unit(1, 0, 0), addedStep: 1, usage: 0, surprise: 10 },
    { id: 'B', content: 'B fact', tokens: 10, vector: unit(0, 1, 0), addedStep: 3, usage: 5, surprise: 0 },
    { id: 'C', content: 'C fact', tokens: 10, vector: unit(0, 0, 1), addedStep: 2, usage: 1, surprise: 5 },
  ];

  it('recency keeps the newest, frequency the most retrieved', async () => {
    expect((await consolidate(atoms, 2, 'recency')).kept).toEqual(['B', 'C']);
    expect((await consolidate(atoms, 2, 'frequency')).kept).toEqual(['B', 'C']);
    expect((await consolidate(atoms, 1, 'frequency')).kept).toEqual(['B']);
  });

  it('surprise-weighted: s = 0.55σ + 0.25 recency + 0.20 usage over scaled terms (hand-computed)', async () => {
    // σ scaled: A 1, B 0, C .5; recency: A 0, B 1, C .5; usage: A 0, B 1, C .2
    const r = await consolidate(atoms, 1, 'surprise');
    expect(r.sigma).toBe('supplied');
    expect(r.score.A).toBeCloseTo(0.55, 6);
    expect(r.score.B).toBeCloseTo(0.45, 6);
    expect(r.score.C).toBeCloseTo(0.275 + 0.125 + 0.04, 6);
    expect(r.kept).toEqual(['A']);
    expect((await consolidate(atoms, 2, 'surprise')).kept).toEqual(['A', 'B']);
  });

  it('estimates σ as embedding novelty when the agent supplied none: a near-copy is not surprising', async () => {
    const plain = [
      { id: 'x', content: 'x fact', tokens: 10, vector: unit(1, 0.01, 0), addedStep: 1, usage: 0, surprise: null },
      { id: 'x2', content: 'x2 fact', tokens: 10, vector: unit(1, 0, 0.01), addedStep: 1, usage: 0, surprise: null },
      { id: 'odd', content: 'odd fact', tokens: 10, vector: unit(0, 0, 1), addedStep: 1, usage: 0, surprise: null },
    ];
    const n = await novelty(plain);
    expect(n[0]).toBeLessThan(0.01);
    expect(n[2]).toBeGreaterThan(0.9);
    const r = await consolidate(plain, 1, 'surprise');
    expect(r.sigma).toBe('novelty');
    expect(r.kept).toEqual(['odd']);
  });

  it('sleep-replay clusters into k merged atoms (extractive), which fact recall can show a loss of', async () => {
    const grouped: Atom[] = [
      { id: 'db1', content: 'db1 fact', tokens: 10, vector: unit(1, 0.1, 0), addedStep: 1, usage: 1, surprise: null },
      { id: 'db2', content: 'db2 fact', tokens: 10, vector: unit(1, 0.05, 0), addedStep: 2, usage: 1, surprise: null },
      { id: 'db3', content: 'db3 fact', tokens: 10, vector: unit(1, 0, 0.05), addedStep: 3, usage: 1, surprise: null },
      { id: 'net1', content: 'net1 fact', tokens: 10, vector: unit(0, 1, 1), addedStep: 4, usage: 2, surprise: null },
      { id: 'net2', content: 'net2 fact', tokens: 10, vector: unit(0, 1, 0.9), addedStep: 5, usage: 0, surprise: null },
    ];
    const r = await consolidate(grouped, 2, 'sleep', undefined, 7, 2);
    expect(r.clusters!.map((c) => c.members.sort())).toEqual([
      ['db1', 'db2', 'db3'],
      ['net1', 'net2'],
    ]);
    expect(r.clusters![0]!.keep).toBe('db2'); // the middle one represents it
    // A merge is a merge: one atom holding every member, its statements and their tokens, read and written once.
    expect(r.pool.map((a) => [a.holds.sort(), a.tokens])).toEqual([
      [['db1', 'db2', 'db3'], 30],
      [['net1', 'net2'], 20],
    ]);
    expect(r.replayTokens).toBe(50 + 50);
    expect(mergeAtoms([grouped[0]!, { ...grouped[1]!, content: 'DB1 fact ' }], 'm').content).toBe('db1 fact');
    // Fact recall at top-1: probes asked along their fact's direction find the merged atom that holds it; a db fact
    // asked like a network question does not (the merged db atom is not the nearest).
    const probes = [
      { vector: unit(1, 0, 0.05), item: 'db3' },
      { vector: unit(0, 1, 0.9), item: 'net2' },
      { vector: unit(0, 1, 0.9), item: 'db1' }, // asked like a network question: the merged db atom is not top-1
    ];
    const fr = await factRecall(r.pool, probes, 1);
    expect([fr.probes, fr.recalled, fr.lost]).toEqual([3, 2, [{ item: 'db1', probes: 1 }]]);
    // Recency at B = 2 keeps net1 and net2: the db facts are gone.
    const rec = await consolidate(grouped, 2, 'recency');
    expect(rec.replayTokens).toBe(0);
    expect((await factRecall(rec.pool, probes, 1)).lost).toEqual([
      { item: 'db1', probes: 1 },
      { item: 'db3', probes: 1 },
    ]);
    expect(await factRecall(rec.pool, [], 1)).toEqual({ probes: 0, recalled: 0, share: null, lost: [], missed: [] });
    // Lost by the policy: what every atom, unconsolidated, still gave. The db1 probe asked like a network question
    // is missed with nothing removed too: retrieval never found it, no policy lost it.
    const before = await factRecall(
      grouped.map((a) => ({ id: a.id, holds: [a.id], vector: a.vector, tokens: a.tokens })),
      probes,
      1,
    );
    expect(before.lost).toEqual([{ item: 'db1', probes: 1 }]);
    expect(lostBeyond(await factRecall(rec.pool, probes, 1), before, probes)).toEqual([{ item: 'db3', probes: 1 }]);
    expect(lostBeyond(before, before, probes)).toEqual([]);
    const cmp = compareKept([rec, await consolidate(grouped, 2, 'frequency')]);
    expect(cmp.overlap).toEqual([
      [2, 1],
      [1, 2],
    ]);
    expect(cmp.onlyHere).toEqual([['net2'], ['db3']]);
  });
});

const item = (id: string, fromTurn: number | null = null): MemoryItem => ({
  id,
  source: 'artifact',
  kind: 'experience',
  content: id,
  addedStep: fromTurn ?? 0,
  addedAt: null,
  fromTurn: fromTurn === null ? null : { session: 's', turn: fromTurn },
  surprise: null,
  addition: null,
});
const turn = (
  n: number,
  recalled: string[],
  utility: number | null,
  addition: LabTurn['addition'] = null,
): LabTurn => ({
  step: n,
  session: 's',
  turn: n,
  ts: null,
  input: `q${n}`,
  output: `a${n}`,
  recalled,
  qualified: recalled,
  utility,
  utilitySource: utility === null ? null : 'utility',
  hallucination: null,
  drift: null,
  addition,
});

describe('memory item health', () => {
  it('takes utility from what the agent reports, best source first', () => {
    expect(utilityOf({ extra: { utility: 0.3 }, judge: { r: 9 } })).toEqual({ value: 0.3, source: 'utility' });
    expect(utilityOf({ extra: { success: false } })).toEqual({ value: 0, source: 'success' });
    expect(utilityOf({ judge: { relevance: 8, faithfulness: 6 } })).toEqual({ value: 0.7, source: 'judge' });
    expect(utilityOf({ judge: { a: 0.4 } })).toEqual({ value: 0.4, source: 'judge' });
    expect(utilityOf({ hallucination: 0.25 })).toEqual({ value: 0.75, source: 'hallucination' });
    expect(utilityOf({})).toBeNull();
  });

  it('flags an item recalled on similar inputs whose outputs the turns did not follow (misaligned)', () => {
    const sims: Record<string, [number, number]> = {
      '1:m': [0.9, 0.2],
      '2:m': [0.85, 0.3],
      '3:m': [0.8, 0.9],
      '1:ok': [0.9, 0.9],
      '2:ok': [0.88, 0.8],
    };
    const h = itemHealth(
      [item('m'), item('ok'), item('never')],
      [turn(1, ['m', 'ok'], 0.2), turn(2, ['m', 'ok'], 0.4), turn(3, ['m'], 1)],
      (t, r) => {
        const s = sims[`${t.step}:${r.id}`]!;
        return { input: s[0], output: s[1] };
      },
    );
    const by = Object.fromEntries(h.map((x) => [x.item.id, x]));
    expect(by.m).toMatchObject({ recalled: 3, misaligned: true });
    expect(by.m!.meanUtility).toBeCloseTo(0.5333, 3);
    expect(by.m!.meanOutputSim).toBeCloseTo(0.4667, 3);
    expect(by.ok!.misaligned).toBe(false);
    expect(by.never).toMatchObject({ recalled: 0, meanUtility: null, lastStep: null, misaligned: false });
  });

  it('follows an error chain: bad item → wrong turn → its stored output → recalled into a wrong turn again', () => {
    const items = [item('r0'), item('r5', 5), item('r12', 12), item('good', 7)];
    const turns = [
      turn(5, ['r0'], 0),
      turn(7, ['r0'], 1),
      turn(12, ['r5'], 0.1),
      turn(20, ['r12'], 0.2),
      turn(21, ['good'], 0),
    ];
    const chains = errorChains(items, turns);
    expect(chains.map((c) => c.map((l) => `${l.item}@${l.turn.turn}`))).toEqual([['r0@5', 'r5@12', 'r12@20']]);
    // A good turn in the middle breaks the chain.
    expect(
      errorChains(
        items,
        turns.map((t) => (t.step === 12 ? { ...t, utility: 0.9 } : t)),
      ),
    ).toEqual([]);
  });
});

describe('addition report', () => {
  it('counts what add-all would store against what the evaluator let in, and the quality of each', () => {
    const turns = [
      turn(1, [], 0.2, { decision: 'added', evaluator: 'none', score: null }),
      turn(2, [], 1, { decision: 'added', evaluator: 'none', score: null }),
      turn(3, [], 0, { decision: 'skipped', evaluator: 'strict', score: 0.1 }),
      turn(4, [], 1, { decision: 'added', evaluator: 'strict', score: 0.9 }),
      turn(5, [], 1, null),
    ];
    const r = additionReport(turns, 2);
    expect(r.reported).toBe(4);
    expect(r.total).toMatchObject({
      executions: 4,
      added: 3,
      skipped: 1,
      errorsAdded: 1,
      evaluators: ['none', 'strict'],
    });
    expect(r.total.meanUtilityAll).toBeCloseTo(0.55);
    expect(r.total.meanUtilityAdded).toBeCloseTo(0.7333, 3);
    expect(r.windows.map((w) => [w.from, w.to, w.added, w.skipped])).toEqual([
      [1, 3, 2, 1],
      [4, 5, 1, 0],
    ]);
  });
});
