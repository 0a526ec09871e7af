// An agent's turns and a memory event, sent with @mnemoscope/sdk; then what the curator decided.
// MNEMOSCOPE_URL and MNEMOSCOPE_API_KEY come from the environment.
import { Mnemoscope } from '@mnemoscope/sdk';

const mnemo = new Mnemoscope();
const session = mnemo.acc({ id: 'quickstart', agent: 'disk-bot', title: 'Disk alarm on db-2' });
session.turn({
  input: 'Disk 91% on db-2',
  output: 'Looking at WAL retention.',
  ccs: { goal_orientation: ['free(disk)'], focal_entities: ['host(db-2)'] },
});
session.turn({
  input: 'WAL is 40 GB',
  output: 'Lowering wal_keep_size.',
  ccs: 'goal_orientation: free(disk)\nconstraints: no_restart(db)',
});
const eventId = mnemo.curator({ sourceAgent: 'disk-bot', taskId: 'DISK-1' }).emit({
  memory_kind: 'fact',
  content: 'The storage team owns WAL retention settings on the db fleet.',
  suggested_scope: 'team_memory',
  evidence_refs: ['message:DISK-1'],
  confidence: 'high',
});
// Team memory waits for a reviewer: pass { timeoutMs } to wait for the decision.
const decision = await mnemo.decision(eventId);
console.log(`memory event ${decision?.disposition} (final: ${decision?.final})`);
const stats = await mnemo.shutdown();
const { accepted, duplicates, rejected, dropped } = stats;
console.log(`accepted ${accepted}, already stored ${duplicates}, rejected ${rejected}, dropped ${dropped}`);
