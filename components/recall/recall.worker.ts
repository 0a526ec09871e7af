/// <reference lib="webworker" />
/**
 * The recall worker: one per tab. It holds the embedding model (transformers.js, WebGPU where the
 * browser has it, WASM otherwise), the index (keyword + vectors), and fetches the corpus itself, so
 * neither embedding nor scoring nor the corpus's JSON ever touches the page's main thread.
 */
import { createTRPCClient, httpLink } from '@trpc/client';
import superjson from 'superjson';
import { RecallEngine, type Embedder, type VectorCache } from '@/lib/recall/engine';
import { modelChoice, modelSource, type HubSettings } from '@/lib/recall/model';
import { INITIAL_STATUS, type RecallRequest, type RecallResponse, type RecallStatus } from '@/lib/recall/protocol';
import type { AppRouter } from '@/server/routers/app';
import { openVectorCache } from './vector-cache';

declare const self: DedicatedWorkerGlobalScope;

const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: '/api/trpc', transformer: superjson })] });
const engine = new RecallEngine(null);
let status: RecallStatus = { ...INITIAL_STATUS };
let version: string | null = null;
let cache: VectorCache | null = null;
let generation = 0;
let started: Promise<void> | null = null;

function post(message: RecallResponse) {
  self.postMessage(message);
}

function setStatus(patch: Partial<RecallStatus>) {
  status = { ...status, ...patch };
  post({ type: 'status', status });
}

let hub: HubSettings | null = null;

async function loadModel(modelId: string): Promise<Embedder> {
  const choice = modelChoice(modelId);
  const { env, pipeline } = await import('@huggingface/transformers');
  // transformers.js's own hub settings, read once before this worker first changes them.
  hub ??= { remoteHost: env.remoteHost, remotePathTemplate: env.remotePathTemplate };
  Object.assign(env, modelSource(choice, self.location.origin, hub));
  const onnx = env.backends.onnx as { wasm?: { wasmPaths?: unknown; numThreads?: number } };
  if (onnx.wasm) {
    onnx.wasm.wasmPaths = {
      mjs: '/ort/ort-wasm-simd-threaded.asyncify.mjs',
      wasm: '/ort/ort-wasm-simd-threaded.asyncify.wasm',
    };
    onnx.wasm.numThreads = 1;
  }
  // The pipeline's own total over every file it expects (their sizes asked before any download starts): summing the
  // files seen so far went back each time a new file began. Never shown lower than before (a second device's try
  // starts its count again).
  let shown = 0;
  const progress_callback = (p: { status: string; loaded?: number; total?: number }) => {
    if (p.status !== 'progress_total' || !p.total) return;
    const next = Math.min(1, (p.loaded ?? 0) / p.total);
    if (next <= shown) return;
    shown = next;
    setStatus({ modelProgress: next });
  };
  const devices: ('webgpu' | 'wasm')[] = (await hasWebGpu()) ? ['webgpu', 'wasm'] : ['wasm'];
  let lastError: unknown = null;
  for (const device of devices) {
    try {
      const extract = await pipeline('feature-extraction', choice.id, { dtype: 'q8', device, progress_callback });
      setStatus({ device });
      return {
        modelId: choice.id,
        dims: choice.dims,
        async embed(texts: string[]) {
          const out = await extract(texts, { pooling: 'mean', normalize: true });
          return out.data as Float32Array;
        },
      };
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

/** WebGPU only when the browser has an adapter to give (headless and blocklisted GPUs have none). */
async function hasWebGpu(): Promise<boolean> {
  const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
  if (!gpu) return false;
  try {
    return (await gpu.requestAdapter()) !== null;
  } catch {
    return false;
  }
}

/** Fetches the whole corpus (paged) and makes the index hold exactly it; then embeds what is new. */
async function syncCorpus(force: boolean) {
  const v = await trpc.recall.version.query();
  if (!force && v === version && status.corpus === 'ready') return;
  setStatus({ corpus: 'loading', corpusError: null });
  const all = [];
  let cursor: Parameters<typeof trpc.recall.corpus.query>[0]['cursor'] = null;
  for (;;) {
    const page = await trpc.recall.corpus.query({ cursor, limit: 5000 });
    all.push(...page.items);
    if (version === null) {
      engine.upsert(page.items); // first build: keyword search works as pages arrive
      setStatus({ items: engine.size });
    }
    if (!page.next) break;
    cursor = page.next;
  }
  engine.sync(all);
  version = v;
  setStatus({ corpus: 'ready', items: engine.size });
  await embed();
}

async function embed() {
  const gen = generation;
  const pending = engine.pending;
  if (!pending) return setStatus({ embedded: status.toEmbed, toEmbed: status.toEmbed });
  setStatus({ embedded: 0, toEmbed: pending, fromCache: 0 });
  let last = 0;
  await engine.embedPending(
    (done, total, fromCache) => {
      const now = performance.now();
      if (now - last > 100 || done === total) {
        last = now;
        setStatus({ embedded: done, toEmbed: total, fromCache });
      }
    },
    () => gen !== generation,
  );
}

async function start(modelId: string) {
  const gen = ++generation;
  setStatus({ modelId, model: 'loading', modelProgress: 0, modelError: null, device: null });
  const corpus = syncCorpus(true).catch((error: unknown) =>
    setStatus({ corpus: 'failed', corpusError: message(error) }),
  );
  try {
    cache ??= await openVectorCache();
    const embedder = await loadModel(modelId);
    await embedder.embed(['warm up']);
    if (gen !== generation) return; // the user switched model meanwhile: the newer start wins
    engine.useEmbedder(embedder, cache);
    setStatus({ model: 'ready', modelProgress: 1 });
  } catch (error) {
    if (gen !== generation) return;
    engine.useEmbedder(null);
    setStatus({ model: 'failed', modelError: message(error) });
  }
  await corpus;
  if (status.corpus === 'ready') await embed();
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function handle(req: RecallRequest): Promise<unknown> {
  switch (req.type) {
    case 'start':
      // Answers at once; progress arrives as status messages.
      if (!started || req.modelId !== status.modelId) started = start(req.modelId);
      return status;
    case 'refresh':
      if (status.corpus === 'ready' || status.corpus === 'failed') await syncCorpus(false);
      return status;
    case 'search': {
      const t0 = performance.now();
      const hits = await engine.search(req.query, req.options);
      const mode = engine.modelId ? (req.options.mode ?? 'hybrid') : 'keyword';
      return { hits, mode, ms: performance.now() - t0 };
    }
    case 'more': {
      const t0 = performance.now();
      const hits = await engine.moreLikeThis(req.itemId, req.options);
      return { hits, item: engine.item(req.itemId), ms: performance.now() - t0 };
    }
    case 'duplicates': {
      const t0 = performance.now();
      return { clusters: engine.duplicates(req.threshold, req.filters), ms: performance.now() - t0 };
    }
    case 'facets':
      return engine.facets();
  }
}

self.onmessage = (event: MessageEvent<RecallRequest>) => {
  const req = event.data;
  handle(req).then(
    (result) => post({ type: 'result', id: req.id, result }),
    (error: unknown) => post({ type: 'error', id: req.id, message: message(error) }),
  );
};
