/**
 * The papers the app follows, by the titles they carry (pages name them so; the README's table of formulas gives the
 * sections). Their texts are in the project's shared papers folder.
 */
export const PAPERS = {
  acc: 'AI Agents Need Memory Control Over More Context',
  curator: 'Self-Evolving Agents Hallucinate at Scale: A Provable Memory Curator Architecture',
  additionDeletion: 'How Memory Management Impacts LLM Agents: An Empirical Study of Experience-Following Behavior',
  consolidation: 'Memory Consolidation Strategies for Long-Running AI Agents',
  ucs:
    'Judgment Preservation in Persistent AI Agents: A Unified Cognitive Substrate for Routing Reinforcement and ' +
    'Metacognitive Continuity',
} as const;

export type PaperId = keyof typeof PAPERS;
