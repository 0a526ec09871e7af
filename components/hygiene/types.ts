import type { RouterOutputs } from '@/components/trpc/outputs';
import type { ProposalPolicy } from '@/lib/hygiene/contract';

/** What `hygiene.lab` returns: the lab's data for one agent and one set of parameters. */
export type Lab = RouterOutputs['hygiene']['lab'];
/** One memory item of the lab (an artifact of the agent's store or a durable entry), with its health. */
export type LabItem = Lab['items'][number];
/** Raises a deprecation proposal for a memory item; null when the person may not propose. */
export type Raise = ((item: string, policy: ProposalPolicy) => void) | null;
