'use client';

import { useEffect, useRef, useState } from 'react';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { LeftDecision } from '@/lib/curation/left-decisions';

/** How long a reviewer's decision waits in this browser before it is sent, so that it can be undone: 0 is never. */
export const UNDO_CHOICES = [0, 5, 10, 30] as const;
export type UndoSeconds = (typeof UNDO_CHOICES)[number];

export const REVIEW_KEY = 'mnemoscope-review';

export const useReviewStore = create<{ undoSeconds: UndoSeconds; setUndoSeconds: (s: UndoSeconds) => void }>()(
  persist((set) => ({ undoSeconds: 5, setUndoSeconds: (undoSeconds) => set({ undoSeconds }) }), { name: REVIEW_KEY }),
);

/**
 * The proposals of the decision held in this page, not yet sent: every count of proposals waiting (the sidebar's,
 * the Inbox tab's) leaves them out as the inbox's list does, though the server still counts them pending.
 */
export const useUnsentDecisions = create<{ ids: readonly string[] }>()(() => ({ ids: [] }));

export interface Held<T> {
  value: T;
  /** When it is sent (ms since the epoch), and how long it was held for. */
  until: number;
  seconds: number;
}

/** The mounted inbox's way to send its held decision now, before the page goes (null when nothing can be held). */
let sendHeld: (() => Promise<void>) | null = null;

/**
 * Sends a decision held in this page now, and resolves when the server has it (or after 3 s): called before what
 * would otherwise lose it with the page, such as signing out or switching project (the request needs the session
 * and the project it was made in).
 */
export function sendHeldDecisions(): Promise<void> {
  const send = sendHeld;
  if (!send) return Promise.resolve();
  return Promise.race([send(), new Promise<void>((r) => window.setTimeout(r, 3000))]);
}

/**
 * A decision held back for `seconds` before `send` gets it, as a mail client holds a message: nothing reaches the
 * server (nor the agents and webhooks it tells) until then, so Undo takes it back whole. One is held at a time: a
 * new one sends the one before at once. Leaving the inbox by a link (the component unmounts), and closing or
 * reloading the tab, send it with `sendAsPageGoes` (a request that outlives the page), whose answer this component is
 * no longer there to show: it says how the page went. Held in this browser only; the server sees one ordinary
 * decision, later.
 */
export function useHeldDecision<T>(
  send: (value: T) => void,
  seconds: number,
  sendAsPageGoes: (value: T, how: 'closed' | 'left') => Promise<unknown>,
) {
  const ref = useRef<{ held: Held<T>; timer: number } | null>(null);
  const [held, setHeld] = useState<Held<T> | null>(null);
  const sendRef = useRef(send);
  useEffect(() => {
    sendRef.current = send;
  });
  const release = (): Held<T> | null => {
    const h = ref.current;
    if (!h) return null;
    window.clearTimeout(h.timer);
    ref.current = null;
    setHeld(null);
    return h.held;
  };
  const commit = () => {
    const h = release();
    if (h) sendRef.current(h.value);
  };
  const hold = (value: T) => {
    commit();
    if (seconds <= 0) return sendRef.current(value);
    const next = { value, until: Date.now() + seconds * 1000, seconds };
    ref.current = { held: next, timer: window.setTimeout(commit, seconds * 1000) };
    setHeld(next);
  };
  /** Takes the held decision back unsent; returns it (null when there was none, or it has gone). */
  const undo = (): T | null => release()?.value ?? null;

  const goesRef = useRef(sendAsPageGoes);
  useEffect(() => {
    goesRef.current = sendAsPageGoes;
  });
  useEffect(() => {
    const goes = (how: 'closed' | 'left' = 'closed'): Promise<void> => {
      const h = release();
      return h ? goesRef.current(h.value, how).then(() => undefined) : Promise.resolve();
    };
    const onPageHide = () => void goes();
    window.addEventListener('pagehide', onPageHide);
    sendHeld = goes;
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      if (sendHeld === goes) sendHeld = null;
      void goes('left');
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once: release reads only refs and a state setter
  }, []);
  return { held, hold, undo };
}

/** Whole seconds left of a held decision, counted down while shown. */
export function useSecondsLeft(held: Held<unknown> | null): number {
  const until = held?.until ?? null;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    const t = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(t);
  }, [until]);
  return held === null ? 0 : Math.min(held.seconds, Math.max(0, Math.ceil((held.until - now) / 1000)));
}

export const LEFT_KEY = 'mnemoscope-review-left';

/**
 * Decisions sent as a page went, written down until they are checked (lib/curation/left-decisions): by the page the
 * reviewer went to when they left by a link, else by the next page this browser opens.
 */
export function readLeft(): LeftDecision[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(LEFT_KEY) ?? '[]');
    return Array.isArray(v) ? (v as LeftDecision[]) : [];
  } catch {
    return [];
  }
}

function writeLeft(list: LeftDecision[]) {
  try {
    if (list.length) localStorage.setItem(LEFT_KEY, JSON.stringify(list));
    else localStorage.removeItem(LEFT_KEY);
  } catch {
    /* storage full or denied: the decision is still sent, only its check is lost */
  }
  leftChanged();
}

const leftListeners = new Set<() => void>();
/** Calls `f` whenever this page writes the list, or hears the answer to a decision in it; returns the unsubscribe. */
export function onLeftChange(f: () => void): () => void {
  leftListeners.add(f);
  return () => void leftListeners.delete(f);
}
/** Tells the checker to look again (a decision in the list was answered, or refused). */
export const leftChanged = () => leftListeners.forEach((f) => f());

/**
 * The decisions written down whose requests this page is still waiting on (by `at`): the checker leaves them be until
 * the answer comes (a colleague's same decision would otherwise pass for this one, and be forgotten before a refusal
 * could be written down).
 */
export const sendingLeft = new Set<number>();
export const rememberLeft = (d: LeftDecision) => writeLeft([...readLeft(), d]);
/** Adds what the page heard of the decision sent at `at` (a refusal, or a request that failed) to its record. */
export const markLeft = (at: number, heard: Pick<LeftDecision, 'refused' | 'failed'>) =>
  writeLeft(readLeft().map((d) => (d.at === at ? { ...d, ...heard } : d)));
/** Forgets the decisions sent at these times (confirmed, or checked and reported). */
export const forgetLeft = (ats: number[]) => writeLeft(readLeft().filter((d) => !ats.includes(d.at)));
