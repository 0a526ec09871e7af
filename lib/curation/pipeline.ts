import type { CurationEvent } from './event';
import { describeMarkup, findMarkup } from './markup';
import { INSTRUCTION_TO_MEMORY } from './injection';
import { relation, type RelationVerdict } from './conflict';
import { sameness, type SamenessOptions } from './sameness';

/** Close neighbours (cosine ≥ the threshold) whose words are compared with the event's, nearest first. */
export const DEDUP_JUDGED = 3;

/**
 * The Memory Curator's pipeline (§6, Algorithm 1 of "Self-Evolving Agents Hallucinate at Scale: A Provable
 * Memory Curator Architecture", the curator paper) as pure decisions: steps 2–8 on one event
 * that passed the schema check (step 1 is the ingest contract; malformed events are rejected there
 * with their field errors) and redaction (done before anything is stored). Every step leaves an
 * audit line (step 9). Scope and kind classification go through `Classifier`, so an LLM classifier
 * can replace the deterministic rules below; conflict judgment goes through `ConflictJudge`.
 *
 * The default rules, conservative as the curator paper asks ("durable memory must be earned"):
 * - scope: `agent_team` is `team_memory`; `discard` is discarded; a session/discard TTL, low
 *   confidence, a hypothesis, private sensitivity outside `user_identity`, or temporary wording
 *   ("today", "for now", "currently"…) routes to `session`; otherwise the suggested scope.
 * - kind: a fact, decision or procedure worded with hedges ("might", "probably", "I think",
 *   "unverified"…) becomes a hypothesis.
 * - safety: `secret` sensitivity, content that is mostly masked secrets, or instructions aimed at
 *   memory itself ("ignore previous instructions", "always trust…", "share the password") are rejected;
 *   markup (scripts, event handlers, script URLs, hidden text: `findMarkup`) goes to a person, never written unseen.
 * - evidence: in a durable scope, fact/decision/procedure need an evidence ref (Table 2: "Yes"; an
 *   `evidence` event is the evidence itself, preference and risk are "soft"),
 *   deprecation a ref or a `supersedes`, conflict two refs or a `conflicts_with`; without it the
 *   event is demoted to a session hypothesis when confidence is medium or high, else rejected.
 * - dedup: an active entry of the target scope at cosine ≥ threshold (0.75) is the same memory only when the
 *   words agree too (`sameness`: no number, identifier, name, polarity or subject differs): the event is a
 *   duplicate, nothing is written. A close entry that differs only in wording a person should judge ("one says
 *   more") makes the event a proposed `merge` into it, the differing words marked.
 *   Measured on 363 labelled pairs (lib/curation/fixtures): see `server/services/curation-dedup.test.ts`.
 * - conflict: explicit `conflicts_with`, or a close neighbour (cosine ≥ 0.7) that the paper's predicate κ calls
 *   conflicting (`relation`: about one subject, a value changes, the polarity flips or a word is swapped for its
 *   opposite; a template sibling about another subject is unrelated). Measured on labelled pairs:
 *   `server/services/curation-conflict.test.ts`.
 * - write or propose: scopes listed in the project's policy, `human_review_required`, and every
 *   operation that changes existing memory (update, deprecate, conflict) are proposed; the rest is
 *   written.
 */

/** The longest memory entry a person writes or edits, in characters. */
export const ENTRY_CONTENT_MAX = 4000;

export const SCOPES = ['user_identity', 'team_memory', 'agent_repo', 'project', 'session'] as const;
export type Scope = (typeof SCOPES)[number];
export const KINDS = [
  'fact',
  'decision',
  'preference',
  'risk',
  'procedure',
  'hypothesis',
  'evidence',
  'deprecation',
  'conflict',
] as const;
export type Kind = (typeof KINDS)[number];
/** `merge`: a near-duplicate folded into the entry it restates (the entry takes the approved wording). */
export type Operation = 'append' | 'update' | 'merge' | 'deprecate' | 'conflict' | 'discard';
export type Disposition = 'written' | 'proposed' | 'rejected' | 'duplicate' | 'discarded';

/** An existing entry near the event (any scope; the pipeline keeps the target scope's). */
export interface Neighbour {
  entryId: string;
  scope: string;
  kind: string;
  content: string;
  status: string;
  sourceEventId: string | null;
  cosine: number;
}

export interface CurationPolicy {
  /** Scopes whose writes a person approves. */
  approvalScopes: Scope[];
  dedupThreshold: number;
  /** Neighbours at least this close are checked for disagreement. */
  conflictThreshold: number;
  /** Lowest confidence that demotes (rather than rejects) an event lacking evidence. */
  demoteFrom: 'low' | 'medium' | 'high';
}

export const DEFAULT_POLICY: CurationPolicy = {
  approvalScopes: ['user_identity', 'team_memory', 'agent_repo'],
  dedupThreshold: 0.75,
  conflictThreshold: 0.7,
  demoteFrom: 'medium',
};

export interface StepRecord {
  step: 'schema' | 'safety' | 'scope' | 'kind' | 'evidence' | 'dedup' | 'conflict' | 'write';
  outcome: string;
  detail?: string;
}

export interface CurationDecision {
  disposition: Disposition;
  operation: Operation | null;
  scope: Scope | null;
  kind: Kind;
  reason: string;
  /** Why a person must decide, when proposed. */
  reviewBecause: string | null;
  /** The entry an update, deprecation or duplicate is about. */
  targetEntryId: string | null;
  /** Entries this event disagrees with (kept, linked). */
  conflictsWith: string[];
  steps: StepRecord[];
}

export interface Classifier {
  scope(e: CurationEvent): { scope: Scope | 'discard'; because: string };
  kind(e: CurationEvent, scope: Scope): { kind: Kind; because: string };
}

/** The paper's κ(e, m): whether an event and a close entry are compatible, conflicting or unrelated, and why. */
export type ConflictJudge = (event: string, entry: string, words: SamenessOptions) => RelationVerdict;

const CONFIDENCE_RANK: Record<string, number> = { low: 0, medium: 1, high: 2 };
/** A case-insensitive regular expression matching any of the alternatives, each a whole-word pattern. */
const anyOf = (alternatives: string[], wordEnd = true) =>
  new RegExp(String.raw`\b(${alternatives.join('|')})${wordEnd ? String.raw`\b` : ''}`, 'i');
const TEMPORARY = anyOf([
  'today',
  'tonight',
  'this (morning|afternoon|evening|week)',
  'right now',
  'for now',
  'currently',
  'temporar(y|ily)',
  'at the moment',
  'until (tomorrow|monday|friday)',
]);
const HEDGES = anyOf([
  'might',
  'maybe',
  'perhaps',
  'possibly',
  'probably',
  'likely',
  'i think',
  'i guess',
  'seems?( to)?',
  'appears? to',
  'unverified',
  'not sure',
  'suspect(ed)?',
  'could be',
]);
const MASK = /•••[^•]*•••|\[REDACTED[^\]]*\]/g;

export const DEFAULT_CLASSIFIER: Classifier = {
  scope(e) {
    const suggested = e.suggestedScope === 'agent_team' ? 'team_memory' : e.suggestedScope;
    const alias = e.suggestedScope === 'agent_team' ? ' (agent_team is an alias of team_memory)' : '';
    if (suggested === 'discard') return { scope: 'discard', because: 'the emitter suggested discard' };
    if (e.ttl === 'discard') return { scope: 'discard', because: 'ttl is discard' };
    if (suggested === 'session') return { scope: 'session', because: 'suggested session' };
    if (e.ttl === 'session') return { scope: 'session', because: 'ttl is session: temporary' };
    if (e.confidence === 'low')
      return { scope: 'session', because: 'low confidence: unsupported, kept for the session only' };
    if (e.kind === 'hypothesis') return { scope: 'session', because: 'a hypothesis is not durable memory' };
    if (e.sensitivity === 'private' && suggested !== 'user_identity')
      return { scope: 'session', because: 'private content outside user_identity' };
    if (TEMPORARY.test(e.content))
      return { scope: 'session', because: `temporary wording ("${TEMPORARY.exec(e.content)![0]}")` };
    if (!(SCOPES as readonly string[]).includes(suggested))
      return { scope: 'session', because: `unknown scope ${suggested}: unclear` };
    return { scope: suggested as Scope, because: `suggested ${e.suggestedScope}${alias}` };
  },
  kind(e) {
    const kind = ((KINDS as readonly string[]).includes(e.kind) ? e.kind : 'hypothesis') as Kind;
    if ((kind === 'fact' || kind === 'decision' || kind === 'procedure') && HEDGES.test(e.content))
      return { kind: 'hypothesis', because: `hedged wording ("${HEDGES.exec(e.content)![0]}") in a ${kind}` };
    return { kind, because: kind === e.kind ? 'as emitted' : `unknown kind ${e.kind}` };
  },
};

export const DEFAULT_CONFLICT_JUDGE: ConflictJudge = (event, entry, words) => relation(entry, event, words);

function evidenceMissing(e: CurationEvent, kind: Kind): string | null {
  const refs = e.evidenceRefs.length;
  switch (kind) {
    case 'fact':
    case 'decision':
    case 'procedure':
      return refs ? null : `a ${kind} needs an evidence ref`;
    case 'deprecation':
      return refs || e.supersedes.length ? null : 'a deprecation needs a ref to what it deprecates';
    case 'conflict':
      return refs >= 2 || e.conflictsWith.length ? null : 'a conflict needs refs to both sides';
    default:
      return null;
  }
}

/** Curates one event against the entries near it. Pure: the same inputs give the same decision. */
export function curate(
  e: CurationEvent,
  /** Null when the embedding model is unavailable: dedup cannot run, so the write goes to review. */
  neighbourList: readonly Neighbour[] | null,
  policy: CurationPolicy = DEFAULT_POLICY,
  classifier: Classifier = DEFAULT_CLASSIFIER,
  judge: ConflictJudge = DEFAULT_CONFLICT_JUDGE,
  /** Words the equivalence judgment may pair (the service passes WordNet as the lexicon). */
  words: SamenessOptions = {},
): CurationDecision {
  const steps: StepRecord[] = [{ step: 'schema', outcome: 'valid' }];
  const done = (
    d: Omit<CurationDecision, 'steps' | 'conflictsWith' | 'targetEntryId' | 'reviewBecause'> &
      Partial<CurationDecision>,
  ): CurationDecision => ({
    reviewBecause: null,
    targetEntryId: null,
    conflictsWith: [],
    ...d,
    steps,
  });
  const emittedKind = ((KINDS as readonly string[]).includes(e.kind) ? e.kind : 'hypothesis') as Kind;

  // 2. Safety (redaction already ran; what it could not make safe is rejected here).
  const masked = (e.content.match(MASK) ?? []).join('').length;
  if (e.sensitivity === 'secret') {
    steps.push({ step: 'safety', outcome: 'unsafe', detail: 'sensitivity is secret' });
    return done({
      disposition: 'rejected',
      operation: 'discard',
      scope: null,
      kind: emittedKind,
      reason: 'unsafe: marked secret; secrets are never stored as memory',
    });
  }
  if (e.redactedCount && masked / Math.max(1, e.content.length) > 0.4) {
    steps.push({
      step: 'safety',
      outcome: 'unredactable',
      detail: `${e.redactedCount} secrets masked, ${Math.round((masked / e.content.length) * 100)}% of the text`,
    });
    return done({
      disposition: 'rejected',
      operation: 'discard',
      scope: null,
      kind: emittedKind,
      reason: 'unsafe: mostly secrets; redaction leaves nothing worth keeping',
    });
  }
  if (INSTRUCTION_TO_MEMORY.test(e.content)) {
    steps.push({
      step: 'safety',
      outcome: 'unsafe',
      detail: `instruction aimed at memory: "${INSTRUCTION_TO_MEMORY.exec(e.content)![0]}"`,
    });
    return done({
      disposition: 'rejected',
      operation: 'discard',
      scope: null,
      kind: emittedKind,
      reason: 'unsafe: tries to instruct future agents (memory poisoning)',
    });
  }
  const markup = findMarkup(e.content);
  const markupReview = markup.length ? `markup in the content: ${describeMarkup(markup)}` : null;
  steps.push(
    markup.length
      ? {
          step: 'safety',
          outcome: `markup (${markup[0]!.level})`,
          detail:
            `${describeMarkup(markup)}: a person reviews it` +
            (e.redactedCount ? `; ${e.redactedCount} secret(s) masked before storage` : ''),
        }
      : {
          step: 'safety',
          outcome: e.redactedCount ? 'redacted' : 'clean',
          detail: e.redactedCount ? `${e.redactedCount} secret(s) masked before storage` : undefined,
        },
  );

  // 3. Scope.
  const s = classifier.scope(e);
  steps.push({ step: 'scope', outcome: s.scope, detail: s.because });
  if (s.scope === 'discard')
    return done({
      disposition: 'discarded',
      operation: 'discard',
      scope: null,
      kind: emittedKind,
      reason: `discarded: ${s.because}`,
    });
  let scope: Scope = s.scope;

  // 4. Kind.
  const k = classifier.kind(e, scope);
  let kind = k.kind;
  steps.push({
    step: 'kind',
    outcome: kind,
    detail: kind === e.kind ? undefined : `override ${e.kind} → ${kind}: ${k.because}`,
  });
  if (kind === 'hypothesis' && scope !== 'session') {
    steps.push({ step: 'scope', outcome: 'session', detail: 'a hypothesis is kept for the session only' });
    scope = 'session';
  }

  // 5. Evidence.
  if (scope !== 'session') {
    const missing = evidenceMissing(e, kind);
    if (missing) {
      if ((CONFIDENCE_RANK[e.confidence] ?? 0) >= CONFIDENCE_RANK[policy.demoteFrom]!) {
        steps.push({ step: 'evidence', outcome: 'demoted', detail: `${missing}: demoted to a session hypothesis` });
        kind = 'hypothesis';
        scope = 'session';
      } else {
        steps.push({ step: 'evidence', outcome: 'insufficient', detail: missing });
        return done({ disposition: 'rejected', operation: 'discard', scope, kind, reason: `no evidence: ${missing}` });
      }
    } else
      steps.push({
        step: 'evidence',
        outcome: e.evidenceRefs.length ? `${e.evidenceRefs.length} ref(s)` : 'not required',
      });
  } else steps.push({ step: 'evidence', outcome: 'not required in session' });

  const neighbours = neighbourList ?? [];
  const inScope = neighbours
    .filter((n) => n.scope === scope && n.status !== 'deprecated')
    .sort((a, b) => b.cosine - a.cosine);

  // Explicit supersession: update (or deprecate) the entry it names.
  const superseded = e.supersedes.length
    ? neighbours.find(
        (n) => e.supersedes.includes(n.entryId) || (n.sourceEventId !== null && e.supersedes.includes(n.sourceEventId)),
      )
    : undefined;

  // 6. Dedup: a close entry is the same memory only if it says the same thing (the curator paper's
  // equivalence judgment): one that disagrees, or that the event names as a conflict, is not.
  const explicit = neighbours.filter(
    (n) =>
      e.conflictsWith.includes(n.entryId) || (n.sourceEventId !== null && e.conflictsWith.includes(n.sourceEventId)),
  );
  // The paper checks the nearest neighbour (argmax sim); the nearest three are judged, so that a template sibling
  // a hair closer does not hide the entry the event restates.
  const close = inScope
    .filter((n) => n.cosine >= policy.dedupThreshold && !explicit.includes(n))
    .slice(0, DEDUP_JUDGED)
    .map((n) => ({ n, same: sameness(e.content, n.content, words) }));
  const twin = close.find((c) => c.same.verdict === 'same');
  if (!superseded && twin) {
    steps.push({
      step: 'dedup',
      outcome: 'duplicate',
      detail: `cosine ${twin.n.cosine.toFixed(3)} with entry ${twin.n.entryId}; ${twin.same.because}`,
    });
    return done({
      disposition: 'duplicate',
      operation: null,
      scope,
      kind,
      reason: `equivalent to an existing ${scope} entry (cosine ${twin.n.cosine.toFixed(3)}: ${twin.same.because})`,
      targetEntryId: twin.n.entryId,
    });
  }
  // A near-duplicate: merged into the entry when the event says more (or its own words); when only the entry says
  // more ("… in production"), the event is the wider statement — a merge would drop the entry's words, so it is
  // proposed as an entry of its own, which the reviewer keeps or rejects.
  const near = superseded ? undefined : close.find((c) => c.same.verdict === 'near');
  const narrower = near && !near.same.onlyA.length && near.same.onlyB.length > 0 ? near : undefined;
  const nearTwin = narrower ? undefined : near;
  if (neighbourList === null)
    steps.push({
      step: 'dedup',
      outcome: 'unavailable',
      detail: 'the embedding model could not run; a person checks for duplicates',
    });
  else {
    const near = inScope[0];
    const judged = close.find((c) => c.n === near);
    steps.push(
      nearTwin
        ? {
            step: 'dedup',
            outcome: 'near-duplicate',
            detail:
              `cosine ${nearTwin.n.cosine.toFixed(3)} with entry ${nearTwin.n.entryId}, ${nearTwin.same.because}: ` +
              'a person decides whether to merge',
          }
        : {
            step: 'dedup',
            outcome: 'new',
            detail: near
              ? `nearest cosine ${near.cosine.toFixed(3)}` +
                (judged ? `, but ${judged.same.because}` : ` < ${policy.dedupThreshold}`)
              : 'no entry in this scope yet',
          },
    );
  }

  // 7. Conflicts: explicit, then likely (close and disagreeing).
  const likely = inScope.flatMap((n) => {
    if (n.cosine < policy.conflictThreshold || explicit.includes(n) || n === superseded) return [];
    const k = judge(e.content, n.content, words);
    return k.relation === 'conflicting' ? [{ n, because: k.because }] : [];
  });
  const conflicts = [...explicit, ...likely.map((l) => l.n)].map((n) => n.entryId);
  steps.push({
    step: 'conflict',
    outcome: conflicts.length ? `${conflicts.length} conflict(s)` : 'none',
    detail: conflicts.length
      ? [
          ...(explicit.length ? [`${explicit.length} named by the event`] : []),
          ...likely.map((l) => `entry ${l.n.entryId} (cosine ${l.n.cosine.toFixed(3)}): ${l.because}`),
        ].join('; ')
      : undefined,
  });

  // 8. Write or propose.
  let operation: Operation = 'append';
  let targetEntryId: string | null = null;
  if (conflicts.length) operation = 'conflict';
  else if (superseded) {
    operation = kind === 'deprecation' ? 'deprecate' : 'update';
    targetEntryId = superseded.entryId;
  } else if (nearTwin) {
    operation = 'merge';
    targetEntryId = nearTwin.n.entryId;
  }
  const review = markupReview
    ? markupReview
    : e.humanReviewRequired
      ? 'the emitter asked for human review'
      : neighbourList === null
        ? 'duplicates could not be checked (embedding model unavailable)'
        : operation === 'merge' && nearTwin
          ? `near-duplicate of an existing entry (${nearTwin.same.because}): merge, or keep both`
          : operation === 'append' && narrower
            ? `near-duplicate: entry ${narrower.n.entryId} says this and more (${narrower.same.onlyB.join(', ')}); ` +
              'approve to keep this wider statement too, or reject'
            : operation !== 'append'
              ? `${operation} changes existing memory`
              : policy.approvalScopes.includes(scope)
                ? `${scope} writes need approval in this project`
                : null;
  // A deprecation of something this project never stored deprecates nothing: it is kept as an entry saying so.
  const unstored =
    kind === 'deprecation' && e.supersedes.length && !superseded
      ? `; ${e.supersedes.join(', ')} is not stored here, so nothing is deprecated: ` +
        `${review ? 'approved, it is kept' : 'kept'} as an entry that says it is obsolete`
      : '';
  steps.push({
    step: 'write',
    outcome: review ? 'proposed' : 'written',
    detail: (review ?? `${operation} to ${scope}`) + unstored,
  });
  return done({
    disposition: review ? 'proposed' : 'written',
    operation,
    scope,
    kind,
    reason: review ? `proposal queued: ${review}` : `written: ${operation} to ${scope}`,
    reviewBecause: review,
    targetEntryId,
    conflictsWith: conflicts,
  });
}
