import { and, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '@/server/db';
import { memoryEvents } from '@/server/db/schema/memory';

export async function listMemoryEvents(db: Tx, projectId: string, limit = 500) {
  return db
    .select({
      eventId: memoryEvents.eventId,
      shape: memoryEvents.shape,
      sourceAgent: memoryEvents.sourceAgent,
      taskId: memoryEvents.taskId,
      kind: memoryEvents.kind,
      content: memoryEvents.content,
      suggestedScope: memoryEvents.suggestedScope,
      confidence: memoryEvents.confidence,
      sensitivity: memoryEvents.sensitivity,
      evidenceCount: sql<number>`jsonb_array_length(${memoryEvents.evidenceRefs})`,
      humanReviewRequired: memoryEvents.humanReviewRequired,
      redactions: memoryEvents.redactions,
      timestamp: memoryEvents.timestamp,
    })
    .from(memoryEvents)
    .where(and(eq(memoryEvents.projectId, projectId)))
    .orderBy(desc(memoryEvents.ts), memoryEvents.eventId)
    .limit(limit);
}
