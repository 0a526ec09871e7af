import { useRef } from 'react';
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
  query: {
    hasNextPage: boolean;
    isFetchingNextPage: boolean;
    fetchNextPage: () => Promise<unknown>;
    /** The rows shown are the previous filter's or sort's, while this one's load. */
    isPlaceholderData?: boolean;
  };
  testId?: string;
}

/**
 * Under a list paged by the server: how many of how many are shown, and the button for the next page. `matching` is
 * counted with the first page, so rows added since may make the list longer than it says.
 */
export function ListFoot({ shown, matching, noun, filter, page, query, testId }: Props) {
  const foot = useRef<HTMLDivElement>(null);
  if (!matching && !query.isPlaceholderData) return null;
  const left = Math.min(page, matching - shown);
  /**
   * Fetches the next page. When the button had focus (pressed by keyboard, or clicked), focus then goes to the first
   * new row of the list just above (its link or button), so that the reader goes on from there: the button may be gone
   * by then, and focus would otherwise fall back to the top of the page. Failing that, it stays on the foot.
   */
  const more = async () => {
    const had = foot.current?.contains(document.activeElement) ?? false;
    await query.fetchNextPage();
    if (!had) return;
    // The new rows may take a few frames to be drawn (a long page on a slow machine): up to a second is waited for.
    const place = (frames: number) =>
      requestAnimationFrame(() => {
        const rows = foot.current?.previousElementSibling?.querySelectorAll<HTMLElement>('tbody tr, [role=listitem]');
        const row = rows?.[shown];
        if (!row && frames > 0) return place(frames - 1);
        const target =
          row && (row.tabIndex >= 0 ? row : row.querySelector<HTMLElement>('a[href], button, [tabindex="0"]'));
        (target ?? foot.current?.querySelector<HTMLElement>('button') ?? foot.current)?.focus();
      });
    place(60);
  };
  return (
    <div className="table-foot" data-testid={testId} ref={foot} tabIndex={-1}>
      {/* A status: a screen reader hears it change (loading, then how many the list holds). */}
      <span className="muted" role="status">
        {query.isPlaceholderData ? (
          // The counts shown would be the previous filter's, not this one's.
          <>Loading the {noun}…</>
        ) : (
          <>
            Showing {fmtInt(shown)} of {fmtInt(matching)}
            {filter ? ` matching “${filter}”` : ''} {noun}
          </>
        )}
      </span>
      {query.hasNextPage && !query.isPlaceholderData ? (
        <button className="btn" type="button" disabled={query.isFetchingNextPage} onClick={() => void more()}>
          {query.isFetchingNextPage ? 'Loading…' : left > 0 ? `Show ${fmtInt(left)} more` : 'Show more'}
        </button>
      ) : null}
    </div>
  );
}
