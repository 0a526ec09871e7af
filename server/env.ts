import { z } from 'zod';

const schema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MNEMOSCOPE_DATA_DIR: z.string().min(1).default('./data'),
  MNEMOSCOPE_API_KEY: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MNEMOSCOPE_DEMO: z.enum(['0', '1']).default('1'),
  MNEMOSCOPE_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(16 * 1024 * 1024),
  MNEMOSCOPE_MAX_BATCH: z.coerce.number().int().positive().default(5000),
  /** Ingest requests a minute per API key (bursts of the same size). */
  MNEMOSCOPE_RATE_LIMIT: z.coerce.number().int().positive().default(1200),
  /** `local`: no sign-in, loopback only, the local user is admin. `users`: everyone signs in. */
  MNEMOSCOPE_AUTH: z.enum(['local', 'users']).default('local'),
  /** In users mode, an admin created (or kept) at start. */
  MNEMOSCOPE_ADMIN_USER: z
    .string()
    .regex(/^[A-Za-z0-9._@-]{2,64}$/, 'must be 2–64 letters, digits or . _ @ -')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MNEMOSCOPE_ADMIN_PASSWORD: z
    .string()
    .min(12, 'must be at least 12 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** `1` behind a reverse proxy: the client's address is the last X-Forwarded-For entry (sign-in limits use it). */
  MNEMOSCOPE_TRUST_PROXY: z.enum(['0', '1']).default('0'),
  /**
   * Where people open this app (`https://mnemoscope.example.com`, behind a proxy): links given to agents and webhook
   * receivers (review_url, entry_url, a session's or a dead end's url) are absolute under it; unset, they are paths.
   */
  MNEMOSCOPE_PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'must be an http:// or https:// URL without a query or fragment')
    .transform((u) => u.replace(/\/+$/, ''))
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** On SIGTERM, how long requests in flight may run before their connections are closed. */
  MNEMOSCOPE_SHUTDOWN_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
});

export type Env = z.infer<typeof schema>;

/** Reads the environment each call, so tests and the CLI can set variables before use. */
export function env(): Env {
  const r = schema.safeParse(process.env);
  if (!r.success) {
    const lines = r.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  return r.data;
}

let publicUrl: { raw: string | undefined; base: string | undefined } | null = null;
/**
 * A link into the app (`/curation?proposal=…`) as agents and webhook receivers get it: under MNEMOSCOPE_PUBLIC_URL.
 * Called per proposal while a batch is curated: the variable is validated again only when it changes.
 */
export function appLink(path: string): string {
  const raw = process.env.MNEMOSCOPE_PUBLIC_URL;
  if (!publicUrl || publicUrl.raw !== raw) publicUrl = { raw, base: env().MNEMOSCOPE_PUBLIC_URL };
  return publicUrl.base ? `${publicUrl.base}${path}` : path;
}
