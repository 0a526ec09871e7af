import { create } from 'zustand';
import type { AnnotationTarget } from '@/lib/ingest/contract';

/** What a person may annotate from where they are: the fields that name it, and how it reads. */
export interface TargetOption {
  key: string;
  label: string;
  /** Shown as an option group in the dialog: "This turn", "Terms", "Artifacts". */
  group: string;
  target: {
    target: AnnotationTarget;
    session_id?: string;
    turn?: number;
    field?: string;
    term?: string;
    artifact_id?: string;
    proposal_id?: string;
    entry_id?: string;
  };
}

interface AnnotateState {
  open: boolean;
  options: TargetOption[];
  chosen: string;
  /** Opens the dialog on these targets, with `chosen` (or the first) selected. */
  show: (options: TargetOption[], chosen?: string) => void;
  close: () => void;
  choose: (key: string) => void;
}

/** The annotate dialog's UI state, shared by the player, the inbox and the entries (one dialog at a time). */
export const useAnnotate = create<AnnotateState>()((set) => ({
  open: false,
  options: [],
  chosen: '',
  show: (options, chosen) =>
    set({
      open: true,
      options,
      chosen: chosen && options.some((o) => o.key === chosen) ? chosen : (options[0]?.key ?? ''),
    }),
  close: () => set({ open: false }),
  choose: (key) => set({ chosen: key }),
}));
