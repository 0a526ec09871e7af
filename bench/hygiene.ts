/**
 * Hygiene lab benchmark: one agent with T turns that each recall one of its past executions and
 * store their own (add-all), on embedded PGlite. Prints the lab's time cold (embedding every query
 * and execution) and warm (vectors cached), and the pure policies' share, for T = 1,000 and 5,000;
 * the ratio between the two sizes shows how it scales.
 *
 *   npm run bench:hygiene
 */
import './quiet';
import { migrateDb, openDb } from '@/server/db';
import { ingest } from '@/server/services/ingest';
import { hygieneLab } from '@/server/services/hygiene';
import { ensureProject } from '@/server/services/projects';
import { labInput } from '@/lib/hygiene/contract';
import { rng } from '@/lib/random';

const SIZES = (process.env.HYGIENE_SIZES ?? '1000,5000').split(',').map(Number);
const WARDS = [
  'cardiology',
  'oncology',
  'neurology',
  'orthopedics',
  'geriatrics',
  'nephrology',
  'pediatrics',
  'dermatology',
];
const LABS = ['creatinine', 'potassium', 'hemoglobin', 'sodium', 'lactate', 'troponin', 'glucose', 'albumin'];

function task(i: number) {
  const id = 1000 + ((i * 7919) % 9000);
  switch (i % 3) {
    case 0:
      return {
        q: `What was the last ${LABS[i % LABS.length]} value for patient ${id}?`,
        e:
          `SELECT valuenum FROM labevents WHERE subject_id = ${id} AND label = '${LABS[i % LABS.length]}' ORDER ` +
          `BY charttime DESC LIMIT 1;`,
      };
    case 1:
      return {
        q: `What is the average length of stay in the ${WARDS[i % WARDS.length]} ward in ${2000 + (i % 26)}?`,
        e:
          `SELECT AVG(dischtime - admittime) FROM admissions WHERE ward = '${WARDS[i % WARDS.length]}' AND year ` +
          `= ${2000 + (i % 26)};`,
      };
    default:
      return {
        q: `Which drugs were prescribed to patient ${id} during admission ${i}?`,
        e: `SELECT DISTINCT drug FROM prescriptions WHERE hadm_id = ${i} AND subject_id = ${id};`,
      };
  }
}

async function run(T: number) {
  const h = await openDb({ dataDir: 'memory' });
  await migrateDb(h);
  await ensureProject(h.db, 'default');
  const rand = rng(T);
  // Parsed ingest envelopes (ingest records), not the lab's memory items.
  const envelopes: { ok: true; value: unknown }[] = [
    { ok: true, value: { type: 'session', data: { id: 'bench', agent: 'bench-agent' } } },
  ];
  for (let t = 1; t <= T; t++) {
    const { q, e } = task(t);
    const recalled = t > 1 ? [`r${Math.max(1, t - 1 - Math.floor(rand() * Math.min(t - 1, 200)))}`] : [];
    const utility = rand() < 0.8 ? 1 : 0;
    envelopes.push({
      ok: true,
      value: {
        type: 'turn',
        data: {
          session_id: 'bench',
          agent: 'bench-agent',
          turn: t,
          input: q,
          output: e,
          ccs: { goal_orientation: ['answer'] },
          recalled,
          qualified: recalled,
          utility,
          addition: { decision: 'added', evaluator: 'none' },
          timestamp: new Date(Date.UTC(2026, 0, 1) + t * 60_000).toISOString(),
        },
      },
    });
    envelopes.push({
      ok: true,
      value: {
        type: 'artifact',
        data: {
          id: `r${t}`,
          session_id: 'bench',
          agent: 'bench-agent',
          kind: 'experience',
          content: `Q: ${q}\nA: ${e}`,
          provenance: { query: q, execution: e },
          created_turn: t,
        },
      },
    });
  }
  for (let i = 0; i < envelopes.length; i += 2000) await ingest(h.db, 'default', envelopes.slice(i, i + 2000), 'bench');
  const params = labInput.parse({
    agent: 'bench-agent',
    deletion: { period: Math.round(T / 4), capacity: Math.round(T / 3) },
    budget: Math.max(16, Math.round(T / 12)),
  });
  const t0 = performance.now();
  const lab = await hygieneLab(h.db, 'default', params);
  const cold = performance.now() - t0;
  const warm: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t1 = performance.now();
    await hygieneLab(h.db, 'default', params);
    warm.push(performance.now() - t1);
  }
  await h.close();
  const best = Math.min(...warm);
  return {
    T,
    items: lab.deletion.activeItems,
    retrievals: lab.items.reduce((n, r) => n + r.recalled, 0),
    cold,
    warm: best,
    chains: lab.chains.length,
    misaligned: lab.items.filter((r) => r.misaligned).length,
  };
}

async function main() {
  const rows = [];
  for (const T of SIZES) rows.push(await run(T));
  console.log('\nHygiene lab (one agent, add-all, one recall a turn; PGlite, bundled model)');
  console.log('| turns | memory items | recalls | cold (embed all) | warm (cached) | warm per turn |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.T} | ${r.items} | ${r.retrievals} | ${(r.cold / 1000).toFixed(2)} s ` +
        `| ${(r.warm / 1000).toFixed(2)} s | ${((r.warm / r.T) * 1000).toFixed(0)} µs |`,
    );
  if (rows.length > 1) {
    const [a, b] = [rows[0]!, rows.at(-1)!];
    console.log(
      `\nscaling ${a.T} → ${b.T} turns (×${(b.T / a.T).toFixed(1)}): warm time ` +
        `×${(b.warm / a.warm).toFixed(1)}, ` +
        `cold ×${(b.cold / a.cold).toFixed(1)} (linear would be ×${(b.T / a.T).toFixed(1)})`,
    );
  }
}

void main();
