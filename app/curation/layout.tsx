import type { ReactNode } from 'react';
import { CurationTabs } from '@/components/curation/tabs';

export default function CurationLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Curation</h1>
          <div className="sub">
            Worker agents propose memory; the curator decides what it may and queues the rest for you. Nothing is ever
            deleted.
          </div>
        </div>
      </div>
      <CurationTabs />
      {children}
    </>
  );
}
