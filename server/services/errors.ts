/** Domain errors thrown by services; the tRPC layer and route handlers map them in one place each. */
export class DomainError extends Error {}

export class NotFoundError extends DomainError {
  constructor(what: string, id: string) {
    super(`${what} ${JSON.stringify(id)} not found`);
  }
}

export class InvalidInputError extends DomainError {}

/** The request lost a race or contradicts the current state (two reviewers deciding the same proposal). */
export class ConflictError extends DomainError {}

export class ForbiddenError extends DomainError {}

/** The database cannot take writes now (disk full, down, restarting): retry later; no record is at fault. */
export class UnavailableError extends DomainError {}

/**
 * Whether a database error is the infrastructure's rather than the data's: SQLSTATE classes 08 (connection), 53
 * (insufficient resources: disk full, out of memory, too many connections), 57P (shutdown), 58 (I/O), and the
 * system errors behind them.
 */
export function isInfrastructureError(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 5;
    e = e.cause as typeof e, i++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (/^(08|53|57P|58)/.test(code)) return true;
    if (/^(ENOSPC|EDQUOT|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|EIO)$/.test(code)) return true;
    if (/No space left on device|disk quota exceeded/i.test(String((e as { message?: unknown }).message ?? '')))
      return true;
  }
  return false;
}
