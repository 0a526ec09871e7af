/**
 * A UCS torus field state file split into the parts we store in their own columns and the rest,
 * and joined back, so an export rebuilds the file as the bridge wrote it.
 */

type Json = Record<string, unknown>;

export interface UcsStateParts {
  t: number;
  version: string | null;
  thetaBins: number;
  phiBins: number;
  fields: Record<string, number[]>;
  ports: Record<string, number> | null;
  graph: Json | null;
  artifacts: unknown[] | null;
  policy: Json | null;
  pp: Record<string, number> | null;
  trace: Json | null;
  cursor: Json | null;
  injectionSchedule: unknown[] | null;
  /** The document with the parts above taken out (key order kept, placeholders where they stood). */
  rest: Json;
}

const TOP = ['graph', 'artifacts', 'policy', 'pp', 'trace', 'cursor', 'injection_schedule'] as const;
const PLACEHOLDER = '__part__';

export function splitUcsState(doc: Json): UcsStateParts {
  const state = doc.state as Json;
  const rest: Json = {};
  for (const [k, v] of Object.entries(doc)) {
    if (k === 'state') {
      const s: Json = {};
      for (const [sk, sv] of Object.entries(state)) s[sk] = sk === 'fields' || sk === 'ports' ? PLACEHOLDER : sv;
      rest.state = s;
    } else rest[k] = (TOP as readonly string[]).includes(k) ? PLACEHOLDER : v;
  }
  const get = <T>(k: string) => (k in doc ? (doc[k] as T) : null);
  return {
    t: state.t as number,
    version: typeof doc.version === 'string' ? doc.version : null,
    thetaBins: state.theta_bins as number,
    phiBins: state.phi_bins as number,
    fields: state.fields as Record<string, number[]>,
    ports: 'ports' in state ? (state.ports as Record<string, number>) : null,
    graph: get('graph'),
    artifacts: get('artifacts'),
    policy: get('policy'),
    pp: get('pp'),
    trace: get('trace'),
    cursor: get('cursor'),
    injectionSchedule: get('injection_schedule'),
    rest,
  };
}

export function joinUcsState(p: Omit<UcsStateParts, 't' | 'version' | 'thetaBins' | 'phiBins'>): Json {
  const parts: Json = {
    graph: p.graph,
    artifacts: p.artifacts,
    policy: p.policy,
    pp: p.pp,
    trace: p.trace,
    cursor: p.cursor,
    injection_schedule: p.injectionSchedule,
  };
  const doc: Json = {};
  for (const [k, v] of Object.entries(p.rest)) {
    if (k === 'state') {
      const s: Json = {};
      for (const [sk, sv] of Object.entries(v as Json)) {
        s[sk] = sv === PLACEHOLDER ? (sk === 'fields' ? p.fields : p.ports) : sv;
      }
      doc.state = s;
    } else doc[k] = v === PLACEHOLDER ? parts[k] : v;
  }
  return doc;
}

/** Capability i sits at (i mod θ, 3i mod φ) when the state does not say, as the reference bridge places it. */
export function defaultNodePosition(i: number, thetaBins: number, phiBins: number): { theta: number; phi: number } {
  return { theta: i % thetaBins, phi: (3 * i) % phiBins };
}
