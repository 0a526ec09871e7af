/**
 * The Mnemoscope client for agents: queue records, and a background loop sends them in batches to
 * `POST /api/v1/ingest`. Built so that observability never hurts the agent:
 *
 * - `record()` never blocks and never throws for a server's sake; it validates with the server's own
 *   rules (`normalizeEnvelope`) and queues.
 * - The queue is bounded (`maxBuffer`); when full the oldest queued record is dropped and counted.
 * - A batch that fails for a transient reason (network error, timeout, 408, 429, 5xx) is retried with
 *   exponential backoff and full jitter, honouring Retry-After, up to `maxAttempts`; then it is dropped
 *   and counted. Retries are idempotent: every record carries its id (a turn is session/turn, a
 *   memory event its event_id), and the server answers `duplicate` for what it already holds.
 * - 413 splits the batch in two; a 207 reports each rejected record to `onRejected` with its field
 *   errors and sends the rest; 401/403 drop the batch and say why once in `lastError`.
 * - On Node, pending records are flushed when the process is about to exit (beforeExit, SIGINT,
 *   SIGTERM), waiting at most `exitTimeoutMs`.
 *
 * No Node built-ins are imported: the same file runs in Node ≥ 20, Bun, Deno and browsers.
 */
import type { z } from 'zod';
import { normalizeEnvelope } from '@/lib/ingest/normalize';
import type { DATA_SCHEMAS, FieldError, IngestResult, RecordType } from '@/lib/ingest/contract';
import type { MemoryDecision } from '@/lib/curation/decision';
import type { SessionState } from '@/lib/api/contract';

/** What `data` may hold for a record type, as the server's zod contract takes it. */
export type RecordData<T extends RecordType> = z.input<(typeof DATA_SCHEMAS)[T]>;

export interface Envelope<T extends RecordType = RecordType> {
  type: T;
  data: RecordData<T>;
  /** The agent a UCS record belongs to, when `data` does not name it. */
  agent?: string;
  /** Where the record came from (a file path), kept for provenance. */
  source?: string;
}

export interface RejectedRecord {
  envelope: Envelope;
  errors: FieldError[];
  /** `local`: refused before sending; `server`: the server's answer. */
  by: 'local' | 'server';
}

/** A record as the server's answers name it: `turn inc-42/3`, `memory_event memevt_…`, `session inc-42`. */
export function recordLabel(envelope: Envelope): string {
  const data = envelope.data as Record<string, unknown> | null;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return envelope.type;
  if (envelope.type === 'turn' && 'session_id' in data) return `turn ${data.session_id}/${data.turn ?? '?'}`;
  const key = data.event_id ?? data.id;
  return key === undefined || key === null ? envelope.type : `${envelope.type} ${String(key)}`;
}

export interface MnemoscopeOptions {
  /** Server address; default `$MNEMOSCOPE_URL` or http://127.0.0.1:3000. */
  url?: string;
  /** API key; default `$MNEMOSCOPE_API_KEY`. */
  apiKey?: string;
  /** Records a request (default 500). */
  batchSize?: number;
  /** How often queued records are sent (default 1000 ms); a full batch is sent at once. */
  flushIntervalMs?: number;
  /** Records held while the server is unreachable (default 10,000); beyond it the oldest are dropped. */
  maxBuffer?: number;
  /** Tries a batch gets before it is dropped (default 8). */
  maxAttempts?: number;
  /** Timeout of one request (default 10 s). */
  timeoutMs?: number;
  /** First retry delay and the cap of the exponential backoff (default 250 ms, 30 s). */
  backoffMs?: { base: number; max: number };
  /** Flush on process exit (default true on Node). */
  flushOnExit?: boolean;
  /** Longest wait for the last flush at exit (default 5 s). */
  exitTimeoutMs?: number;
  /** Validate records before queueing them, with the server's rules (default true). */
  validate?: boolean;
  /**
   * A record sent again under its id with other content replaces the stored version (which the server keeps in its
   * history). Default false: such a record is answered `conflict`, counted, reported to `onRejected`, and the stored
   * version kept.
   */
  supersede?: boolean;
  /** Called for each record refused locally or by the server; default: one console.warn per record. */
  onRejected?: (r: RejectedRecord) => void;
  /** Called when a batch fails or is dropped; default: console.warn, at most once per 30 s. */
  onError?: (error: Error) => void;
  /**
   * Called for a record stored with warnings: fields its type does not know that look like slips for ones it does
   * (`halucination`), kept as the agent's own; default: a console.warn the first time each field is warned of.
   */
  onWarning?: (w: { envelope: Envelope; warnings: FieldError[] }) => void;
  /** For tests and unusual runtimes. */
  fetch?: typeof fetch;
}

export interface ClientStats {
  /** Waiting to be sent, including the batch in flight. */
  buffered: number;
  /** Records the server stored. */
  accepted: number;
  /** Records the server already had (a retry after a lost answer, or a re-send). */
  duplicates: number;
  /** Records the server refused, with reasons given to `onRejected`. */
  rejected: number;
  /** Records whose id held another version, which the server kept (`supersede` off); reported to `onRejected`. */
  conflicts: number;
  /** Records that replaced another version under their id (`supersede` on). */
  superseded: number;
  /** Records refused before sending. */
  invalid: number;
  /** Records given up on: buffer full, attempts exhausted, key refused, or still queued at exit. */
  dropped: number;
  requests: number;
  retries: number;
  lastError: string | null;
}

const env = (name: string): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];

/** A session's CCS at a turn, as `GET /api/v1/sessions/{id}/state` answers. */
export type { SessionState } from '@/lib/api/contract';

export class Mnemoscope {
  readonly url: string;
  private readonly key: string | undefined;
  private readonly o: Required<
    Omit<MnemoscopeOptions, 'url' | 'apiKey' | 'onRejected' | 'onError' | 'onWarning' | 'fetch' | 'supersede'>
  >;
  private readonly supersede: boolean;
  private readonly fetchImpl: typeof fetch;
  private readonly onRejected: (r: RejectedRecord) => void;
  private readonly onError: (e: Error) => void;
  private readonly onWarning: (w: { envelope: Envelope; warnings: FieldError[] }) => void;
  private readonly warned = new Set<string>();
  private queue: Envelope[] = [];
  private inFlight = 0;
  private pumping: Promise<void> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private closing = false;
  private readonly counters: Omit<ClientStats, 'buffered' | 'lastError'> = {
    accepted: 0,
    duplicates: 0,
    rejected: 0,
    conflicts: 0,
    superseded: 0,
    invalid: 0,
    dropped: 0,
    requests: 0,
    retries: 0,
  };
  private lastError: string | null = null;
  private lastWarned = 0;
  private readonly detach: () => void;

  constructor(options: MnemoscopeOptions = {}) {
    this.url = (options.url ?? env('MNEMOSCOPE_URL') ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
    this.key = options.apiKey ?? env('MNEMOSCOPE_API_KEY');
    this.o = {
      batchSize: positive(options.batchSize ?? 500, 'batchSize'),
      flushIntervalMs: positive(options.flushIntervalMs ?? 1000, 'flushIntervalMs'),
      maxBuffer: positive(options.maxBuffer ?? 10_000, 'maxBuffer'),
      maxAttempts: positive(options.maxAttempts ?? 8, 'maxAttempts'),
      timeoutMs: positive(options.timeoutMs ?? 10_000, 'timeoutMs'),
      backoffMs: options.backoffMs ?? { base: 250, max: 30_000 },
      flushOnExit: options.flushOnExit ?? true,
      exitTimeoutMs: options.exitTimeoutMs ?? 5000,
      validate: options.validate ?? true,
    };
    this.supersede = options.supersede ?? false;
    this.fetchImpl = options.fetch ?? ((...a) => globalThis.fetch(...a));
    this.onRejected =
      options.onRejected ??
      ((r) =>
        console.warn(
          `mnemoscope: ${recordLabel(r.envelope)} refused${r.by === 'local' ? ' before sending' : ''}: ` +
            r.errors.map((e) => `${e.path || '(record)'}: ${e.message}`).join('; '),
        ));
    this.onWarning =
      options.onWarning ??
      ((w) => {
        // Once per kind of record and field: an agent sends the same fields on every record.
        const fresh = w.warnings.filter((e) => !this.warned.has(`${w.envelope.type}\u0000${e.path}`));
        if (!fresh.length) return;
        for (const e of fresh) this.warned.add(`${w.envelope.type}\u0000${e.path}`);
        console.warn(
          `mnemoscope: ${recordLabel(w.envelope)} stored, but ` +
            fresh.map((e) => `${e.path}: ${e.message}`).join('; ') +
            ' (said once per field)',
        );
      });
    this.onError =
      options.onError ??
      ((e) => {
        if (Date.now() - this.lastWarned < 30_000) return;
        this.lastWarned = Date.now();
        console.warn(`mnemoscope: ${e.message}`);
      });
    if (!this.key) this.fail(new Error('no API key: pass apiKey or set MNEMOSCOPE_API_KEY; records will be dropped'));
    this.timer = setInterval(() => void this.pump(), this.o.flushIntervalMs);
    unref(this.timer);
    this.detach = this.o.flushOnExit ? attachExitHooks(this) : () => {};
  }

  /** Queues one record; false when it was refused (invalid, or the client is shut down). Never throws. */
  record<T extends RecordType>(envelope: Envelope<T>): boolean {
    if (this.closing) {
      this.counters.dropped++;
      return false;
    }
    let errors: FieldError[] | null = null;
    let copy: Envelope<T> = envelope;
    // Checked as the agent gave it (a JSON copy would turn NaN into null, which a nullable field takes), then copied
    // as it is now, as it will be sent: the agent may change its objects (a CCS it keeps updating) before the batch
    // goes.
    if (this.o.validate) {
      try {
        const n = normalizeEnvelope(envelope);
        errors = n.ok ? null : n.errors;
      } catch (e) {
        errors = [{ path: '', message: `could not be validated: ${(e as Error).message}` }];
      }
    }
    if (!errors)
      try {
        copy = JSON.parse(JSON.stringify(envelope)) as Envelope<T>;
      } catch (e) {
        errors = [{ path: 'data', message: `cannot be sent as JSON: ${(e as Error).message}` }];
      }
    if (errors) {
      this.counters.invalid++;
      const refused = errors;
      this.safe(() => this.onRejected({ envelope: copy, errors: refused, by: 'local' }));
      return false;
    }
    this.queue.push(copy as Envelope);
    if (this.queue.length + this.inFlight > this.o.maxBuffer) {
      this.queue.shift();
      this.counters.dropped++;
      this.fail(new Error(`buffer full (${this.o.maxBuffer} records): dropping the oldest; is ${this.url} reachable?`));
    }
    if (this.queue.length >= this.o.batchSize) void this.pump();
    return true;
  }

  /** Sends everything queued now; resolves when the queue is empty or after `timeoutMs` (default: no limit). */
  async flush(timeoutMs?: number): Promise<void> {
    const drained = (async () => {
      while (this.queue.length || this.pumping) await this.pump();
    })();
    if (timeoutMs === undefined) return drained;
    let t: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([drained, new Promise<void>((r) => (t = setTimeout(r, timeoutMs)))]);
    clearTimeout(t);
  }

  /** Flushes (at most `timeoutMs`, default `exitTimeoutMs`) and stops; what could not be sent is counted as dropped. */
  async shutdown(timeoutMs = this.o.exitTimeoutMs): Promise<ClientStats> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.detach();
    await this.flush(timeoutMs);
    this.closing = true;
    this.counters.dropped += this.queue.length;
    this.queue = [];
    return this.stats();
  }

  /**
   * The latest CCS of a session, or the one committed at `turn`, as the server holds it: what an agent resumes from
   * (a fork a reviewer corrected names its origin in `forked_from`). Null when the session has no such turn. Unlike
   * `record()`, this asks the server now and throws when it cannot answer.
   */
  state(sessionId: string, turn?: number): Promise<SessionState | null> {
    const q = turn === undefined ? '' : `?turn=${turn}`;
    return this.ask(`/api/v1/sessions/${encodeURIComponent(sessionId)}/state${q}`, `state of ${sessionId}`);
  }

  /**
   * What became of a memory event this agent sent: written, proposed (waiting for a reviewer), approved (`edited`
   * names what the reviewer changed; `entry.content` is the text as stored), rejected with the reason, a
   * `duplicate_of` an entry, or discarded. Sends what is queued first (the event may still be in the buffer), then
   * waits up to `timeoutMs` (default 0: answer now) for a pending review to be decided, in long polls the server
   * ends as soon as a reviewer decides. Null when the server holds no such event (refused, or not sent). Throws
   * when the server cannot answer.
   */
  async decision(eventId: string, { timeoutMs = 0 }: { timeoutMs?: number } = {}): Promise<MemoryDecision | null> {
    const deadline = Date.now() + timeoutMs;
    if (this.queue.length || this.pumping) await this.flush(Math.max(timeoutMs, this.o.timeoutMs));
    for (;;) {
      const wait = Math.max(0, Math.min(50, Math.round((deadline - Date.now()) / 1000)));
      const d = await this.ask<MemoryDecision>(
        `/api/v1/memory-events/${encodeURIComponent(eventId)}${wait ? `?wait=${wait}` : ''}`,
        `decision of ${eventId}`,
      );
      if (!d || d.final || Date.now() >= deadline - 1000) return d;
    }
  }

  /** Asks the server now (unlike `record()`): the JSON answer, null for a 404, and an error naming `what` otherwise. */
  private async ask<T>(path: string, what: string): Promise<T | null> {
    if (!this.key) throw new Error('no API key: pass apiKey or set MNEMOSCOPE_API_KEY');
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.url}${path}`, { headers: { authorization: `Bearer ${this.key}` } });
    } catch (e) {
      // fetch says only "fetch failed": the server's address and the cause are what the caller can act on.
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new Error(`${what}: cannot reach ${this.url} (${cause?.code ?? cause?.message ?? (e as Error).message})`, {
        cause: e,
      });
    }
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
    return (await res.json()) as T;
  }

  stats(): ClientStats {
    return { ...this.counters, buffered: this.queue.length + this.inFlight, lastError: this.lastError };
  }

  // ------------------------------------------------------------------ sending

  private pump(): Promise<void> {
    if (this.pumping) return this.pumping;
    if (!this.queue.length) return Promise.resolve();
    this.pumping = (async () => {
      try {
        while (this.queue.length) {
          const batch = this.queue.splice(0, this.o.batchSize);
          this.inFlight = batch.length;
          await this.send(batch);
          this.inFlight = 0;
        }
      } finally {
        this.inFlight = 0;
        this.pumping = null;
      }
    })();
    return this.pumping;
  }

  private async send(batch: Envelope[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const r = await this.post(batch);
      if (r.kind === 'done') return;
      if (r.kind === 'split') {
        const half = Math.ceil(batch.length / 2);
        await this.send(batch.slice(0, half));
        await this.send(batch.slice(half));
        return;
      }
      if (r.kind === 'fatal' || attempt >= this.o.maxAttempts) {
        this.counters.dropped += batch.length;
        this.fail(
          new Error(
            `${r.message}; dropped ${batch.length} record(s)${r.kind === 'retry' ? ` after ${attempt} attempts` : ''}`,
          ),
        );
        return;
      }
      this.counters.retries++;
      this.fail(new Error(`${r.message}; retrying (attempt ${attempt + 1} of ${this.o.maxAttempts})`));
      const { base, max } = this.o.backoffMs;
      const backoff = Math.random() * Math.min(max, base * 2 ** (attempt - 1));
      await sleep(Math.min(max, Math.max(backoff, r.retryAfterMs ?? 0)));
    }
  }

  private async post(
    batch: Envelope[],
  ): Promise<
    { kind: 'done' } | { kind: 'split' } | { kind: 'retry' | 'fatal'; message: string; retryAfterMs?: number }
  > {
    if (!this.key) return { kind: 'fatal', message: 'no API key' };
    const body = batch.map((e) => JSON.stringify(e)).join('\n');
    this.counters.requests++;
    let res: Response;
    let text: string;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.o.timeoutMs);
    try {
      res = await this.fetchImpl(`${this.url}/api/v1/ingest${this.supersede ? '?supersede=true' : ''}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.key}`, 'content-type': 'application/x-ndjson' },
        body,
        signal: abort.signal,
      });
      text = await res.text();
    } catch (e) {
      const err = e as Error & { cause?: Error };
      const why = abort.signal.aborted ? `timed out after ${this.o.timeoutMs} ms` : (err.cause?.message ?? err.message);
      return { kind: 'retry', message: `cannot reach ${this.url}: ${why}` };
    } finally {
      clearTimeout(timer);
    }
    const json = parseJson(text) as { error?: string; results?: IngestResult[]; retryAfterSeconds?: number } | null;
    const said = json?.error ?? (text.slice(0, 200) || res.statusText);
    if (res.status === 200 || res.status === 207) {
      const results = json?.results ?? [];
      batch.forEach((envelope, i) => {
        const r = results[i];
        const warnings = r && 'warnings' in r ? r.warnings : undefined;
        if (warnings?.length) this.safe(() => this.onWarning({ envelope, warnings }));
        if (r?.status === 'accepted') this.counters.accepted++;
        else if (r?.status === 'duplicate') this.counters.duplicates++;
        else if (r?.status === 'superseded') this.counters.superseded++;
        else if (r?.status === 'conflict') {
          this.counters.conflicts++;
          this.safe(() => this.onRejected({ envelope, errors: [{ path: '', message: r.message }], by: 'server' }));
        } else {
          this.counters.rejected++;
          const errors =
            r?.status === 'rejected' ? r.errors : [{ path: '', message: 'no result for this record in the answer' }];
          this.safe(() => this.onRejected({ envelope, errors, by: 'server' }));
        }
      });
      return { kind: 'done' };
    }
    if (res.status === 413 && batch.length > 1) return { kind: 'split' };
    const message = `${res.status} from ${this.url}/api/v1/ingest: ${said}`;
    if (res.status === 408 || res.status === 429 || res.status >= 500) {
      const header = Number(res.headers.get('retry-after'));
      const retryAfterMs =
        Number.isFinite(header) && header > 0
          ? header * 1000
          : json?.retryAfterSeconds
            ? json.retryAfterSeconds * 1000
            : undefined;
      return { kind: 'retry', message, retryAfterMs };
    }
    if (res.status === 400 || res.status === 413) {
      // The whole body was refused: every record of it is rejected, with the server's reason.
      for (const envelope of batch) {
        this.counters.rejected++;
        this.safe(() => this.onRejected({ envelope, errors: [{ path: '', message: said }], by: 'server' }));
      }
      return { kind: 'done' };
    }
    return { kind: 'fatal', message };
  }

  private fail(e: Error) {
    this.lastError = e.message;
    this.safe(() => this.onError(e));
  }

  private safe(f: () => void) {
    try {
      f();
    } catch {
      // A throwing callback must not take the agent down.
    }
  }
}

function positive(n: number, name: string): number {
  if (!(Number.isFinite(n) && n > 0)) throw new TypeError(`Mnemoscope: ${name} must be a positive number, got ${n}`);
  return n;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function unref(t: unknown) {
  (t as { unref?: () => void }).unref?.();
}

/** A retry wait that does not hold the process open by itself (a flush at exit holds it, with its own deadline). */
function sleep(ms: number): Promise<void> {
  return new Promise((r) => unref(setTimeout(r, ms)));
}

type NodeProcess = {
  on(e: string, f: (...a: unknown[]) => void): void;
  off(e: string, f: (...a: unknown[]) => void): void;
  listenerCount(e: string): number;
  exit(code: number): void;
};

/** beforeExit / SIGINT / SIGTERM flush the client; returns a function that removes the hooks. */
function attachExitHooks(client: Mnemoscope): () => void {
  const proc = (globalThis as { process?: NodeProcess }).process;
  if (!proc || typeof proc.on !== 'function') return () => {};
  let done = false;
  const beforeExit = () => {
    if (done) return;
    done = true;
    void client.shutdown();
  };
  const signal = (sig: unknown) => {
    const name = String(sig);
    void client.shutdown().finally(() => {
      // Exit as the signal would have, unless the program handles the signal itself.
      if (proc.listenerCount(name) === 0) proc.exit(name === 'SIGINT' ? 130 : 143);
    });
    detach();
  };
  const detach = () => {
    proc.off('beforeExit', beforeExit);
    proc.off('SIGINT', signal);
    proc.off('SIGTERM', signal);
  };
  proc.on('beforeExit', beforeExit);
  proc.on('SIGINT', signal);
  proc.on('SIGTERM', signal);
  return detach;
}
