import type { ReactNode } from 'react';
import { parseTerm, typeSlot, type TermNode } from '@/lib/ccs/terms';
import { MemoryText } from '@/components/ui/memory-text';

function Node({ node, depth }: { node: TermNode; depth: number }): ReactNode {
  if (typeof node === 'string') return <MemoryText text={node} className="t-atom" />;
  return (
    <span className={depth ? 't-inner' : undefined}>
      <span className="t-name">{node.name}</span>
      <span className="t-paren">(</span>
      {node.args.map((a, i) => (
        <span key={i}>
          {i ? ' ' : null}
          <Node node={a} depth={depth + 1} />
        </span>
      ))}
      <span className="t-paren">)</span>
    </span>
  );
}

export type ChipMark = 'added' | 'removed' | 'changed' | null;

/**
 * A predicate term as a structured chip; typed entities take their type's colour; malformed terms show raw with a
 * warning.
 */
export function TermChip({
  term,
  typed,
  mark,
  title,
  onClick,
  onShow,
  badge,
  tabbable = true,
}: {
  term: string;
  typed?: boolean;
  mark?: ChipMark;
  title?: string;
  onClick?: () => void;
  /** The pointer or the keyboard is on it (the panel shows its history). */
  onShow?: () => void;
  badge?: string;
  /** A link chip that is not its list's one Tab stop (the list moves among its links by arrow keys). */
  tabbable?: boolean;
}) {
  const parsed = parseTerm(term);
  const slot = typed && parsed.ok && typeof parsed.node !== 'string' ? typeSlot(parsed.node.name) : null;
  const cls = [
    'chip',
    mark ? `chip-${mark}` : '',
    slot !== null ? `type-${slot}` : '',
    parsed.ok ? '' : 'chip-bad',
    onClick ? 'chip-link' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const body = parsed.ok ? <Node node={parsed.node} depth={0} /> : <MemoryText text={parsed.raw} />;
  return (
    <span
      className={cls}
      title={parsed.ok ? title : `Could not parse this term (${parsed.error}); shown as sent. ${title ?? ''}`}
      onClick={onClick}
      onMouseEnter={onShow}
      onFocus={onShow}
      role={onClick ? 'button' : undefined}
      // A chip that is no link takes focus only when the page gives it (after following a link to its turn).
      tabIndex={onClick && tabbable ? 0 : -1}
      // A button by keyboard too: Enter or Space follows it (and Space does not also start the player).
      onKeyDown={
        onClick
          ? (e) => {
              if (e.key !== 'Enter' && e.key !== ' ') return;
              e.preventDefault();
              e.stopPropagation();
              onClick();
            }
          : undefined
      }
      data-term={term}
      data-mark={mark ?? undefined}
    >
      {mark === 'added' ? (
        <span className="chip-sign">+</span>
      ) : mark === 'removed' ? (
        <span className="chip-sign">−</span>
      ) : null}
      {parsed.ok ? null : <span className="chip-warn">⚠</span>}
      {body}
      {badge ? <sup className="chip-badge">{badge}</sup> : null}
    </span>
  );
}
