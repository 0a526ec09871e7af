import type { CSSProperties, HTMLAttributes, Key, ReactNode, TdHTMLAttributes } from 'react';
import { SkeletonRows, updatingProps } from './states';

/** One column of a DataTable: its header, and how a row fills its cell. */
export interface Column<T> {
  id: string;
  header: ReactNode;
  cell: (row: T, index: number) => ReactNode;
  /** A number: right-aligned, tabular (the `num` class on header and cells). */
  num?: boolean;
  /** Classes of the cells (`mono`, `clip`, `nowrap`, `cell-sub`…), and of the header. */
  className?: string;
  headerClassName?: string;
  /** The header cell's title (what an abbreviation stands for). */
  headerTitle?: string;
  /** The cell's title (the whole text of a clipped cell). */
  title?: (row: T) => string | undefined;
  /** The column's width: on its header cell, or on its cells when the table is `headless`. */
  width?: number | string;
  /** A cell's own attributes (a data-testid, a style, more classes after the column's), by row. */
  cellProps?: (row: T, index: number) => CellAttributes;
}

type DataAttributes = Record<`data-${string}`, string | number | undefined>;
type RowAttributes = HTMLAttributes<HTMLTableRowElement> & DataAttributes;
type CellAttributes = Omit<TdHTMLAttributes<HTMLTableCellElement>, 'children'> & DataAttributes;

/**
 * A table of rows, the one way pages draw one (`table.data`): columns declared once, a header (unless `headless`),
 * a row per item keyed by `rowKey`, and `empty` in a full-width row when there are none. `rowProps` gives a row its
 * own attributes (selection, data-* for tests, a click or key handler); `loading` shows skeleton rows instead, and
 * `updating` dims the rows shown (the previous filter's, while this one's load).
 * Memory text in cells goes through MemoryText, as everywhere: this component renders what the columns return,
 * never HTML.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  rowProps,
  empty,
  caption,
  headless = false,
  compact = false,
  loading = false,
  updating = false,
  className,
  style,
  testId,
}: {
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => Key;
  rowProps?: (row: T, index: number) => RowAttributes;
  empty?: ReactNode;
  /** Names the table for screen readers (a visually hidden caption). */
  caption?: string;
  headless?: boolean;
  compact?: boolean;
  /** Still loading: skeleton rows in place of the body. */
  loading?: boolean;
  /** The rows shown are being replaced (aria-busy, dimmed). */
  updating?: boolean;
  className?: string;
  style?: CSSProperties;
  testId?: string;
}) {
  const cls = (...c: (string | false | undefined)[]) => c.filter(Boolean).join(' ') || undefined;
  return (
    <table className={cls('data', compact && 'compact', className)} style={style} data-testid={testId}>
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      {headless ? null : (
        <thead>
          <tr>
            {columns.map((c) => (
              <th
                key={c.id}
                scope="col"
                className={cls(c.num && 'num', c.headerClassName)}
                title={c.headerTitle}
                style={c.width !== undefined ? { width: c.width } : undefined}
              >
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
      )}
      {loading || (updating && !rows.length) ? (
        <SkeletonRows cols={columns.length} />
      ) : (
        <tbody {...updatingProps(updating)}>
          {rows.length === 0 && empty !== undefined ? (
            <tr>
              <td colSpan={columns.length} className="faint">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row, i) => (
              <tr key={rowKey(row, i)} {...rowProps?.(row, i)}>
                {columns.map((c) => {
                  const own = c.cellProps?.(row, i);
                  const width = headless && c.width !== undefined ? { width: c.width } : undefined;
                  return (
                    <td
                      key={c.id}
                      title={c.title?.(row)}
                      {...own}
                      className={cls(c.num && 'num', c.className, own?.className)}
                      style={width || own?.style ? { ...width, ...own?.style } : undefined}
                    >
                      {c.cell(row, i)}
                    </td>
                  );
                })}
              </tr>
            ))
          )}
        </tbody>
      )}
    </table>
  );
}
