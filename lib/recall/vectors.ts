/**
 * A flat matrix of unit vectors, one row an item, scored by dot product (= cosine). Exhaustive
 * search is exact and, at 256 dimensions, ~10 ms for 100,000 rows — no approximate index needed at
 * the sizes one machine's memory reaches.
 */
export class VectorMatrix {
  private data: Float32Array;
  private rows = 0;

  constructor(
    readonly dims: number,
    capacity = 1024,
  ) {
    this.data = new Float32Array(dims * capacity);
  }

  get size(): number {
    return this.rows;
  }

  /** Appends a row (copied) and returns its index. */
  push(vector: ArrayLike<number>): number {
    if (vector.length !== this.dims) throw new Error(`vector has ${vector.length} dimensions, the index ${this.dims}`);
    if ((this.rows + 1) * this.dims > this.data.length) {
      const grown = new Float32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data.set(vector, this.rows * this.dims);
    return this.rows++;
  }

  /** Rows [from, to) as one contiguous view (no copy). */
  slice(from: number, to: number): Float32Array {
    return this.data.subarray(from * this.dims, to * this.dims);
  }

  row(i: number): Float32Array {
    return this.data.subarray(i * this.dims, (i + 1) * this.dims);
  }

  /** Scores every row against `query`; rows for which `keep` is false get -Infinity. */
  scoreAll(query: ArrayLike<number>, keep?: (row: number) => boolean): Float32Array {
    const d = this.dims;
    const out = new Float32Array(this.rows);
    const data = this.data;
    for (let r = 0; r < this.rows; r++) {
      if (keep && !keep(r)) {
        out[r] = -Infinity;
        continue;
      }
      let s = 0;
      const base = r * d;
      for (let k = 0; k < d; k++) s += data[base + k]! * query[k]!;
      out[r] = s;
    }
    return out;
  }
}

/** Indices of the `k` largest scores (descending), skipping -Infinity; a partial selection, not a full sort. */
export function topK(scores: Float32Array, k: number, min = -Infinity): number[] {
  const heap: number[] = []; // min-heap of indices by score
  const less = (a: number, b: number) => scores[a]! < scores[b]!;
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(heap[i]!, heap[p]!)) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    if (s === -Infinity || s < min) continue;
    if (heap.length < k) {
      heap.push(i);
      up(heap.length - 1);
    } else if (s > scores[heap[0]!]!) {
      heap[0] = i;
      down(0);
    }
  }
  return heap.sort((a, b) => scores[b]! - scores[a]! || a - b);
}

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
