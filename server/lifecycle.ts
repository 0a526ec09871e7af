/**
 * Whether this instance is shutting down, shared by the server (server/cli/serve.ts) and the app's bundled
 * code (readiness answers 503 once it is, so a load balancer stops sending requests here).
 */
const g = globalThis as unknown as { __mnemoscopeStopping?: boolean; __mnemoscopeStoppingAbort?: AbortController };
const stopping = (g.__mnemoscopeStoppingAbort ??= new AbortController());

export function beginShutdown(): void {
  g.__mnemoscopeStopping = true;
  stopping.abort();
}

/**
 * Aborted when the shutdown begins: requests that never end by themselves (a replay's live stream, a long poll for a
 * decision) end then, so that the instance stops at once and their clients go on with another instance.
 */
export function stoppingSignal(): AbortSignal {
  return stopping.signal;
}

export function shuttingDown(): boolean {
  return g.__mnemoscopeStopping === true;
}

const hooks = ((globalThis as unknown as { __mnemoscopeHooks?: Set<() => Promise<void>> }).__mnemoscopeHooks ??=
  new Set());

/**
 * Work to finish before the database closes (a sweep that has taken rows and not yet written them). Returns the
 * function that unregisters it.
 */
export function onShutdown(fn: () => Promise<void>): () => void {
  hooks.add(fn);
  return () => hooks.delete(fn);
}

/**
 * Runs every registered hook and waits for all of them (server/cli/serve.ts, before closing the database), twice:
 * work a hook waits for may hand on writes another hook waits for (a search's vector run gives its last vectors to
 * the writer after the writer's hook found nothing to wait for), and the second pass waits for those.
 */
export async function finishWork(): Promise<void> {
  for (let pass = 0; pass < 2; pass++) await Promise.allSettled([...hooks].map((fn) => fn()));
}

/**
 * `finishWork` within `ms`, then `last` (closing the database) within `ms` of its own, tried even when the work did
 * not end: false when either has not ended in time (a database that no longer answers), so that a stopping process
 * exits rather than waits for ever.
 */
export async function finishWorkWithin(ms: number, last: () => Promise<void>): Promise<boolean> {
  const ended = (p: Promise<unknown>, what: string) =>
    within(ms, what, p).then(
      () => true,
      () => false,
    );
  const worked = await ended(finishWork(), 'background work');
  const closed = await ended(
    last().catch(() => {}),
    'closing the database',
  );
  return worked && closed;
}

/** `p`, or an error naming `what` when it has not settled within `ms`. */
export function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const periodics = ((
  globalThis as unknown as { __mnemoscopePeriodic?: Map<string, { key: unknown; stop: () => Promise<void> }> }
).__mnemoscopePeriodic ??= new Map());

/**
 * Runs `fn` every `everyMs` in this process for as long as it runs, one run at a time; one job per `name` (started
 * again with another `key`, a database handle, it replaces the old one). Returns the function that stops it, which
 * waits for a run under way; shutdown stops every job this way before the database closes.
 */
export function periodic(name: string, key: unknown, everyMs: number, fn: () => Promise<unknown>): () => Promise<void> {
  const current = periodics.get(name);
  if (current?.key === key) return current.stop;
  void current?.stop();
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= fn()
      .catch(() => undefined)
      .finally(() => (running = null));
  }, everyMs);
  timer.unref?.();
  const stop = async () => {
    clearInterval(timer);
    unregister();
    if (periodics.get(name)?.stop === stop) periodics.delete(name);
    await running;
  };
  const unregister = onShutdown(stop);
  periodics.set(name, { key, stop });
  return stop;
}
