import type { ReactNode } from 'react';

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <h3>{title}</h3>
      {children}
    </div>
  );
}

export function ErrorBox({ error }: { error: { message: string } }) {
  return (
    <div className="error-box" role="alert" data-testid="error">
      Could not load this: {error.message}
    </div>
  );
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
