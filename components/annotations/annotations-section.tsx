'use client';

import type { AnnotationFilter } from '@/lib/annotations/contract';
import { AnnotationList } from './annotation-list';
import { useAnnotate, type TargetOption } from './store';

/** A proposal's or an entry's annotations under its detail, with the button that adds one (or the key `n`). */
export function AnnotationsSection({
  option,
  filter,
  keyHint = false,
}: {
  option: TargetOption;
  filter: AnnotationFilter;
  /** The page opens the dialog with `n` too (the inbox). */
  keyHint?: boolean;
}) {
  const show = useAnnotate((a) => a.show);
  return (
    <section className="annotations-section" aria-label="Annotations" data-testid="annotations-section">
      <div className="toolbar" style={{ justifyContent: 'space-between', marginBottom: 4 }}>
        <h3 style={{ margin: 0 }}>Annotations</h3>
        <button type="button" className="btn btn-small" onClick={() => show([option])}>
          {keyHint ? (
            <>
              Annotate <kbd>n</kbd>
            </>
          ) : (
            'Annotate…'
          )}
        </button>
      </div>
      <AnnotationList filter={filter} empty="No scores or comments yet." />
    </section>
  );
}
