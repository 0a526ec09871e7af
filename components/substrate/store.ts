import { create } from 'zustand';

/** The context typed or picked in "What would the substrate do?", for one agent (and the stored sample picked). */
export interface ConsultInput {
  agent: string;
  context: string;
  sample: number | null;
}

/** What is selected on the substrate page: an artifact, and the graph element it points at; the consult's context. */
interface SubstrateState {
  artifactId: string | null;
  edgeIndex: number | null;
  node: string | null;
  select: (p: { artifactId?: string | null; edgeIndex?: number | null; node?: string | null }) => void;
  consult: ConsultInput;
  setConsult: (c: ConsultInput) => void;
}

export const useSubstrate = create<SubstrateState>()((set) => ({
  artifactId: null,
  edgeIndex: null,
  node: null,
  select: (p) => set({ artifactId: null, edgeIndex: null, node: null, ...p }),
  consult: { agent: '', context: '', sample: null },
  setConsult: (consult) => set({ consult }),
}));
