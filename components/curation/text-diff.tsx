import { Fragment } from 'react';
import { gapBefore, textDiff } from '@/lib/curation/text-diff';
import { MemoryText } from '@/components/ui/memory-text';

/** Before → after, word by word, as text (never HTML): removed words struck, added ones marked. */
export function TextDiff({ before, after }: { before: string; after: string }) {
  const parts = textDiff(before, after);
  return (
    <span data-testid="text-diff">
      {parts.map((p, i) => (
        <Fragment key={i}>
          {gapBefore(parts[i - 1], p) ? ' ' : null}
          {p.op === 'same' ? (
            <MemoryText text={p.text} />
          ) : (
            <span className={p.op === 'add' ? 'diff-add' : 'diff-del'}>
              <MemoryText text={p.text} />
            </span>
          )}
        </Fragment>
      ))}
    </span>
  );
}
