import type { DuplicateCluster, RecallHit, SearchOptions } from './engine';
import type { RecallFilters, RecallItem } from './items';

/**
 * The recall worker's message protocol: every request carries an id, answered once by a result or an error; status is
 * pushed.
 */
export type Phase = 'idle' | 'loading' | 'ready' | 'failed';

export interface RecallStatus {
  modelId: string;
  model: Phase;
  /** Model download, 0–1. */
  modelProgress: number;
  modelError: string | null;
  device: 'webgpu' | 'wasm' | null;
  corpus: Phase;
  corpusError: string | null;
  /** Items in the index (keyword search works on all of them at once). */
  items: number;
  /** Vectors ready / needed in the current build; fromCache of them came from IndexedDB. */
  embedded: number;
  toEmbed: number;
  fromCache: number;
}

export const INITIAL_STATUS: RecallStatus = {
  modelId: '',
  model: 'idle',
  modelProgress: 0,
  modelError: null,
  device: null,
  corpus: 'idle',
  corpusError: null,
  items: 0,
  embedded: 0,
  toEmbed: 0,
  fromCache: 0,
};

export interface Facets {
  agents: string[];
  sessions: string[];
  scopes: string[];
  kinds: Record<string, number>;
}

export type RecallRequest =
  | { type: 'start'; id: number; modelId: string }
  | { type: 'refresh'; id: number }
  | { type: 'search'; id: number; query: string; options: SearchOptions }
  | { type: 'more'; id: number; itemId: string; options: SearchOptions }
  | { type: 'duplicates'; id: number; threshold: number; filters: RecallFilters }
  | { type: 'facets'; id: number };

export interface RecallResults {
  start: RecallStatus;
  refresh: RecallStatus;
  search: { hits: RecallHit[]; mode: 'hybrid' | 'keyword' | 'vector'; ms: number };
  /** `item` is the one asked about, null when memory does not hold it (a link to an item since deleted). */
  more: { hits: RecallHit[]; item: RecallItem | null; ms: number };
  duplicates: { clusters: DuplicateCluster[]; ms: number };
  facets: Facets;
}

export type RecallResponse =
  | { type: 'status'; status: RecallStatus }
  | { type: 'result'; id: number; result: unknown }
  | { type: 'error'; id: number; message: string };
