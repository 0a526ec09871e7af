import { buildKnnGraph } from '@/server/model/onnx';

/**
 * Exact nearest neighbours of many queries at once on onnxruntime-node (see buildKnnGraph): one
 * native matrix product and top-k for a whole ingest batch.
 */
type Session = { run(feeds: Record<string, unknown>): Promise<Record<string, { data: Float32Array | BigInt64Array }>> };
let session: Promise<{
  session: Session;
  Tensor: new (type: string, data: unknown, dims: number[]) => unknown;
}> | null = null;

function load() {
  session ??= (async () => {
    const ort = await import('onnxruntime-node');
    const s = await ort.InferenceSession.create(buildKnnGraph(), { intraOpNumThreads: 2 });
    return {
      session: s as unknown as Session,
      Tensor: ort.Tensor as unknown as new (type: string, data: unknown, dims: number[]) => unknown,
    };
  })().catch((error: unknown) => {
    session = null;
    throw error;
  });
  return session;
}

export interface Neighbours {
  /** For each query, up to k rows of `entries` with their cosines, best first. */
  rows: number[][];
  cosines: number[][];
}

export async function knn(queries: Float32Array, entries: Float32Array, dims: number, k: number): Promise<Neighbours> {
  const m = queries.length / dims;
  const n = entries.length / dims;
  const kk = Math.min(k, n);
  if (!m || !kk) return { rows: Array.from({ length: m }, () => []), cosines: Array.from({ length: m }, () => []) };
  const { session: s, Tensor } = await load();
  const out = await s.run({
    queries: new Tensor('float32', queries, [m, dims]),
    entries: new Tensor('float32', entries, [n, dims]),
    k: new Tensor('int64', BigInt64Array.from([BigInt(kk)]), [1]),
  });
  const values = out.values!.data as Float32Array;
  const indices = out.indices!.data as BigInt64Array;
  const rows: number[][] = [];
  const cosines: number[][] = [];
  for (let q = 0; q < m; q++) {
    rows.push(Array.from(indices.subarray(q * kk, (q + 1) * kk), Number));
    cosines.push(Array.from(values.subarray(q * kk, (q + 1) * kk)));
  }
  return { rows, cosines };
}
