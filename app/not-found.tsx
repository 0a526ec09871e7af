import Link from 'next/link';
import { EmptyState } from '@/components/ui/states';

export default function NotFound() {
  return (
    <div className="panel" data-testid="not-found">
      <EmptyState title="Not found">
        There is nothing stored here. It may belong to another project, or it has not been ingested yet.{' '}
        <Link href="/sessions">Back to sessions</Link>
      </EmptyState>
    </div>
  );
}
