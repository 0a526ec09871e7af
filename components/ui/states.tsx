import type { ReactNode } from 'react';

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <h3>{title}</h3>
      {children}
    </div>
  );
}

/** The attributes of rows being replaced (the previous filter's, while this one's load): dimmed, `aria-busy`. */
export function updatingProps(on: boolean) {
  return { 'aria-busy': on || undefined, className: on ? 'updating' : undefined } as const;
}

/** A failure said with what failed: "Could not load this" by default; a form says what it could not do. */
export function ErrorBox({
  error,
  doing = 'load this',
  retry,
  retrying = false,
}: {
  error: { message: string };
  doing?: string;
  /** Asks again (a query's refetch): a "Try again" button, where waiting for the next change would not. */
  retry?: () => void;
  /** Asked again and not answered yet: the button says so and waits. */
  retrying?: boolean;
}) {
  return (
    <div className="error-box" role="alert" data-testid="error">
      Could not {doing}: {error.message}
      {retry ? (
        <>
          {' '}
          <button type="button" className="btn btn-small" onClick={retry} disabled={retrying} aria-busy={retrying}>
            {retrying ? 'Trying again…' : 'Try again'}
          </button>
        </>
      ) : null}
    </div>
  );
}

/**
 * A query's error, with "Try again" (the query asked again; while it is, the button says so); nothing without one. The
 * whole page or panel may be this box, and a failed query is not asked again by itself (no refetch on window focus:
 * lib/trpc/query-client.ts), unless it polls.
 */
export function QueryError({
  query,
  doing,
}: {
  query: { error: { message: string } | null; refetch: () => unknown; isFetching: boolean };
  doing?: string;
}) {
  return query.error ? (
    <ErrorBox error={query.error} doing={doing} retry={() => void query.refetch()} retrying={query.isFetching} />
  ) : null;
}

/** Placeholder rows while a table loads; `cellClass` gives a column's cells its class (one hidden at some widths). */
export function SkeletonRows({
  rows = 6,
  cols = 6,
  cellClass,
}: {
  rows?: number;
  cols?: number;
  cellClass?: (col: number) => string | undefined;
}) {
  return (
    <tbody aria-busy="true">
      {Array.from({ length: rows }, (_, r) => (
        <tr key={r}>
          {Array.from({ length: cols }, (_, c) => (
            <td key={c} className={cellClass?.(c)}>
              <div className="skeleton" style={{ width: `${40 + ((r * 7 + c * 13) % 50)}%` }} />
            </td>
          ))}
        </tr>
      ))}
    </tbody>
  );
}
