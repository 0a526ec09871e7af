import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
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

/**
 * The model's name with a fingerprint of what makes its vectors (the weights, the tokenizer, the dtype and pooling
 * used here): vectors stored by one build (`text_vectors`) are never read by a build whose model differs.
 */
function fingerprint(dir: string): string {
  const h = createHash('sha256').update('q8|mean|normalize');
  for (const file of ['onnx/model_quantized.onnx', 'tokenizer.json']) h.update(readFileSync(path.join(dir, file)));
  return `${MODEL_ID}@${h.digest('hex').slice(0, 16)}`;
}

const MODELS = () => path.join(process.cwd(), 'public', 'models');
let modelId: string | null = null;

/** The server model's id (its fingerprint), without loading the model: the hourly vector sweep needs only that. */
export function serverModelId(): string {
  return (modelId ??= fingerprint(path.join(MODELS(), MODEL_ID)));
}

async function load(): Promise<Embedder> {
  const { pipeline, env } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = MODELS() + path.sep;
  const extract = await pipeline('feature-extraction', MODEL_ID, { dtype: 'q8' });
  return {
    modelId: serverModelId(),
    dims: MODEL_DIMS,
    async embed(texts: string[]) {
      if (!texts.length) return new Float32Array(0);
      const out = await extract(texts, { pooling: 'mean', normalize: true });
      return out.data as Float32Array;
    },
  };
}
