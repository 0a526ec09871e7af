import { fmtDateTime } from '@/lib/format';

/**
 * A clock reading taken as the page renders. The server's and the browser's differ by the time between them (a minute
 * may turn meanwhile): hydration keeps the server's, instead of failing on the text.
 */
export function ClockReading({ at }: { at: number }) {
  return (
    <time dateTime={new Date(at).toISOString()} suppressHydrationWarning>
      {fmtDateTime(new Date(at))}
    </time>
  );
}
