import { ApiKeys } from '@/components/settings/api-keys';
import { DatabaseInfo } from '@/components/settings/database-info';
import { ImportFiles } from '@/components/settings/import-files';
import { RecallModel } from '@/components/settings/recall-model';
import { Members } from '@/components/settings/members';
import { ScoreDefinitions } from '@/components/settings/score-definitions';
import { Webhooks } from '@/components/settings/webhooks';

export const metadata = { title: 'Settings' };

export default function SettingsPage() {
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Settings</h1>
          <div className="sub">API keys, storage, imports, members, scores, webhooks and the recall model</div>
        </div>
      </div>
      <div style={{ display: 'grid', gap: 14 }}>
        <ApiKeys />
        <div className="grid-2">
          <ImportFiles />
          <DatabaseInfo />
        </div>
        <Members />
        <ScoreDefinitions />
        <Webhooks />
        <RecallModel />
      </div>
    </>
  );
}
