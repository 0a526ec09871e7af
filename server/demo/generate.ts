import type { CcsTerms } from '@/lib/ccs/contract';
import { estimateTokens, splitTerms, toToon } from '@/lib/ccs/parse';
import type { Envelope } from '@/lib/ingest/contract';
import { rng } from '@/lib/random';
import { FIGURE_3 } from '@/lib/ccs/paper-example';
import { SCENARIOS, type Beat, type Scenario } from './scenarios';

const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

function beatAt(s: Scenario, t: number): Beat {
  const b = s.beats.find((x) => t >= x.from && t <= x.to);
  if (!b) throw new Error(`scenario ${s.id} has no beat for turn ${t}`);
  return b;
}

/**
 * One ACC session as ingest envelopes: the session, its artifact store, and 50 turns whose CCS is
 * committed turn by turn from the previous one (entities and relations accumulate, constraints
 * persist, the trace says what changed). `toon` sends the CCS in the ACC paper's text notation.
 */
export function sessionEnvelopes(s: Scenario, seed: number, toon: boolean): Envelope[] {
  const rand = rng(seed);
  const out: Envelope[] = [
    {
      type: 'session',
      data: { id: s.id, agent: s.agent, title: s.title, domain: s.domain, metadata: { scenario: 'demo', turns: 50 } },
    },
  ];
  for (const a of s.artifacts)
    out.push({
      type: 'artifact',
      data: {
        id: a.id,
        session_id: s.id,
        agent: s.agent,
        kind: a.kind,
        content: a.content,
        provenance: { source: a.source, ...(a.poisoned ? { reviewed: false } : {}) },
        created_turn: 0,
      },
    });
  const art = new Map(s.artifacts.map((a) => [a.id, a]));

  const entities = [...s.entities];
  let relations: string[] = [];
  let constraints = [...s.constraints];
  let prev: CcsTerms | null = null;
  let transcript = 420; // system prompt and tool schemas
  let clock = Date.parse(s.start);

  for (let t = 1; t <= 50; t++) {
    const b = beatAt(s, t);
    const k = t - b.from;
    const input = b.inputs[k % b.inputs.length]!;
    const output = b.outputs[k % b.outputs.length]!;
    if (k === 0) {
      for (const e of b.entities ?? []) if (!entities.includes(e)) entities.push(e);
      relations = [...relations, ...(b.relations ?? [])].slice(-6);
      constraints = [
        ...constraints.filter((c) => !b.dropConstraints?.includes(c)),
        ...(b.constraints ?? []).filter((c) => !constraints.includes(c)),
      ];
    }
    // Some quiet turns ("Done.", "Noted.") commit the same state again: the replay marks them.
    const quiet = k > 0 && t % 7 === 0 && !b.stress;
    const ccs: CcsTerms =
      quiet && prev
        ? prev
        : {
            episodic_trace:
              k === 0 ? [...b.trace] : [b.trace[k % b.trace.length]!, `turn(${t} ${k % 2 ? 'followup' : 'update'})`],
            semantic_gist: splitTerms(b.gist),
            focal_entities: [...entities],
            relational_map: [...relations],
            goal_orientation: splitTerms(s.goal),
            constraints: [...constraints],
            predictive_cue: [...b.cues],
            uncertainty_signal: splitTerms(b.uncertainty),
            retrieved_artifacts: b.qualify.map(
              (id) => `artifact(${id} source(${(art.get(id)?.source ?? 'store').replace(/[^A-Za-z0-9_./-]+/g, '_')}))`,
            ),
          };
    prev = ccs;

    transcript += estimateTokens(input) + estimateTokens(output) + 30;
    const retrieval =
      160 +
      b.recall.slice(0, 5).reduce((n, id) => n + estimateTokens(art.get(id)?.content ?? ''), 0) +
      estimateTokens(input);
    const ccsTokens = estimateTokens(toToon(ccs));
    const stress = b.stress;
    const j = (base: number) => round(clamp(base + (rand() - 0.5) * 0.8, 0, 10), 1);
    const hallucination = stress ? round(0.08 + rand() * 0.12) : round(rand() < 0.7 ? 0 : rand() * 0.07);
    const drift =
      t === 1
        ? null
        : stress === 'conflict'
          ? round(0.2 + rand() * 0.1)
          : stress
            ? round(0.05 + rand() * 0.1)
            : round(rand() < 0.75 ? 0 : rand() * 0.05);
    clock += Math.round((90 + rand() * 300) * 1000);

    out.push({
      type: 'turn',
      data: {
        session_id: s.id,
        agent: s.agent,
        turn: t,
        input,
        output,
        ccs: toon ? (t === 1 && s.id === 'itops-nginx-502' ? FIGURE_3 : toToon(ccs)) : ccs,
        recalled: b.recall.map((id, i) => ({
          id,
          score: round(0.92 - i * 0.07 - rand() * 0.03),
          source: art.get(id)?.source,
        })),
        qualified: [...b.qualify],
        footprint: { ccs: ccsTokens, transcript, retrieval },
        judge: {
          relevance: j(stress ? 8.2 : 8.9),
          answer_quality: j(stress ? 7.8 : 8.6),
          instruction_following: j(stress === 'conflict' ? 8.0 : 9.1),
          coherence: j(8.8),
        },
        hallucination,
        drift,
        timestamp: new Date(clock).toISOString(),
        ...(stress ? { stress } : {}),
      },
    });
  }
  return out;
}

/** The demo's three ACC sessions: IT ops in TOON text, the others as JSON CCS, so both forms are shown. */
export function demoSessions(): Envelope[] {
  return SCENARIOS.flatMap((s, i) => sessionEnvelopes(s, 1000 + i, i === 0));
}
