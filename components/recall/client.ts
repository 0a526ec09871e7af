'use client';

import { create } from 'zustand';
import { MODEL_CHOICE_KEY, MODEL_ID } from '@/lib/recall/model';
import {
  INITIAL_STATUS,
  type RecallRequest,
  type RecallResponse,
  type RecallResults,
  type RecallStatus,
} from '@/lib/recall/protocol';

/** The recall worker's status, for every component that shows it. */
export const useRecallStatus = create<RecallStatus>(() => ({ ...INITIAL_STATUS, modelId: MODEL_ID }));

export function chosenModel(): string {
  try {
    return localStorage.getItem(MODEL_CHOICE_KEY) ?? MODEL_ID;
  } catch {
    return MODEL_ID;
  }
}

type Payload<T extends RecallRequest['type']> = Omit<Extract<RecallRequest, { type: T }>, 'id' | 'type'>;

/** The page's handle on the one recall worker: typed requests with ids, answered by promises. */
class RecallClient {
  private worker: Worker;
  private nextId = 1;
  private waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor() {
    this.worker = new Worker(new URL('./recall.worker.ts', import.meta.url), {
      type: 'module',
      name: 'mnemoscope-recall',
    });
    this.worker.onmessage = (event: MessageEvent<RecallResponse>) => {
      const msg = event.data;
      if (msg.type === 'status') {
        useRecallStatus.setState(msg.status);
        return;
      }
      const w = this.waiting.get(msg.id);
      if (!w) return;
      this.waiting.delete(msg.id);
      if (msg.type === 'result') w.resolve(msg.result);
      else w.reject(new Error(msg.message));
    };
    this.worker.onerror = (event) => {
      useRecallStatus.setState({
        model: 'failed',
        modelError: event.message || 'the recall worker failed to start',
        corpus: 'failed',
        corpusError: 'the recall worker failed to start',
      });
      for (const w of this.waiting.values()) w.reject(new Error('the recall worker stopped'));
      this.waiting.clear();
    };
  }

  request<T extends RecallRequest['type']>(type: T, payload: Payload<T>): Promise<RecallResults[T]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...payload, type, id });
    });
  }
}

let client: RecallClient | null = null;
let refreshTimer: ReturnType<typeof setInterval> | null = null;

/**
 * Starts the worker (once a tab), loading the chosen model and the corpus; keeps the index fresh while the tab is
 * visible.
 */
export function recall(): RecallClient {
  if (!client) {
    client = new RecallClient();
    void client.request('start', { modelId: chosenModel() });
    refreshTimer ??= setInterval(() => {
      if (document.visibilityState === 'visible') void client?.request('refresh', {}).catch(() => undefined);
    }, 15_000);
  }
  return client;
}

/** Starts recall, or if it runs already, asks it to pick up memory that arrived since (cheap when nothing did). */
export function recallFresh() {
  if (!client) recall();
  else void client.request('refresh', {}).catch(() => undefined);
}

/** Switches model; the choice is remembered in this browser. */
export function chooseModel(modelId: string) {
  try {
    localStorage.setItem(MODEL_CHOICE_KEY, modelId);
  } catch {
    // private mode: the choice lasts for this tab
  }
  void recall().request('start', { modelId });
}
