import { create } from 'zustand';

export const SPEEDS = [0.5, 1, 2, 4, 8] as const;

interface ReplayState {
  /**
   * The session the player state below is of: until a replay page has opened its session here (an effect, after the
   * first render), the page shows the turn its address names instead, so the server can render it.
   */
  sessionId: string | null;
  /** Index into the session's turns (not the turn number, which may have gaps). */
  index: number;
  playing: boolean;
  speed: (typeof SPEEDS)[number];
  /** Compare mode: the index of turn A (the current turn is B); null compares with the previous turn. */
  compareIndex: number | null;
  tab: 'state' | 'diff' | 'raw';
  showShortcuts: boolean;
  expandUnchanged: boolean;
  set: (p: Partial<Omit<ReplayState, 'set'>>) => void;
}

export const useReplay = create<ReplayState>()((set) => ({
  sessionId: null,
  index: 0,
  playing: false,
  speed: 1,
  compareIndex: null,
  tab: 'state',
  showShortcuts: false,
  expandUnchanged: false,
  set: (p) => set(p),
}));
