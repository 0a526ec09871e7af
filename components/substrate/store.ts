import { create } from 'zustand';

/** What is selected on the substrate page: an artifact, and the graph element it points at. */
interface SubstrateState {
  artifactId: string | null;
  edgeIndex: number | null;
  node: string | null;
  select: (p: { artifactId?: string | null; edgeIndex?: number | null; node?: string | null }) => void;
}

export const useSubstrate = create<SubstrateState>()((set) => ({
  artifactId: null,
  edgeIndex: null,
  node: null,
  select: (p) => set({ artifactId: null, edgeIndex: null, node: null, ...p }),
}));
