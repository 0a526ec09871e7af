import { z } from 'zod';

/**
 * Agents' `search_memory` calls as they are logged (`memory_retrievals`) and labelled by reviewers
 * (`retrieval_judgments`): the ground truth of the Memory Curator paper's M6, retrieval F1 on downstream tasks.
 */

/** Where a search result comes from: a durable memory entry or a record of the artifact store. */
export const RETRIEVAL_SOURCES = ['memory_entry', 'artifact'] as const;
export type RetrievalSource = (typeof RETRIEVAL_SOURCES)[number];

/** One returned item of a logged search, in the order the agent got them (rank 1 first). */
export interface RetrievedItem {
  source: RetrievalSource;
  id: string;
  rank: number;
}

/** Logged searches older than this are deleted (with their labels): agents search often, storage stays bounded. */
export const RETRIEVAL_KEEP_DAYS = 90;

/** A reviewer's label on one item of a search: a returned one, or one it should have returned (`returned` false). */
export const judgmentInputSchema = z.object({
  retrievalId: z.uuid(),
  source: z.enum(RETRIEVAL_SOURCES),
  itemId: z.string().trim().min(1).max(500),
  relevant: z.boolean(),
});
export type JudgmentInput = z.infer<typeof judgmentInputSchema>;
