/**
 * Recall benchmark in headless Chromium, on the bundled model through transformers.js (WASM):
 * index build throughput (keyword index + every item embedded) and query latency (embed + score +
 * fuse) over 10,000 and 100,000 items, with keyword-only (BM25) queries as the baseline of the same
 * run; then retrieval quality (recall@5, MRR) of hybrid vs keyword-only vs vector-only on the
 * labelled set (bench/recall/labelled.json) among the demo corpus, in Node with the same engine.
 *
 *   npm run bench:recall           (RECALL_SIZES=10000 for the quick run)
 */
import './quiet';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import { launch } from '../e2e/browser';
import { RecallEngine } from '@/lib/recall/engine';
import type { RecallItem } from '@/lib/recall/items';
import { evaluate, type LabelledQuery } from '@/lib/recall/quality';
import { openDb, migrateDb } from '@/server/db';
import { ensureProject } from '@/server/services/projects';
import { seedDemo } from '@/server/demo/seed';
import { serverEmbedder } from '@/server/services/embeddings';
import { corpusPage } from '@/server/services/recall';

const root = path.resolve(import.meta.dirname, '..');
const labelled = JSON.parse(readFileSync(path.join(root, 'bench/recall/labelled.json'), 'utf8')) as {
  memories: { id: string; text: string }[];
  queries: LabelledQuery[];
};
const sizes = (process.env.RECALL_SIZES ?? '10000,100000').split(',').map(Number);

async function browserBench() {
  const bundle = await build({
    entryPoints: [path.join(root, 'bench/recall-page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    alias: { '@': root },
    logLevel: 'silent',
  });
  const js = bundle.outputFiles[0]!.text;
  const server = createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (url === '/')
      return res.end('<!doctype html><html><body><script type="module" src="/bench.js"></script></body></html>');
    if (url === '/bench.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
    const file = url.startsWith('/models/')
      ? path.join(root, 'public', url)
      : url.startsWith('/ort/')
        ? path.join(root, 'node_modules/onnxruntime-web/dist', path.basename(url))
        : null;
    if (!file || !existsSync(file) || !statSync(file).isFile()) return res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': file.endsWith('.wasm')
        ? 'application/wasm'
        : file.endsWith('.mjs')
          ? 'text/javascript'
          : 'application/octet-stream',
      'content-length': statSync(file).size,
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => 'runBench' in window);
    return await page.evaluate(
      ([s, q]) => (window as unknown as { runBench: (s: number[], q: string[]) => Promise<unknown[]> }).runBench(s, q),
      [sizes, labelled.queries.map((x) => x.q)] as const,
    );
  } finally {
    await browser.close();
    server.close();
  }
}

async function quality() {
  const h = await openDb({ dataDir: 'memory' });
  await migrateDb(h);
  await ensureProject(h.db, 'default');
  await seedDemo(h.db, 'default');
  const engine = new RecallEngine(await serverEmbedder());
  const items: RecallItem[] = labelled.memories.map((m) => ({
    id: m.id,
    kind: 'memory_entry',
    text: m.text,
    label: null,
    agent: null,
    session: null,
    scope: 'project',
    ts: null,
    href: '/',
  }));
  let cursor = null;
  do {
    const page = await corpusPage(h.db, 'default', cursor);
    items.push(...page.items);
    cursor = page.next;
  } while (cursor);
  engine.sync(items);
  await engine.embedPending();
  const out = [];
  for (const mode of ['hybrid', 'keyword', 'vector'] as const) out.push(await evaluate(engine, labelled.queries, mode));
  await h.close();
  return { corpus: items.length, out };
}

async function main() {
  const f = (x: number) => x.toFixed(1);
  const rows = (await browserBench()) as {
    n: number;
    keywordIndexMs: number;
    buildMs: number;
    itemsPerSecond: number;
    hybrid: { p50: number; p95: number };
    keyword: { p50: number; p95: number };
    vector: { p50: number; p95: number };
  }[];
  console.log('\nRecall in headless Chromium (bundled model, WASM, 1 thread)');
  console.log(
    'items     build s  items/s  hybrid p50/p95 ms  keyword p50/p95 ms  vector p50/p95 ms  hybrid/keyword p50',
  );
  for (const r of rows)
    console.log(
      `${String(r.n).padEnd(9)} ${f(r.buildMs / 1000).padStart(7)}  ` +
        `${Math.round(r.itemsPerSecond).toString().padStart(7)}  ` +
        `${`${f(r.hybrid.p50)} / ${f(r.hybrid.p95)}`.padStart(17)}  ` +
        `${`${f(r.keyword.p50)} / ${f(r.keyword.p95)}`.padStart(18)}  ` +
        `${`${f(r.vector.p50)} / ${f(r.vector.p95)}`.padStart(17)}  ` +
        `${(r.hybrid.p50 / r.keyword.p50).toFixed(2)}×`,
    );
  const target = rows.find((r) => r.n === 10000);
  if (target)
    console.log(
      `target ≤ 20 ms a query at 10,000 items: p95 ${f(target.hybrid.p95)} ms — ` +
        `${target.hybrid.p95 <= 20 ? 'met' : 'NOT met'}`,
    );
  const q = await quality();
  console.log(
    `\nRetrieval quality: ${labelled.queries.length} labelled queries among ${q.corpus} items (labelled memories ` +
      `+ demo corpus)`,
  );
  for (const m of q.out) console.log(`${m.mode.padEnd(8)} recall@5 ${m.recallAt5.toFixed(3)}  MRR ${m.mrr.toFixed(3)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
