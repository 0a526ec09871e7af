'use client';

import { ErrorBox } from '@/components/ui/states';

export default function Error({ error, reset }: { error: Error; reset: () => void }) {
  return (
    <div style={{ display: 'grid', gap: 10 }}>
      <ErrorBox error={error} />
      <div>
        <button className="btn" type="button" onClick={reset}>
          Try again
        </button>
      </div>
    </div>
  );
}
