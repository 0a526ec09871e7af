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

/** Under a list paged by the server: how many of how many are shown, and the button for the next page. */
export function ListFoot({ shown, matching, noun, filter, page, query, testId }: Props) {
  if (!matching) return null;
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
          {query.isFetchingNextPage ? 'Loading…' : `Show ${fmtInt(Math.min(page, matching - shown))} more`}
        </button>
      ) : null}
    </div>
  );
}
