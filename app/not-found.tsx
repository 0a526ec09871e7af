import Link from 'next/link';
import { Panel } from '@/components/ui/panel';
import { EmptyState } from '@/components/ui/states';

export default function NotFound() {
  return (
    <Panel as="div" testId="not-found" body={false}>
      <EmptyState title="Not found">
        There is nothing stored here. It may belong to another project, or it has not been ingested yet. Back to{' '}
        <Link href="/sessions">Sessions</Link>, <Link href="/substrate">Substrate</Link> or{' '}
        <Link href="/curation">Curation</Link>.
      </EmptyState>
    </Panel>
  );
}
