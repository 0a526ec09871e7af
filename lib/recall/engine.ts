import MiniSearch from 'minisearch';
import { reciprocalRankFusion, type Ranked } from './fuse';
import { contentHash, matchesFilters, type RecallFilters, type RecallItem } from './items';
import { VectorMatrix, dot, topK } from './vectors';

/** Turns texts into unit vectors, `texts.length × dims` row-major. */
export interface Embedder {
  readonly modelId: string;
  readonly dims: number;
  embed(texts: string[]): Promise<Float32Array>;
}

/**
 * Vectors kept across visits, keyed by `${modelId}|${contentHash}`; each key comes with its text, for a store that
 * names a vector by the text itself (the server's, by its SHA-256).
 */
export interface VectorCache {
  getMany(keys: string[], texts: string[]): Promise<(Float32Array | undefined)[]>;
  putMany(entries: [key: string, vector: Float32Array, text: string][]): Promise<void>;
}

export type SearchMode = 'hybrid' | 'keyword' | 'vector';

export interface SearchOptions {
  mode?: SearchMode;
  filters?: RecallFilters;
  limit?: number;
  /**
   * How deep each ranked list (keywords, vectors) goes before they are fused (100). A list paged by `limit` keeps one
   * depth for all its pages: a deeper list adds to the fused score of items far down it, and would reorder the rows
   * a page before showed.
   */
  depth?: number;
  /** Only items this keeps (a reader's own memory on the server), applied before ranking like the filters. */
  only?: (item: RecallItem) => boolean;
}

export interface RecallHit {
  item: RecallItem;
  /** Fused score (RRF); for vector-only searches, the cosine. */
  score: number;
  keywordRank: number | null;
  vectorRank: number | null;
  cosine: number | null;
}

/** Share of query words that look like identifiers (digits, inner punctuation, camelCase): 0–1. */
export function identifierShare(query: string): number {
  const words = query.split(/\s+/).filter(Boolean);
  if (!words.length) return 0;
  return words.filter((w) => /\d|[a-z][A-Z]|\w[-_./:]\w|^--?\w/.test(w)).length / words.length;
}

export interface DuplicateCluster {
  items: RecallItem[];
  /** Lowest cosine between a member and the cluster's first item. */
  minCosine: number;
}

/** Candidates taken from each list before fusion. */
const DEPTH = 100;
/** Below this cosine a static model's neighbour is noise, not meaning; such rows stay out of the fused list. */
export const MIN_COSINE = 0.25;
const EMBED_BATCH = 64;
/** RRF constant and the vector list's weight, tuned on bench/recall/labelled.json (see the quality test). */
const RRF_K = 10;
const VECTOR_WEIGHT = 0.8;

/**
 * The recall index: keyword (BM25 via MiniSearch) and vector (exact cosine) over the same items,
 * fused by reciprocal rank. Pure — the embedder and the cache are handed in — so the browser's worker
 * and the server run the same code.
 */
export class RecallEngine {
  private items: RecallItem[] = [];
  private hashes: string[] = [];
  private index = new Map<string, number>();
  private removed: boolean[] = [];
  private embedded: boolean[] = [];
  private matrix: VectorMatrix | null;
  private keyword = new MiniSearch<{ id: number; text: string; label: string }>({
    fields: ['text', 'label'],
    idField: 'id',
    searchOptions: { boost: { label: 1.5 }, prefix: (t) => t.length > 3, fuzzy: (t) => (t.length > 6 ? 1 : 0) },
  });

  constructor(
    private embedder: Embedder | null,
    private cache: VectorCache | null = null,
  ) {
    this.matrix = embedder ? new VectorMatrix(embedder.dims) : null;
  }

  /** Switches model (or to keyword-only with null): every item needs a vector from the new model. */
  useEmbedder(embedder: Embedder | null, cache: VectorCache | null = this.cache) {
    this.embedder = embedder;
    this.cache = cache;
    this.embedded = this.items.map(() => false);
    this.matrix = embedder ? new VectorMatrix(embedder.dims, Math.max(1024, this.items.length)) : null;
    if (this.matrix) for (let i = 0; i < this.items.length; i++) this.matrix.push(new Float32Array(this.matrix.dims));
  }

  get size(): number {
    return this.index.size;
  }

  get pending(): number {
    let n = 0;
    for (let i = 0; i < this.items.length; i++) if (!this.removed[i] && !this.embedded[i]) n++;
    return n;
  }

  get modelId(): string | null {
    return this.embedder?.modelId ?? null;
  }

  /**
   * Makes the index hold exactly `items`: new ones added, changed ones replaced, missing ones dropped. Returns how many
   * changed.
   */
  sync(items: readonly RecallItem[]): { added: number; removed: number } {
    const incoming = new Set<string>();
    let added = 0;
    let removed = 0;
    for (const item of items) {
      incoming.add(item.id);
      const hash = contentHash(item.text);
      const at = this.index.get(item.id);
      if (at !== undefined) {
        if (this.hashes[at]! === hash) {
          this.items[at] = item; // metadata (href, label) may change without the text changing
          continue;
        }
        this.drop(at);
        removed++;
      }
      this.add(item, hash);
      added++;
    }
    for (const [id, at] of this.index) {
      if (!incoming.has(id)) {
        this.drop(at);
        removed++;
      }
    }
    return { added, removed };
  }

  /** Adds items without dropping others (incremental arrival). */
  upsert(items: readonly RecallItem[]): number {
    let n = 0;
    for (const item of items) {
      const hash = contentHash(item.text);
      const at = this.index.get(item.id);
      if (at !== undefined && this.hashes[at]! === hash) continue;
      if (at !== undefined) this.drop(at);
      this.add(item, hash);
      n++;
    }
    return n;
  }

  private add(item: RecallItem, hash: string) {
    const i = this.items.length;
    this.items.push(item);
    this.hashes.push(hash);
    this.removed.push(false);
    this.embedded.push(false);
    this.index.set(item.id, i);
    this.matrix?.push(new Float32Array(this.matrix.dims));
    this.keyword.add({ id: i, text: item.text, label: item.label ?? '' });
  }

  private drop(i: number) {
    this.removed[i] = true;
    this.index.delete(this.items[i]!.id);
    this.keyword.discard(i);
  }

  /** Embeds every item that has no vector yet, cached vectors first; reports progress after each batch. */
  async embedPending(
    onProgress?: (done: number, total: number, fromCache: number) => void,
    shouldStop?: () => boolean,
  ): Promise<void> {
    const matrix = this.matrix;
    const embedder = this.embedder;
    if (!matrix || !embedder) return;
    const todo: number[] = [];
    for (let i = 0; i < this.items.length; i++) if (!this.removed[i] && !this.embedded[i]) todo.push(i);
    const total = todo.length;
    let done = 0;
    let fromCache = 0;
    const key = (i: number) => `${embedder.modelId}|${this.hashes[i]!}`;
    const setRow = (i: number, v: ArrayLike<number>) => {
      matrix.row(i).set(v);
      this.embedded[i] = true;
    };
    const CHUNK = 2048;
    for (let start = 0; start < todo.length; start += CHUNK) {
      if (shouldStop?.()) return;
      const chunk = todo.slice(start, start + CHUNK);
      let missing = chunk;
      if (this.cache) {
        const cached = await this.cache.getMany(
          chunk.map(key),
          chunk.map((i) => this.items[i]!.text),
        );
        missing = [];
        chunk.forEach((i, j) => {
          const v = cached[j];
          if (v && v.length === embedder.dims) {
            setRow(i, v);
            fromCache++;
          } else missing.push(i);
        });
        done += chunk.length - missing.length;
        onProgress?.(done, total, fromCache);
      }
      for (let b = 0; b < missing.length; b += EMBED_BATCH) {
        if (shouldStop?.()) return;
        const batch = missing.slice(b, b + EMBED_BATCH);
        const vectors = await embedder.embed(batch.map((i) => this.items[i]!.text));
        const fresh: [string, Float32Array, string][] = [];
        batch.forEach((i, j) => {
          const v = vectors.slice(j * embedder.dims, (j + 1) * embedder.dims);
          setRow(i, v);
          fresh.push([key(i), v, this.items[i]!.text]);
        });
        await this.cache?.putMany(fresh);
        done += batch.length;
        onProgress?.(done, total, fromCache);
      }
    }
  }

  get(id: string): RecallItem | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.items[i]!;
  }

  /** Every distinct value of agent, session and scope, for filter menus. */
  facets(): { agents: string[]; sessions: string[]; scopes: string[]; kinds: Record<string, number> } {
    const agents = new Set<string>();
    const sessions = new Set<string>();
    const scopes = new Set<string>();
    const kinds: Record<string, number> = {};
    for (const i of this.index.values()) {
      const it = this.items[i]!;
      if (it.agent) agents.add(it.agent);
      if (it.session) sessions.add(it.session);
      if (it.scope) scopes.add(it.scope);
      kinds[it.kind] = (kinds[it.kind] ?? 0) + 1;
    }
    const sorted = (s: Set<string>) => [...s].sort();
    return { agents: sorted(agents), sessions: sorted(sessions), scopes: sorted(scopes), kinds };
  }

  private live(filters: RecallFilters | undefined, only?: (item: RecallItem) => boolean) {
    return (i: number) =>
      !this.removed[i] && (!filters || matchesFilters(this.items[i]!, filters)) && (!only || only(this.items[i]!));
  }

  keywordRanks(query: string, filters?: RecallFilters, depth = DEPTH): Ranked[] {
    return this.keywordLists(query, filters, depth).any;
  }

  /** BM25 ranks of items matching any query word, and of those matching every word — one search. */
  keywordLists(
    query: string,
    filters?: RecallFilters,
    depth = DEPTH,
    only?: SearchOptions['only'],
  ): { any: Ranked[]; all: Ranked[] } {
    const keep = this.live(filters, only);
    const results = this.keyword.search(query, { filter: (r) => keep(r.id as number) });
    const words = new Set(results.flatMap((r) => r.queryTerms)).size;
    const all: Ranked[] = [];
    for (const r of results) {
      if (all.length >= depth) break;
      if (r.queryTerms.length >= words && words > 1) all.push({ id: String(r.id), score: r.score });
    }
    return { any: results.slice(0, depth).map((r) => ({ id: String(r.id), score: r.score })), all };
  }

  vectorRanks(
    query: ArrayLike<number>,
    filters?: RecallFilters,
    depth = DEPTH,
    exclude?: number,
    only?: SearchOptions['only'],
  ): Ranked[] {
    if (!this.matrix) return [];
    const keep = this.live(filters, only);
    const scores = this.matrix.scoreAll(query, (i) => !!this.embedded[i] && i !== exclude && keep(i));
    return topK(scores, depth, MIN_COSINE).map((i) => ({ id: String(i), score: scores[i]! }));
  }

  async embedQuery(query: string): Promise<Float32Array | null> {
    if (!this.embedder) return null;
    return this.embedder.embed([query]);
  }

  async search(query: string, options: SearchOptions = {}): Promise<RecallHit[]> {
    const q = query.trim();
    if (!q) return [];
    const mode = this.embedder ? (options.mode ?? 'hybrid') : 'keyword';
    const limit = options.limit ?? 50;
    // Items holding every query word are a third list: an exact match outranks one that is merely
    // near in both lists. Identifier-like queries (codes, flags, paths) lean on the words.
    const depth = options.depth ?? DEPTH;
    const { any: kw, all } =
      mode === 'vector' ? { any: [], all: [] } : this.keywordLists(q, options.filters, depth, options.only);
    const qv = mode === 'keyword' ? null : await this.embedQuery(q);
    const vec = qv ? this.vectorRanks(qv, options.filters, depth, undefined, options.only) : [];
    return this.fuse(kw, vec, qv, mode, limit, all, identifierShare(q));
  }

  /** The item of this id, if the index holds it. */
  item(id: string): RecallItem | null {
    const at = this.index.get(id);
    return at === undefined ? null : this.items[at]!;
  }

  /** Items nearest in meaning to one item (its own vector as the query); keyword overlap where there is no model. */
  async moreLikeThis(id: string, options: SearchOptions = {}): Promise<RecallHit[]> {
    const at = this.index.get(id);
    if (at === undefined) return [];
    const limit = options.limit ?? 20;
    if (this.matrix && this.embedded[at]) {
      const qv = this.matrix.row(at);
      return this.fuse([], this.vectorRanks(qv, options.filters, limit, at), qv, 'vector', limit);
    }
    const kw = this.keywordRanks(this.items[at]!.text, options.filters, limit + 1).filter((r) => r.id !== String(at));
    return this.fuse(kw, [], null, 'keyword', limit);
  }

  private fuse(
    kw: Ranked[],
    vec: Ranked[],
    qv: ArrayLike<number> | null,
    mode: SearchMode,
    limit: number,
    all: Ranked[] = [],
    identifiers = 0,
  ): RecallHit[] {
    const fused =
      mode === 'hybrid'
        ? reciprocalRankFusion([kw, vec, all], RRF_K, [1 + identifiers, VECTOR_WEIGHT * (1 - 0.5 * identifiers), 1])
        : mode === 'keyword' && all.length
          ? reciprocalRankFusion([kw, [], all])
          : reciprocalRankFusion([mode === 'keyword' ? kw : vec]).map((f) =>
              mode === 'keyword' ? { ...f, ranks: [f.ranks[0], null] } : { ...f, ranks: [null, f.ranks[0]] },
            );
    return fused.slice(0, limit).map((f) => {
      const i = Number(f.id);
      const cosine = qv && this.matrix && this.embedded[i] ? dot(this.matrix.row(i), qv) : null;
      return {
        item: this.items[i]!,
        score: mode === 'vector' && cosine !== null ? cosine : f.score,
        keywordRank: f.ranks[0] ?? null,
        vectorRank: f.ranks[1] ?? null,
        cosine,
      };
    });
  }

  /**
   * Clusters of near-identical items (cosine ≥ threshold), largest first. Candidate pairs come from
   * random-hyperplane LSH (16 tables of 10 bits: a pair at cosine 0.9 shares a bucket in at least one
   * table with probability > 0.97), then every candidate is checked exactly; identical texts always
   * cluster. Pairs link into groups, and each group is cut into clusters around a first item that every other member
   * is that close to: links alone chain unlike items together (at 0.82, 135 items with the farthest at 0.19).
   */
  duplicates(threshold = 0.9, filters?: RecallFilters, seed = 1): DuplicateCluster[] {
    const keep = this.live(filters);
    const rows: number[] = [];
    // A session is its title: a fork ("X · fork at turn 12") is not a copy of memory.
    for (const i of this.index.values()) if (keep(i) && this.items[i]!.kind !== 'session') rows.push(i);
    const parent = new Map<number, number>(rows.map((i) => [i, i]));
    const find = (x: number): number => {
      let r = x;
      while (parent.get(r)! !== r) r = parent.get(r)!;
      while (parent.get(x)! !== r) {
        const n = parent.get(x)!;
        parent.set(x, r);
        x = n;
      }
      return r;
    };
    const union = (a: number, b: number) => {
      const ra = find(a);
      const rb = find(b);
      if (ra !== rb) parent.set(Math.max(ra, rb), Math.min(ra, rb));
    };
    const byHash = new Map<string, number>();
    for (const i of rows) {
      const prev = byHash.get(this.hashes[i]!);
      if (prev !== undefined) union(prev, i);
      else byHash.set(this.hashes[i]!, i);
    }
    const matrix = this.matrix;
    if (matrix) {
      const vec = rows.filter((i) => this.embedded[i]);
      let s = seed >>> 0 || 1;
      const rand = () => {
        s ^= s << 13;
        s ^= s >>> 17;
        s ^= s << 5;
        return (s >>> 0) / 4294967296 - 0.5;
      };
      const TABLES = 16;
      const BITS = 10;
      for (let t = 0; t < TABLES; t++) {
        const planes = Array.from({ length: BITS }, () => Float32Array.from({ length: matrix.dims }, rand));
        const buckets = new Map<number, number[]>();
        for (const i of vec) {
          const row = matrix.row(i);
          let sig = 0;
          for (let b = 0; b < BITS; b++) if (dot(row, planes[b]!) > 0) sig |= 1 << b;
          const list = buckets.get(sig);
          if (list) list.push(i);
          else buckets.set(sig, [i]);
        }
        for (const list of buckets.values()) {
          for (let a = 0; a < list.length; a++) {
            const ia = list[a]!;
            const ra = matrix.row(ia);
            for (let b = a + 1; b < list.length; b++) {
              const ib = list[b]!;
              if (find(ia) === find(ib)) continue;
              if (dot(ra, matrix.row(ib)) >= threshold) union(ia, ib);
            }
          }
        }
      }
    }
    const groups = new Map<number, number[]>();
    for (const i of rows) {
      const r = find(i);
      const g = groups.get(r);
      if (g) g.push(i);
      else groups.set(r, [i]);
    }
    const near = (a: number, b: number) =>
      this.hashes[a] === this.hashes[b] ||
      (!!matrix && !!this.embedded[a] && !!this.embedded[b] && dot(matrix.row(a), matrix.row(b)) >= threshold);
    const clusters: number[][] = [];
    for (let left of groups.values()) {
      while (left.length > 1) {
        const [first, ...rest] = left;
        const members = [first!];
        left = [];
        for (const i of rest) (near(first!, i) ? members : left).push(i);
        if (members.length > 1) clusters.push(members);
      }
    }
    return clusters
      .map((g) => {
        const first = g[0]!;
        let minCosine = 1;
        if (matrix)
          for (const i of g.slice(1))
            if (this.embedded[i] && this.embedded[first])
              minCosine = Math.min(minCosine, dot(matrix.row(first), matrix.row(i)));
        return { items: g.map((i) => this.items[i]!), minCosine };
      })
      .sort((a, b) => b.items.length - a.items.length || a.minCosine - b.minCosine);
  }
}
