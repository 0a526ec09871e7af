import type { Envelope } from '@/lib/ingest/contract';
import { rng } from '@/lib/random';

/**
 * The hygiene lab's demo: an EHR question-answering agent that writes SQL and keeps past
 * (question → SQL) executions as records it recalls as demonstrations, as in the
 * memory-addition-deletion paper. Two days of 48 turns. Day 1 adds every execution (add-all); day 2
 * adds only what a strict evaluator (the answer matched) accepts. Built in:
 *
 * - experience-following: most recalls are of the same kind of question, and the SQL follows them;
 * - a misaligned record (`rec_hr_monitor`): asked like every heart-rate question, but its execution
 *   is a monitor-API call the agent never follows (high input, low output similarity, poor utility);
 * - an error-propagation chain: a seed record with a wrong length-of-stay query is copied into a
 *   wrong answer, which add-all stores, which is recalled and copied again… until day 2's strict
 *   evaluator stops storing the wrong answers;
 * - stale seed records nobody recalls (periodic deletion), near-duplicates (sleep-replay merges).
 */
export const HYGIENE_AGENT = 'ehr-sql-agent';
export const HYGIENE_SESSIONS = ['ehr-agent-day-1', 'ehr-agent-day-2'] as const;

type Family = 'count' | 'los' | 'lab' | 'drug' | 'hr';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October'];
const WARDS = ['cardiology', 'oncology', 'neurology', 'orthopedics', 'geriatrics', 'nephrology'];
const LABS = ['creatinine', 'potassium', 'hemoglobin', 'sodium', 'lactate', 'troponin'];

const pad = (n: number) => String(n).padStart(2, '0');

function question(f: Family, k: number): string {
  const id = 1000 + ((k * 37) % 900);
  switch (f) {
    case 'count':
      return `How many patients were admitted in ${MONTHS[k % MONTHS.length]} 2026?`;
    case 'los':
      return `What is the average length of stay in the ${WARDS[k % WARDS.length]} ward?`;
    case 'lab':
      return `What was the last ${LABS[k % LABS.length]} value for patient ${id}?`;
    case 'drug':
      return `Which drugs were prescribed to patient ${id} during the last admission?`;
    case 'hr':
      return `What was the last heart rate of patient ${id}?`;
  }
}

function sql(f: Family, k: number, wrong: boolean): string {
  const id = 1000 + ((k * 37) % 900);
  const m = (k % MONTHS.length) + 1;
  switch (f) {
    case 'count':
      return wrong
        ? `SELECT COUNT(*) FROM admissions WHERE admittime >= '2026-${pad(m)}-01' AND ` +
            `admittime ` +
            `<= ` +
            `'2026-${pad(m + 1)}-01';`
        : `SELECT COUNT(*) FROM admissions WHERE admittime >= '2026-${pad(m)}-01' AND ` +
            `admittime ` +
            `< ` +
            `'2026-${pad(m + 1)}-01';`;
    case 'los':
      // The seed bug: transfers.intime instead of the discharge time, so every stay comes out near zero.
      return wrong
        ? `SELECT AVG(outtime - intime) FROM transfers WHERE careunit = ` +
            `'${WARDS[k % WARDS.length]}' ` +
            `AND ` +
            `eventtype = 'admit';`
        : `SELECT AVG(dischtime - admittime) FROM admissions WHERE ward = '${WARDS[k % WARDS.length]}';`;
    case 'lab':
      return (
        `SELECT valuenum FROM labevents WHERE subject_id = ${id} AND itemid IN ` +
        `(SELECT ` +
        `itemid ` +
        `FROM ` +
        `d_labitems WHERE label = '${LABS[k % LABS.length]}') ORDER BY charttime DESC LIMIT ${wrong ? 5 : 1};`
      );
    case 'drug':
      return (
        `SELECT DISTINCT drug FROM prescriptions WHERE hadm_id = (SELECT hadm_id ` +
        `FROM ` +
        `admissions ` +
        `WHERE ` +
        `subject_id = ${id} ORDER BY admittime ${wrong ? 'ASC' : 'DESC'} LIMIT 1);`
      );
    case 'hr':
      return wrong
        ? `SELECT AVG(valuenum) FROM chartevents WHERE subject_id = ${id} AND itemid = 220045;`
        : `SELECT valuenum FROM chartevents WHERE subject_id = ${id} AND itemid = ` +
            `220045 ` +
            `ORDER ` +
            `BY ` +
            `charttime ` +
            `DESC ` +
            `LIMIT 1;`;
  }
}

interface Rec {
  id: string;
  family: Family | 'other';
  /** What makes two questions of a kind the same: the month, ward or lab. */
  key?: string;
  q: string;
  e: string;
  session: string;
  turn: number;
}

/** Seed records: the store the agent starts with (created before the first turn). */
const SEEDS: Rec[] = [
  {
    id: 'rec_count_seed',
    family: 'count',
    q: question('count', 0),
    e: sql('count', 0, false),
    session: HYGIENE_SESSIONS[0],
    turn: 0,
  },
  {
    id: 'rec_los_seed',
    family: 'los',
    q: question('los', 0),
    e: sql('los', 0, true),
    session: HYGIENE_SESSIONS[0],
    turn: 0,
  },
  {
    id: 'rec_lab_seed',
    family: 'lab',
    q: question('lab', 0),
    e: sql('lab', 0, false),
    session: HYGIENE_SESSIONS[0],
    turn: 0,
  },
  {
    id: 'rec_drug_seed',
    family: 'drug',
    q: question('drug', 0),
    e: sql('drug', 0, false),
    session: HYGIENE_SESSIONS[0],
    turn: 0,
  },
  {
    id: 'rec_hr_monitor',
    family: 'hr',
    q: 'What was the last heart rate of patient 1042?',
    e:
      'Call the bedside monitor export vitals_api.fetch(patient=1042, signal=HR, window=1h) and report the ' +
      'median of the samples.',
    session: HYGIENE_SESSIONS[0],
    turn: 0,
  },
  {
    id: 'rec_beds',
    family: 'other',
    q: 'How many beds does the cardiology ward have?',
    e: "SELECT beds FROM wards WHERE name = 'cardiology';",
    session: HYGIENE_SESSIONS[0],
    turn: 0,
  },
  {
    id: 'rec_icd',
    family: 'other',
    q: 'Which ICD-10 codes were billed for patient 1200?',
    e: 'SELECT icd_code FROM diagnoses_icd WHERE subject_id = 1200;',
    session: HYGIENE_SESSIONS[0],
    turn: 0,
  },
  {
    id: 'rec_staff',
    family: 'other',
    q: 'Who was the attending physician for admission 88231?',
    e: 'SELECT attending FROM admissions WHERE hadm_id = 88231;',
    session: HYGIENE_SESSIONS[0],
    turn: 0,
  },
  {
    id: 'rec_icu',
    family: 'other',
    q: 'How many ICU stays lasted longer than seven days?',
    e: 'SELECT COUNT(*) FROM icustays WHERE los > 7;',
    session: HYGIENE_SESSIONS[0],
    turn: 0,
  },
];

/** The order of question kinds over a day: a fixed, shuffled schedule with the chain's LOS questions in place. */
function schedule(day: 0 | 1, rand: () => number): Family[] {
  const base: Family[] = [];
  for (let i = 0; i < 48; i++)
    base.push((['count', 'lab', 'drug', 'hr', 'count', 'lab', 'drug'] as Family[])[Math.floor(rand() * 7)]!);
  // Length-of-stay questions where the chain runs (day 1) and where it is broken (day 2).
  for (const t of day === 0 ? [6, 14, 23, 35] : [3, 10, 30]) base[t - 1] = 'los';
  // The heart-rate questions that recall the misaligned record.
  for (const t of day === 0 ? [4, 12, 19, 27, 40] : [7, 18, 26, 41]) base[t - 1] = 'hr';
  return base;
}

function keyOf(f: Family, k: number): string {
  return f === 'count'
    ? MONTHS[k % MONTHS.length]!
    : f === 'los'
      ? WARDS[k % WARDS.length]!
      : f === 'lab'
        ? LABS[k % LABS.length]!
        : `${f}`;
}

export function hygieneDemo(): Envelope[] {
  const rand = rng(4242);
  const out: Envelope[] = [];
  const store: Rec[] = [...SEEDS];
  let clock = Date.parse('2026-11-16T08:00:00Z');
  let k = 1;
  for (const [day, session] of HYGIENE_SESSIONS.entries()) {
    out.push({
      type: 'session',
      data: {
        id: session,
        agent: HYGIENE_AGENT,
        title: `EHR SQL agent, day ${day + 1}: ${day === 0 ? 'add every execution' : 'strict selective addition'}`,
        domain: 'healthcare',
        metadata: { scenario: 'hygiene-demo' },
      },
    });
    if (day === 0)
      for (const s of SEEDS)
        out.push({
          type: 'artifact',
          data: {
            id: s.id,
            session_id: session,
            agent: HYGIENE_AGENT,
            kind: 'experience',
            content: `Q: ${s.q}\nA: ${s.e}`,
            provenance: { query: s.q, execution: s.e, source: 'seed' },
            created_turn: 0,
          },
        });
    const plan = schedule(day as 0 | 1, rand);
    for (let t = 1; t <= 48; t++, k++) {
      clock += 9 * 60_000 + Math.floor(rand() * 4) * 60_000;
      const f = plan[t - 1]!;
      const q = question(f, k);
      // Recall (the agent's top-1 retrieval): length-of-stay questions get the latest such record;
      // heart-rate questions always match the monitor record's wording best; others the latest
      // record with the same month, ward or lab, else the oldest of their kind.
      const key = keyOf(f, k);
      const same = store.filter((r) => r.family === f);
      const recalled =
        f === 'los'
          ? (same.at(-1) ?? null)
          : f === 'hr'
            ? (same.find((r) => r.id === 'rec_hr_monitor') ?? same.at(-1) ?? null)
            : ([...same].reverse().find((r) => r.key === key) ?? same[0] ?? null);
      let wrong: boolean;
      let e: string;
      if (f === 'los' && recalled && recalled.e.includes('transfers') && !(day === 1 && t === 30)) {
        // experience-following copies the wrong query (on day 2, turn 30 the agent finally reasons it out)
        wrong = true;
        e = sql('los', k, true);
      } else if (f === 'hr' && recalled?.id === 'rec_hr_monitor') {
        wrong = rand() < 0.7; // the record offers no usable demonstration: the agent improvises
        e = sql('hr', k, wrong);
      } else {
        wrong = rand() < 0.1;
        e = sql(f, k, wrong);
      }
      const utility = wrong ? 0 : 1;
      const added = day === 0 ? true : !wrong;
      out.push({
        type: 'turn',
        data: {
          session_id: session,
          agent: HYGIENE_AGENT,
          turn: t,
          input: q,
          output: e,
          ccs: {
            goal_orientation: [`answer(${f})`],
            focal_entities: [q.match(/patient \d+/)?.[0]?.replace(' ', '_') ?? `${f}_query`],
            semantic_gist: [wrong ? 'answer_unverified' : 'answer_matched'],
          },
          recalled: recalled ? [recalled.id] : [],
          qualified: recalled ? [recalled.id] : [],
          hallucination: wrong ? 0.35 : 0.02,
          drift: wrong ? 0.2 : 0.04,
          // A small CCS; the transcript grows with the day.
          footprint: { ccs: 36 + (t % 4) * 6, transcript: 320 + t * 85, retrieval: recalled ? 60 : 0 },
          timestamp: new Date(clock).toISOString(),
          utility,
          addition: {
            decision: added ? 'added' : 'skipped',
            evaluator: day === 0 ? 'none (add-all)' : 'strict (answer matched)',
          },
        },
      });
      if (added) {
        const rec: Rec = { id: `rec_${session.slice(-5)}_${pad(t)}`, family: f, key, q, e, session, turn: t };
        store.push(rec);
        out.push({
          type: 'artifact',
          data: {
            id: rec.id,
            session_id: session,
            agent: HYGIENE_AGENT,
            kind: 'experience',
            content: `Q: ${q}\nA: ${e}`,
            provenance: { query: q, execution: e, from_turn: t },
            created_turn: t,
            timestamp: new Date(clock + 30_000).toISOString(),
          },
        });
      }
    }
    clock = Date.parse('2026-11-17T08:00:00Z');
  }
  return out;
}
