import { fmtInt } from '@/lib/format';

interface Props {
  /** Rows shown, and rows that match (all pages). */
  shown: number;
  matching: number;
  /** What a row is, plural ("sessions", "entries"), and what it matches, if anything. */
  noun: string;
  filter?: string;
  page: number;
  /** The infinite query the list reads (TanStack Query). */
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  testId?: string;
}

/**
 * Under a list paged by the server: how many of how many are shown, and the button for the next page. `matching` is
 * counted with the first page, so rows added since may make the list longer than it says.
 */
export function ListFoot({ shown, matching, noun, filter, page, query, testId }: Props) {
  if (!matching) return null;
  const left = Math.min(page, matching - shown);
  return (
    <div className="table-foot" data-testid={testId}>
      <span className="muted">
        Showing {fmtInt(shown)} of {fmtInt(matching)}
        {filter ? ` matching “${filter}”` : ''} {noun}
      </span>
      {query.hasNextPage ? (
        <button
          className="btn"
          type="button"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {query.isFetchingNextPage ? 'Loading…' : left > 0 ? `Show ${fmtInt(left)} more` : 'Show more'}
        </button>
      ) : null}
    </div>
  );
}
