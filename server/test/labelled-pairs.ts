import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CurationEvent } from '@/lib/curation/event';

/** A hand-labelled pair of lib/curation/fixtures: `a` an entry, `b` an event. */
export interface LabelledPair<L extends string> {
  id: string;
  a: string;
  b: string;
  label: L;
  category: string;
}

/** The pairs of one labelled set in lib/curation/fixtures. */
export const loadPairs = <L extends string>(file: string): LabelledPair<L>[] =>
  (
    JSON.parse(readFileSync(path.join(import.meta.dirname, '../../lib/curation/fixtures', file), 'utf8')) as {
      pairs: LabelledPair<L>[];
    }
  ).pairs;

/**
 * A pair's event as the curator receives it: a well-evidenced fact in session scope, so that a pair tests the
 * word-level judgments alone (no approval, no evidence rule, no scope routing by wording).
 */
export const pairEvent = (content: string): CurationEvent => ({
  eventId: 'memevt_pair_0001',
  sourceAgent: 'worker',
  kind: 'fact',
  content,
  suggestedScope: 'session',
  confidence: 'high',
  sensitivity: 'internal',
  ttl: 'durable',
  evidenceRefs: [{ type: 'file', ref: 'docs/x.md' }],
  supersedes: [],
  conflictsWith: [],
  humanReviewRequired: false,
  redactedCount: 0,
});
