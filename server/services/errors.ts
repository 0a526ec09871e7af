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
