import Link from 'next/link';
import { Panel } from '@/components/ui/panel';
import { EmptyState } from '@/components/ui/states';
import { SubstrateCrumbs, SubstrateTabs } from './tabs';

/**
 * A page of an agent whose substrate is known (an action log, dead ends, documents) but whose field state is not
 * stored: said, with what would add it and where its other parts are, instead of "No such agent".
 */
export function NoFieldState({ agent, page }: { agent: string; page: 'Torus field' | 'Audit' }) {
  const base = `/substrate/${encodeURIComponent(agent)}`;
  return (
    <>
      <SubstrateCrumbs agent={agent} page={page === 'Audit' ? page : undefined} />
      <div className="page-head">
        <div>
          <h1>{page}</h1>
          <div className="sub">No field state stored</div>
        </div>
      </div>
      <SubstrateTabs agent={agent} />
      <Panel as="div" body={false} testId="no-field-state">
        <EmptyState title={`No field state of “${agent}” yet`}>
          Its other parts are stored (see <Link href={`${base}/judgment`}>Judgment</Link> and{' '}
          <Link href={`${base}/dead-ends`}>Dead ends</Link>), but not the torus field this page is drawn from. Import
          its <code>ucs/state/torusfield_state.json</code> or <code>snapshots/</code> in{' '}
          <Link href="/settings">Settings → Import files</Link> (naming the agent), or the whole workspace with{' '}
          <code>npx mnemoscope import path/to/workspace</code>.
        </EmptyState>
      </Panel>
    </>
  );
}
