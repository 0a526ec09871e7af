/**
 * mnemoscope — the command line: import real files into a running server over the ingest API,
 * and export sessions or an agent's substrate in the format the importer takes.
 *
 *   npx mnemoscope import <path...> [--url URL] [--agent NAME] [--batch N]   (OTLP/JSON trace files too)
 *   npx mnemoscope export <session-id> [--out FILE] [--url URL]
 *   npx mnemoscope export-ucs <agent> [--out FILE] [--url URL]
 *   npx mnemoscope export-project --out FILE [--url URL]
 *   npx mnemoscope import-project <file> [--url URL]
 *
 * (the package's bin, server/cli/bin.mjs; `npm run mnemoscope -- …` also works). The key comes from
 * MNEMOSCOPE_API_KEY; `--key` is accepted with a warning, since a command line is visible to other processes.
 */
import { createReadStream, createWriteStream, statSync, writeFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { convertFiles, type ConvertedFile } from '@/lib/import/files';
import { batchEnvelopes } from '@/lib/import/batches';
import { locateRecord } from '@/lib/import/tally';
import { otlpRequests } from '@/lib/otel/file';
import type { Envelope, IngestResult } from '@/lib/ingest/contract';
import { toNdjson } from '@/lib/ingest/ndjson';
import { readTree } from '@/server/fs/read-tree';

const USAGE = `usage (the API key from MNEMOSCOPE_API_KEY):
  npx mnemoscope import <path...> [--url URL] [--agent NAME] [--batch N] [--supersede]
  npx mnemoscope export <session-id> [--out FILE] [--url URL]
  npx mnemoscope export-ucs <agent> [--out FILE] [--url URL]
  npx mnemoscope export-project --out FILE [--url URL]
  npx mnemoscope import-project <file> [--url URL]

  export-project writes the key's whole project (sessions, memory with history, curation records,
  UCS data) to one .ndjson.gz file; import-project loads such a file into the key's project on
  another instance, which must be empty. Together they move a project, e.g. from the embedded
  database to PostgreSQL (README: "Moving to PostgreSQL").

  --url    server address (default $MNEMOSCOPE_URL or http://127.0.0.1:3000)
  --key    API key instead of $MNEMOSCOPE_API_KEY (discouraged: other processes can read a command line)
  --agent  the agent UCS files belong to, when they do not name it
  --batch  records per request (default 500)
  --supersede  a record whose id holds another version replaces it (the old one is kept in its history);
           without it such a record is reported in conflict and the stored version kept`;

class CliError extends Error {}

function options(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string', default: process.env.MNEMOSCOPE_URL ?? 'http://127.0.0.1:3000' },
      key: { type: 'string', default: process.env.MNEMOSCOPE_API_KEY },
      agent: { type: 'string' },
      out: { type: 'string' },
      batch: { type: 'string', default: '500' },
      supersede: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (argv.some((a) => a === '--key' || a.startsWith('--key=')))
    console.error(
      'mnemoscope: warning: --key puts the API key on the command line, where other processes and shell history can ' +
        'read it; set MNEMOSCOPE_API_KEY instead',
    );
  const batch = Number(values.batch);
  if (!Number.isInteger(batch) || batch < 1)
    throw new CliError(`--batch must be a positive integer, got ${values.batch}`);
  return { ...values, batch, url: values.url.replace(/\/+$/, ''), positionals };
}

async function request(url: string, key: string | undefined, init: RequestInit = {}): Promise<Response> {
  if (!key) throw new CliError('no API key: set MNEMOSCOPE_API_KEY (keys are created in Settings)');
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers: { ...init.headers, authorization: `Bearer ${key}` } });
  } catch (e) {
    throw new CliError(
      `cannot reach ${url}: ${(e as Error & { cause?: Error }).cause?.message ?? (e as Error).message} ` +
        `(is ` +
        `the ` +
        `server running? npm start)`,
    );
  }
  if (res.status === 401 || res.status === 400 || res.status === 413 || res.status === 404) {
    const body = (await res.json().catch(() => ({}))) as { error?: string };
    throw new CliError(`${res.status} from ${url}: ${body.error ?? res.statusText}`);
  }
  if (!res.ok && res.status !== 207) throw new CliError(`${res.status} from ${url}: ${await res.text()}`);
  return res;
}

async function importPaths(o: ReturnType<typeof options>): Promise<number> {
  if (!o.positionals.length) throw new CliError('import needs at least one path');
  const files = o.positionals.flatMap((p) => {
    try {
      return readTree(p).map((f) => ({ ...f, path: o.positionals.length > 1 || f.path !== p ? f.path : p }));
    } catch (e) {
      throw new CliError(`cannot read ${p}: ${(e as Error).message}`);
    }
  });
  // OTLP/JSON trace exports (a collector's file exporter) go in as an exporter sends them; the rest are converted.
  const traces = files.flatMap((f) => {
    const requests = otlpRequests(f.text);
    return requests ? [{ path: f.path, requests }] : [];
  });
  let failed = false;
  for (const t of traces) failed = (await importTraces(o, t.path, t.requests)) || failed;
  if (traces.length === files.length) return failed ? 1 : 0;
  const plan = convertFiles(
    files.filter((f) => !traces.some((t) => t.path === f.path)),
    { agent: o.agent },
  );
  for (const e of plan.errors) console.error(`✗ ${e.path}: ${e.message}`);
  for (const s of plan.skipped) console.error(`- ${s.path}: skipped (${s.reason})`);

  // Remember which file each envelope came from, to report per file.
  const owner: ConvertedFile[] = [];
  const envelopes: Envelope[] = [];
  for (const f of plan.files)
    for (const e of f.envelopes) {
      owner.push(f);
      envelopes.push(e);
    }

  const bar = new cliProgress.SingleBar(
    {
      format: 'importing [{bar}] {percentage}% | {value}/{total} records | {rate} rec/s',
      stream: process.stderr,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const t0 = performance.now();
  if (process.stderr.isTTY) bar.start(envelopes.length, 0, { rate: 0 });
  type Counts = Record<IngestResult['status'], number> & { kind: string };
  const perFile = new Map<string, Counts>();
  // Each record named as the import page names it: its file, its place there (from 1) and its id.
  type Named<S> = { where: string; result: IngestResult & { status: S } };
  const rejected: Named<'rejected'>[] = [];
  const conflicts: Named<'conflict'>[] = [];
  // Stored, with a field that looks like a slip for a known one.
  const warned: string[] = [];
  let offset = 0;
  for (const batch of batchEnvelopes(envelopes, o.batch)) {
    const res = await request(`${o.url}/api/v1/ingest${o.supersede ? '?supersede=true' : ''}`, o.key, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: toNdjson(batch),
    });
    const body = (await res.json()) as { results: IngestResult[] };
    for (const r of body.results) {
      const f = owner[offset + r.index]!;
      const s = perFile.get(f.path) ?? {
        kind: f.kind,
        accepted: 0,
        duplicate: 0,
        rejected: 0,
        conflict: 0,
        superseded: 0,
      };
      s[r.status]++;
      perFile.set(f.path, s);
      // Placed in its file only when it is to be named (a walk over the files).
      const where = () =>
        `${f.path}, record ${locateRecord(plan.files, offset + r.index)?.record}${r.id ? ` (${r.id})` : ''}`;
      if (r.status === 'rejected') rejected.push({ where: where(), result: r });
      if (r.status === 'conflict') conflicts.push({ where: where(), result: r });
      if ('warnings' in r && r.warnings) for (const w of r.warnings) warned.push(`${where()}: ${w.path} ${w.message}`);
    }
    offset += batch.length;
    if (process.stderr.isTTY) bar.update(offset, { rate: Math.round(offset / ((performance.now() - t0) / 1000)) });
  }
  if (process.stderr.isTTY) bar.stop();

  const changed = (s: Pick<Counts, 'conflict' | 'superseded'>) =>
    (s.conflict ? `, ${s.conflict} in conflict (kept as stored)` : '') +
    (s.superseded ? `, ${s.superseded} superseded` : '');
  for (const [path, s] of perFile)
    console.log(
      `${s.rejected || s.conflict ? '✗' : '✓'} ${path} (${s.kind}): ${s.accepted} accepted, ${s.duplicate} already ` +
        `stored, ${s.rejected} rejected${changed(s)}`,
    );
  for (const { where, result } of conflicts.slice(0, 50)) console.error(`  ${where}: ${result.message}`);
  for (const line of warned.slice(0, 20)) console.error(`  warning: ${line}`);
  if (warned.length > 20) console.error(`  and ${warned.length - 20} more warnings`);
  for (const { where, result } of rejected.slice(0, 50))
    console.error(`  ${where}: ${result.errors.map((e) => `${e.path || 'record'}: ${e.message}`).join('; ')}`);
  const total = [...perFile.values()].reduce(
    (a, s) => ({
      accepted: a.accepted + s.accepted,
      duplicate: a.duplicate + s.duplicate,
      conflict: a.conflict + s.conflict,
      superseded: a.superseded + s.superseded,
    }),
    { accepted: 0, duplicate: 0, conflict: 0, superseded: 0 },
  );
  console.log(
    `${envelopes.length} records from ${plan.files.length} files ` +
      `in ${Math.round(performance.now() - t0)} ` +
      `ms: ${total.accepted} accepted, ${total.duplicate} already ` +
      `stored, ${rejected.length} ` +
      `rejected${changed(total)}; ${plan.skipped.length} files skipped, ${plan.errors.length} unreadable`,
  );
  return rejected.length || conflicts.length || plan.errors.length || failed ? 1 : 0;
}

/** Sends a file's OTLP/JSON trace exports one by one, as an exporter would; true when a span was refused. */
async function importTraces(o: ReturnType<typeof options>, path: string, requests: object[]): Promise<boolean> {
  const n = { spans: 0, accepted: 0, duplicates: 0, rejected: 0, skipped: 0, pending: 0 };
  const refused: string[] = [];
  for (const [i, body] of requests.entries()) {
    const res = await request(`${o.url}/api/v1/otel/v1/traces`, o.key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as {
      mnemoscope?: Partial<typeof n>;
      partialSuccess?: { errorMessage?: string };
    };
    for (const k of Object.keys(n) as (keyof typeof n)[]) n[k] += answer.mnemoscope?.[k] ?? 0;
    const where = requests.length > 1 ? `${path}, export ${i + 1}` : path;
    for (const line of answer.partialSuccess?.errorMessage?.split('\n').filter(Boolean) ?? [])
      refused.push(`  ${where}: ${line}`);
  }
  console.log(
    `${n.rejected ? '✗' : '✓'} ${path} (OTLP traces, ${requests.length} exports): ${n.spans} spans, ` +
      `${n.accepted} records accepted, ${n.duplicates} already stored, ${n.rejected} rejected, ` +
      `${n.skipped} spans outside any turn, ${n.pending} waiting for their turn's span`,
  );
  for (const line of refused.slice(0, 50)) console.error(line);
  return n.rejected > 0;
}

async function exportTo(o: ReturnType<typeof options>, path: string): Promise<number> {
  const res = await request(`${o.url}${path}`, o.key);
  const text = await res.text();
  if (o.out) {
    writeFileSync(o.out, text);
    console.error(`wrote ${text.split('\n').filter(Boolean).length} records to ${o.out}`);
  } else process.stdout.write(text);
  return 0;
}

async function exportProjectTo(o: ReturnType<typeof options>): Promise<number> {
  if (!o.out) throw new CliError('export-project needs --out FILE (the export is gzip, not for a terminal)');
  const t0 = performance.now();
  const res = await request(`${o.url}/api/v1/project/export`, o.key);
  await res.body!.pipeTo(Writable.toWeb(createWriteStream(o.out)));
  console.error(
    `wrote ${o.out} (${(statSync(o.out).size / 1024).toFixed(0)} KiB) in ${Math.round(performance.now() - t0)} ms`,
  );
  return 0;
}

async function importProjectFrom(o: ReturnType<typeof options>): Promise<number> {
  if (o.positionals.length !== 1) throw new CliError('import-project needs one file');
  const file = o.positionals[0]!;
  try {
    statSync(file);
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as Error).message}`);
  }
  const t0 = performance.now();
  const res = await request(`${o.url}/api/v1/project/import`, o.key, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const r = (await res.json()) as { project: string; rows: number; tables: Record<string, number> };
  const tables = Object.entries(r.tables).map(([t, n]) => `${n} ${t}`);
  console.log(
    `imported ${r.rows} rows into project ${r.project} ` +
      `in ${Math.round(performance.now() - t0)} ` +
      `ms: ${tables.join(', ')}`,
  );
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const o = options(rest);
  if (o.help) return (console.log(USAGE), 0);
  switch (command) {
    case 'import':
      return importPaths(o);
    case 'export':
      if (o.positionals.length !== 1) throw new CliError('export needs one session id');
      return exportTo(o, `/api/v1/sessions/${encodeURIComponent(o.positionals[0]!)}/export`);
    case 'export-ucs':
      if (o.positionals.length !== 1) throw new CliError('export-ucs needs one agent id');
      return exportTo(o, `/api/v1/agents/${encodeURIComponent(o.positionals[0]!)}/ucs/export`);
    case 'export-project':
      return exportProjectTo(o);
    case 'import-project':
      return importProjectFrom(o);
    default:
      throw new CliError(`unknown command ${JSON.stringify(command)}\n${USAGE}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof CliError ? `mnemoscope: ${e.message}` : e);
    process.exit(e instanceof CliError ? 2 : 1);
  },
);
