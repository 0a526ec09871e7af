/** The browser side of bench/recall.ts: the real engine and the real model loading code's settings, on the page. */
import { env, pipeline } from '@huggingface/transformers';
import { RecallEngine, type Embedder } from '@/lib/recall/engine';
import type { RecallItem } from '@/lib/recall/items';
import { MODEL_DIMS, MODEL_ID, modelChoice, modelSource } from '@/lib/recall/model';

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function embedder(): Promise<Embedder> {
  Object.assign(env, modelSource(modelChoice(MODEL_ID), location.origin, env));
  const onnx = env.backends.onnx as { wasm?: { wasmPaths?: unknown; numThreads?: number } };
  onnx.wasm!.wasmPaths = {
    mjs: '/ort/ort-wasm-simd-threaded.asyncify.mjs',
    wasm: '/ort/ort-wasm-simd-threaded.asyncify.wasm',
  };
  onnx.wasm!.numThreads = 1;
  const extract = await pipeline('feature-extraction', MODEL_ID, { dtype: 'q8', device: 'wasm' });
  return {
    modelId: MODEL_ID,
    dims: MODEL_DIMS,
    embed: async (texts) => (await extract(texts, { pooling: 'mean', normalize: true })).data as Float32Array,
  };
}

const WORDS = [
  'nginx upstream timeout postgres lock migration redis cache kubernetes pod memory limit user prefers',
  'metric units manager escalation terraform plan certificate renewal flaky test pipeline docker',
  'rollback helm consent token phishing email glucose conversion patient record index latency vacuum',
  'dns vpn rate limit retry disk full segfault webhook idempotent deadlock refund kafka lag dashboard',
  'vault secret safari crash websocket leak warehouse snowflake vegetarian meeting design garbage',
  'collector runbook android backup restore stripe signature gpu batch translation cors billing cron',
  'health check poisoned memory ticket laptop feature flag',
]
  .join(' ')
  .split(' ');

(window as unknown as { runBench: unknown }).runBench = async (sizes: number[], queries: string[]) => {
  const e = await embedder();
  await e.embed(['warm up']);
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const text = () =>
    Array.from({ length: 8 + Math.floor(rand() * 16) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  const out = [];
  for (const n of sizes) {
    const items: RecallItem[] = Array.from({ length: n }, (_, i) => ({
      id: `i${i}`,
      kind: 'memory_entry',
      text: text(),
      label: null,
      agent: `a${i % 7}`,
      session: null,
      scope: 'project',
      ts: null,
      href: '/',
    }));
    const engine = new RecallEngine(e);
    const t0 = performance.now();
    engine.sync(items);
    const tKeyword = performance.now() - t0;
    await engine.embedPending();
    const build = performance.now() - t0;
    const time = async (mode: 'hybrid' | 'keyword' | 'vector') => {
      const ts: number[] = [];
      for (const q of queries) {
        const s = performance.now();
        await engine.search(q, { mode, limit: 20 });
        ts.push(performance.now() - s);
      }
      return { p50: pct(ts, 50), p95: pct(ts, 95) };
    };
    out.push({
      n,
      keywordIndexMs: tKeyword,
      buildMs: build,
      itemsPerSecond: (n / build) * 1000,
      hybrid: await time('hybrid'),
      keyword: await time('keyword'),
      vector: await time('vector'),
    });
  }
  return out;
};
