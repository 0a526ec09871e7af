import { Suspense } from 'react';
import { HygieneLab } from '@/components/hygiene/lab';

export const metadata = { title: 'Memory hygiene lab' };

export default function HygienePage() {
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Memory hygiene lab</h1>
          <div className="sub">
            What the agent keeps: which memory items it follows, which mislead it, how errors spread, and what each
            deletion, consolidation and addition policy would keep
          </div>
        </div>
      </div>
      <Suspense>
        <HygieneLab />
      </Suspense>
    </>
  );
}
