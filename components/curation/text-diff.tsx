import { textDiff } from '@/lib/curation/text-diff';
import { MemoryText } from '@/components/ui/memory-text';

/** Before → after, word by word, as text (never HTML): removed words struck, added ones marked. */
export function TextDiff({ before, after }: { before: string; after: string }) {
  return (
    <span data-testid="text-diff">
      {textDiff(before, after).map((p, i) =>
        p.op === 'same' ? (
          <MemoryText key={i} text={p.text} />
        ) : (
          <span key={i} className={p.op === 'add' ? 'diff-add' : 'diff-del'}>
            <MemoryText text={p.text} />
          </span>
        ),
      )}
    </span>
  );
}
