import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dot } from '@/lib/recall/vectors';
import { MODEL_DIMS, MODEL_ID } from '@/lib/recall/model';
import { serverEmbedder } from '@/server/services/embeddings';
import { sha256 } from '@/server/build/model';

const dir = path.join(process.cwd(), 'public', 'models', MODEL_ID);

describe('the bundled embedding model', () => {
  it('is the model that was built: every file matches its recorded checksum', () => {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
      files: Record<string, string>;
      dims: number;
    };
    expect(manifest.dims).toBe(MODEL_DIMS);
    for (const [file, hash] of Object.entries(manifest.files)) expect(sha256(path.join(dir, file)), file).toBe(hash);
  });

  it('runs through transformers.js feature-extraction and puts meaning before words', async () => {
    const e = await serverEmbedder();
    const v = await e.embed(['restart nginx', 'reload the web server', 'patient triage', 'Upstreams keep timing out']);
    const row = (i: number) => v.subarray(i * MODEL_DIMS, (i + 1) * MODEL_DIMS);
    expect(v).toHaveLength(4 * MODEL_DIMS);
    expect(dot(row(0), row(0))).toBeCloseTo(1, 4);
    expect(dot(row(0), row(1))).toBeGreaterThan(0.4);
    expect(dot(row(0), row(2))).toBeLessThan(0.15);
    // An unknown word embeds as its longest known prefix ("nginxes" → "nginx" + "##e" + "##s").
    const [a, b] = [await e.embed(['nginxes']), await e.embed(['nginx'])];
    expect(dot(a, b)).toBeGreaterThan(0.99);
  });
});
