import path from 'node:path';
import type { Embedder } from '@/lib/recall/engine';
import { MODEL_DIMS, MODEL_ID } from '@/lib/recall/model';

/**
 * The bundled embedding model on the server, through the same transformers.js `feature-extraction`
 * pipeline the browser's worker runs (onnxruntime-node here, onnxruntime-web there). Loaded once.
 */
let loading: Promise<Embedder> | null = null;

export function serverEmbedder(): Promise<Embedder> {
  loading ??= load().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

async function load(): Promise<Embedder> {
  const { pipeline, env } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = path.join(process.cwd(), 'public', 'models') + path.sep;
  const extract = await pipeline('feature-extraction', MODEL_ID, { dtype: 'q8' });
  return {
    modelId: MODEL_ID,
    dims: MODEL_DIMS,
    async embed(texts: string[]) {
      if (!texts.length) return new Float32Array(0);
      const out = await extract(texts, { pooling: 'mean', normalize: true });
      return out.data as Float32Array;
    },
  };
}
