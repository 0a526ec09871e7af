import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import reference from './fixtures/reference-reopen.json';
import { AEGIS_VOCABULARY } from './reference';
import { highlight, penaltyPath, referenceReopen, wouldReopen, words } from './reopen';

const deadEnds = [
  {
    id: 'a',
    topic: 'foundry_metrics for debug',
    reopenConditions: 'new evidence that foundry_metrics output changed',
    capabilities: ['foundry_metrics'],
    keywords: ['debug', 'flaky'],
  },
  {
    id: 'b',
    topic: 'read for research',
    reopenConditions: 'new evidence that read output changed',
    capabilities: ['read'],
    keywords: ['research'],
  },
];

describe('would this reopen?', () => {
  it('matches a situation to dead ends by the words of their reopen conditions', () => {
    const r = wouldReopen('The foundry_metrics output changed after the upgrade', deadEnds);
    expect(r.map((m) => m.deadEnd.id)).toEqual(['a']);
    // Only the words of its own are marked and counted: "output changed" is in every dead end's conditions.
    expect(r[0]?.matched).toEqual(['foundry_metrics']);
    expect(r[0]).toMatchObject({ coverage: 1, kind: 'reopen', via: [] });
  });
  it("needs a word of the dead end's own: words every dead end shares do not reopen them all", () => {
    expect(wouldReopen('some output changed', deadEnds)).toEqual([]);
    expect(wouldReopen('research output changed', deadEnds).map((m) => m.deadEnd.id)).toEqual(['b']);
  });
  it('tells a situation that only names a capability or keyword (related) from one that meets the conditions', () => {
    const r = wouldReopen('the debug session was flaky again', deadEnds);
    expect(r).toMatchObject([{ deadEnd: { id: 'a' }, kind: 'related', via: ['debug', 'flaky'], coverage: 0 }]);
    const both = wouldReopen('research notes; foundry_metrics output changed', deadEnds);
    expect(both.map((m) => [m.deadEnd.id, m.kind])).toEqual([
      ['a', 'reopen'],
      ['b', 'related'],
    ]);
    expect(both[1]).toMatchObject({ via: ['research'], coverage: 0, matched: ['research'] });
  });
  it('ignores common words and finds nothing in an unrelated situation', () => {
    expect(words('The and for new')).toEqual([]);
    expect(wouldReopen('lunch menu', deadEnds)).toEqual([]);
  });
  it('highlights matched words in place', () => {
    expect(highlight('evidence that read output changed', ['output', 'READ'])).toEqual([
      { text: 'evidence that ', hit: false },
      { text: 'read', hit: true },
      { text: ' ', hit: false },
      { text: 'output', hit: true },
      { text: ' changed', hit: false },
    ]);
  });
});

// ---------------------------------------------------------------- the reference bridge's verdict

interface FixtureMatch {
  position: number;
  id: string;
  score: number;
  reopenTriggered: boolean;
  reopenMatched: string[];
}
interface FixtureProbe {
  context: string;
  explicitCapabilities: string[] | null;
  resolvedCapabilities: string[];
  matches: FixtureMatch[];
  returned: number[];
  penaltyEnergy?: Record<string, number>;
  routingPenalty?: Record<string, number>;
}
interface IndexDeadEnd {
  id: string;
  date?: string;
  topic?: string;
  reopen_conditions?: string;
  capabilities: string[];
  keywords: string[];
}
const ref = reference as unknown as {
  provenance: { now: string };
  keywordMap: Record<string, string[]>;
  capabilityNames: string[];
  probes: FixtureProbe[];
  synthetic: { deadEnds: IndexDeadEnd[]; probes: FixtureProbe[] };
};
const index = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '../../server/demo/ucs-workspace/ucs/state/ucs_index.json'), 'utf8'),
) as { dead_end_entries: IndexDeadEnd[]; methodology_entries: { capabilities: string[]; keywords: string[] }[] };
const asRef = (d: IndexDeadEnd) => ({
  id: d.id,
  topic: d.topic ?? '',
  date: d.date ?? null,
  reopenConditions: d.reopen_conditions ?? null,
  capabilities: d.capabilities,
  keywords: d.keywords,
});
const demoDeadEnds = index.dead_end_entries.map(asRef);
const vocabulary = { keywordMap: ref.keywordMap, capabilityNames: ref.capabilityNames };
const now = new Date(ref.provenance.now);
const verdictOf = (p: FixtureProbe, deadEnds = demoDeadEnds, methodology = index.methodology_entries) =>
  referenceReopen(p.context, deadEnds, {
    vocabulary,
    methodology,
    explicitCapabilities: p.explicitCapabilities ?? undefined,
    now,
  });

function expectLikeReference(v: ReturnType<typeof verdictOf>, p: FixtureProbe) {
  expect(v.resolvedCapabilities).toEqual(p.resolvedCapabilities);
  expect(v.matches.map((m) => [m.position, m.deadEnd.id, m.reopenTriggered, m.reopenMatched])).toEqual(
    p.matches.map((m) => [m.position, m.id, m.reopenTriggered, m.reopenMatched]),
  );
  v.matches.forEach((m, k) => expect(m.score).toBeCloseTo(p.matches[k]!.score, 12));
  expect(v.returned.map((m) => m.position)).toEqual(p.returned);
  if (p.penaltyEnergy) expect(v.penaltyEnergy).toEqual(p.penaltyEnergy);
  if (p.routingPenalty) expect(v.routingPenalty).toEqual(p.routingPenalty);
}

describe("would this reopen? — the reference bridge's verdict (fixtures/reference-reopen.json)", () => {
  it('resolves with the vocabulary the reference recorded (lib/ucs/data/aegis-keyword-map.json is that run)', () => {
    expect(AEGIS_VOCABULARY.keywordMap).toEqual(ref.keywordMap);
    expect([...AEGIS_VOCABULARY.capabilityNames].sort()).toEqual(ref.capabilityNames);
    // Python's dict.get: words that are Object.prototype's keys map to nothing, and do not throw.
    const v = referenceReopen('constructor __proto__ tostring hasownproperty', demoDeadEnds, { now });
    expect([v.resolvedCapabilities, v.matches]).toEqual([[], []]);
  });

  it('has at least ten probes, among them the ones the audit named', () => {
    expect(ref.probes.length).toBeGreaterThanOrEqual(10);
    const byContext = new Map(ref.probes.map((p) => [p.context, p]));
    expect(byContext.get('we have new evidence')?.matches).toHaveLength(10);
    expect(byContext.get('lunch menu')?.matches).toHaveLength(0);
    expect(byContext.get('time for an audit')?.matches.length).toBeGreaterThan(3);
  });

  for (const p of ref.probes)
    it(`matches, scores, caps and penalises as the bridge does: "${p.context}"`, () => {
      expectLikeReference(verdictOf(p), p);
    });

  for (const p of ref.synthetic.probes)
    it(`decays scores by age at a fixed now: "${p.context}"`, () => {
      expectLikeReference(verdictOf(p, ref.synthetic.deadEnds.map(asRef), []), p);
    });

  it('reopens on any shared word, where the app relevance finds nothing', () => {
    const p = ref.probes.find((x) => x.context === 'we have new evidence')!;
    const v = verdictOf(p);
    expect(v.matches.every((m) => m.reopenTriggered && m.reopenMatched.join() === 'evidence,new')).toBe(true);
    expect(v.returned).toHaveLength(3);
    expect(v.matches.filter((m) => !m.returned)).toHaveLength(7);
    expect(wouldReopen(p.context, demoDeadEnds)).toEqual([]);
  });

  it('resolves capabilities through the keyword map: "audit" reaches dead ends that never say it', () => {
    const p = ref.probes.find((x) => x.context === 'time for an audit')!;
    const v = verdictOf(p);
    expect(v.matches.every((m) => !m.reopenTriggered && m.keywordHits.length === 0)).toBe(true);
    expect(v.matches.map((m) => m.capabilityHits)).toEqual(
      v.matches.map((m) => m.deadEnd.capabilities.filter((c) => p.resolvedCapabilities.includes(c))),
    );
    expect(v.matches.map((m) => m.baseScore)).toEqual(v.matches.map(() => 3));
    expect(v.matches[0]!.decay).toBeCloseTo(1 / 1.3, 12); // 30 days after 2026-11-21
    expect(wouldReopen(p.context, demoDeadEnds)).toEqual([]);
  });

  it('searches a dead end the index lists twice twice, as rows with occurrences', () => {
    const p = ref.probes.find((x) => x.context === 'read')!;
    const rows = [...new Map(demoDeadEnds.map((d) => [d.id, d])).values()].map((d) => ({
      ...d,
      occurrences: demoDeadEnds.filter((x) => x.id === d.id).length,
    }));
    const v = verdictOf(p, rows);
    expect(v.returned.map((m) => m.deadEnd.id)).toEqual(p.returned.map((k) => demoDeadEnds[k]!.id));
    expect(v.penaltyEnergy.read).toBe(3);
  });
});

describe('how a dead end names a capability it penalises', () => {
  it('says whether it names it itself, and through which of its keywords', () => {
    // "read for research": read is its own capability and one the keyword "research" maps to; web_search only that.
    expect(penaltyPath(deadEnds[1]!, 'read')).toEqual({ direct: true, keywords: ['research'] });
    expect(penaltyPath(deadEnds[1]!, 'web_search')).toEqual({ direct: false, keywords: ['research'] });
    expect(penaltyPath(deadEnds[0]!, 'exec')).toEqual({ direct: false, keywords: ['debug'] });
    // Every capability the verdict penalises is named one way or the other.
    const v = referenceReopen(
      'research debug',
      deadEnds.map((d) => ({ ...d, date: null })),
      { now: 0 },
    );
    for (const [capability, positions] of Object.entries(v.penaltySources))
      for (const p of positions) {
        const how = penaltyPath(v.matches.find((m) => m.position === p)!.deadEnd, capability);
        expect(how.direct || how.keywords.length > 0, capability).toBe(true);
      }
    expect(Object.keys(v.penaltySources)).toContain('web_search');
  });
});
