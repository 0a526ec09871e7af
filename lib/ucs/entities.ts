/**
 * The entities inside a UCS index or export package, pulled out so they can be listed and searched
 * (artifacts, annotations, methodology, dead ends, judgment nodes, PP history, policy overrides).
 * The documents themselves are kept whole as well.
 */

type Json = Record<string, unknown>;

export interface UcsEntities {
  artifacts: {
    id: string;
    kind: string;
    payload: Json;
    score: number | null;
    createdT: number | null;
    meta: Json | null;
  }[];
  annotations: { artifactId: string; data: Json }[];
  methodology: Json[];
  deadEnds: Json[];
  judgments: Json[];
  ppHistory: Json[];
  policyOverrides: Json[];
}

const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v.filter((x) => x && typeof x === 'object') as Json[]) : []);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function emptyEntities(): UcsEntities {
  return {
    artifacts: [],
    annotations: [],
    methodology: [],
    deadEnds: [],
    judgments: [],
    ppHistory: [],
    policyOverrides: [],
  };
}

export function entitiesFromIndex(index: Json): UcsEntities {
  const e = emptyEntities();
  for (const [artifactId, data] of Object.entries((index.annotations as Json) ?? {})) {
    if (data && typeof data === 'object') e.annotations.push({ artifactId, data: data as Json });
  }
  e.methodology = arr(index.methodology_entries);
  e.deadEnds = arr(index.dead_end_entries);
  e.judgments = arr(index.judgment_nodes);
  e.policyOverrides = arr(index.policy_overrides);
  return e;
}

export function entitiesFromExport(doc: Json): UcsEntities {
  const e = emptyEntities();
  for (const [id, a] of Object.entries((doc.artifacts as Json) ?? {})) {
    const art = a as Json;
    e.artifacts.push({
      id,
      kind: String(art.kind),
      payload: (art.payload as Json) ?? {},
      score: num(art.score),
      createdT: num(art.created_t),
      meta: (art.meta as Json) ?? null,
    });
    if (art.annotation && typeof art.annotation === 'object')
      e.annotations.push({ artifactId: id, data: art.annotation as Json });
  }
  e.methodology = arr(doc.methodology);
  e.deadEnds = arr(doc.dead_ends);
  e.judgments = arr(doc.judgment_nodes);
  e.ppHistory = arr(doc.pp_history);
  e.policyOverrides = arr(doc.policy_overrides);
  return e;
}

export function artifactsFromState(artifacts: unknown): UcsEntities['artifacts'] {
  return arr(artifacts)
    .filter((a) => typeof a.id === 'string')
    .map((a) => ({
      id: a.id as string,
      kind: String(a.kind),
      payload: (a.payload as Json) ?? {},
      score: num(a.score),
      createdT: num(a.created_t),
      meta: (a.meta as Json) ?? null,
    }));
}

/** A stable key for a policy override, which carries no id of its own. */
export function policyOverrideKey(o: Json): string {
  return [o.t, o.from, o.to, o.timestamp ?? '', o.reason ?? ''].join('|');
}
