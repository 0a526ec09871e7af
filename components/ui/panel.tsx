import type { CSSProperties, HTMLAttributes, ReactNode, Ref } from 'react';

/**
 * A panel of the page: a titled box with its content, the one way pages draw one (section.panel, its head, its body).
 *
 * - `title`: the head (omit for a panel with no head); `note` beside it in muted text, `actions` at its right.
 *   `heading`: the head is an `h2` (a landmark for screen readers and the outline) rather than a plain row.
 * - `body`: wrap the children in the padded body (default), or not (`false`: tables and lists that reach the edges).
 *   `padded`: a panel with no head that is its own body (`panel panel-body`: a loading skeleton, a box of controls).
 * - `headStyle`: the head's own style (a head that wraps its badges and controls: `flexWrap`, `gap`).
 * - `bodyClassName`: extra classes of the body (`muted`, `form-col`, `toolbar`…); `bodyProps`: its other attributes
 *   (a style, or `tabIndex`, `role` and `aria-label` for a body that scrolls).
 * - `as`: the element (`section` by default; `div` where a section would add an unnamed region).
 * - `busy`: still loading (`aria-busy`); `ref`: the panel's element (to measure it).
 */
export function Panel({
  title,
  note,
  actions,
  heading = false,
  body = true,
  padded = false,
  as: Tag = 'section',
  className,
  headStyle,
  bodyClassName,
  bodyProps,
  style,
  testId,
  labelledBy,
  id,
  busy,
  ref,
  children,
}: {
  title?: ReactNode;
  note?: ReactNode;
  actions?: ReactNode;
  heading?: boolean;
  body?: boolean;
  padded?: boolean;
  as?: 'section' | 'div' | 'aside' | 'article';
  className?: string;
  headStyle?: CSSProperties;
  bodyClassName?: string;
  bodyProps?: HTMLAttributes<HTMLDivElement> & Record<`data-${string}`, string | number | undefined>;
  style?: CSSProperties;
  testId?: string;
  /** The id of the element that names the panel (its region's accessible name). */
  labelledBy?: string;
  /** The head's id, so the panel can be named by it (`labelledBy`) or linked to. */
  id?: string;
  busy?: boolean;
  ref?: Ref<HTMLElement>;
  children?: ReactNode;
}) {
  const Head = heading ? 'h2' : 'div';
  return (
    <Tag
      ref={ref as Ref<HTMLDivElement>}
      className={['panel', padded && 'panel-body', className].filter(Boolean).join(' ')}
      style={style}
      data-testid={testId}
      aria-labelledby={labelledBy}
      aria-busy={busy || undefined}
    >
      {title !== undefined ? (
        <Head className={heading ? 'panel-head panel-title' : 'panel-head'} id={id} style={headStyle}>
          {note !== undefined || actions !== undefined ? (
            <>
              <span>{title}</span>
              {note !== undefined ? <span className="faint head-note">{note}</span> : null}
              {actions}
            </>
          ) : (
            title
          )}
        </Head>
      ) : null}
      {body && !padded ? (
        <div {...bodyProps} className={['panel-body', bodyClassName, bodyProps?.className].filter(Boolean).join(' ')}>
          {children}
        </div>
      ) : (
        children
      )}
    </Tag>
  );
}
