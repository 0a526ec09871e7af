/**
 * An example agent: replays a scripted incident (checkout 504s after a certificate rotation) through
 * the SDK into a running Mnemoscope, as the three producers would send it — an ACC loop (turns with
 * their CCS, recalled and qualified artifacts), a curator emitter (memory events) and a UCS bridge
 * (field snapshots, index with a dead end, action log).
 *
 *   MNEMOSCOPE_URL=http://127.0.0.1:3000 MNEMOSCOPE_API_KEY=… npm run example:agent [-- session-id]
 *
 * Exits 1 if the server refused or lost any record. Running it twice stores nothing new (every record
 * has a stable id), which is the point of idempotent ingest.
 */
import { Mnemoscope } from '../typescript/index';

const argv = (globalThis as { process?: { argv: string[] } }).process?.argv ?? [];
const SESSION = argv[2] ?? 'example-checkout-504';
const AGENT = 'sre-copilot';

const mnemo = new Mnemoscope({ flushIntervalMs: 200 });

// ------------------------------------------------------------------ the external artifact store
const session = mnemo.acc({
  id: SESSION,
  agent: AGENT,
  title: 'Checkout 504s after the payments gateway certificate rotation',
  domain: 'it_ops',
});
const runbook = session.artifact({
  id: `${SESSION}/runbook-gateway-tls`,
  kind: 'runbook',
  content:
    'Payments gateway TLS: the client trust bundle lives in /etc/checkout/ca.pem and is reloaded only on ' +
    'restart of checkout-api.',
  created_turn: 0,
});
const dashboard = session.artifact({
  id: `${SESSION}/dash-checkout-latency`,
  kind: 'observation',
  content:
    'checkout-api p99 latency 30 s (timeout) since 14:02 UTC; 504 rate 38 %; payments-gateway healthy from its ' +
    'own probes.',
  created_turn: 0,
});
const postmortem = session.artifact({
  id: `${SESSION}/pm-2025-tls`,
  kind: 'postmortem',
  content:
    'Postmortem 2025-03: after a CA rotation checkout kept the old bundle in memory; fix was a rolling restart, ' +
    'follow-up was hot reload (never shipped).',
  created_turn: 0,
});

// ------------------------------------------------------------------ the ACC loop
type Step = {
  input: string;
  output: string;
  ccs: Record<string, string[]>;
  recalled?: string[];
  qualified?: string[];
  h?: number;
  d?: number;
};
const steps: Step[] = [
  {
    input: 'PagerDuty: checkout-api 504 rate above 30 % for 5 minutes.',
    output: 'Acknowledged. Checking the checkout latency dashboard and recent changes.',
    ccs: {
      episodic_trace: ['alert(checkout_504, 38pct)'],
      semantic_gist: ['checkout_timeouts'],
      focal_entities: ['checkout-api', 'payments-gateway'],
      goal_orientation: ['restore(checkout)'],
      constraints: ['no_data_loss'],
      uncertainty_signal: ['cause_unknown'],
    },
    recalled: [dashboard],
    qualified: [dashboard],
    h: 0.05,
    d: 0.0,
  },
  {
    input: 'Change log: payments-gateway rotated its TLS certificate to the new CA at 14:00 UTC.',
    output: 'The 504s began two minutes after the rotation. Hypothesis: checkout still trusts only the old CA.',
    ccs: {
      episodic_trace: ['alert(checkout_504)', 'change(gateway_ca_rotation, 14:00)'],
      semantic_gist: ['tls_trust_mismatch'],
      focal_entities: ['checkout-api', 'payments-gateway', 'ca.pem'],
      relational_map: ['checkout-api -> payments-gateway'],
      goal_orientation: ['restore(checkout)'],
      predictive_cue: ['handshake_failures_in_logs'],
      uncertainty_signal: ['hypothesis(old_ca_trusted)'],
    },
    recalled: [dashboard, postmortem],
    qualified: [postmortem],
    h: 0.08,
    d: 0.12,
  },
  {
    input: 'checkout-api logs: "x509: certificate signed by unknown authority" on every call to payments-gateway.',
    output: 'Confirmed: checkout rejects the new certificate. The runbook says the bundle is read only at start.',
    ccs: {
      episodic_trace: ['change(gateway_ca_rotation)', 'log(x509_unknown_authority)'],
      semantic_gist: ['tls_trust_mismatch_confirmed'],
      focal_entities: ['checkout-api', 'ca.pem'],
      relational_map: ['ca.pem -> checkout-api(start_only)'],
      goal_orientation: ['restore(checkout)'],
      constraints: ['no_data_loss', 'rolling_only'],
      uncertainty_signal: ['low'],
    },
    recalled: [runbook, postmortem],
    qualified: [runbook],
    h: 0.03,
    d: 0.2,
  },
  {
    input: 'Try hot-reloading the trust bundle with SIGHUP?',
    output:
      'SIGHUP is ignored by checkout-api for TLS (hot reload was never shipped, per the 2025 postmortem). Not ' +
      'retrying it.',
    ccs: {
      episodic_trace: ['log(x509_unknown_authority)', 'attempt(sighup_reload, failed)'],
      semantic_gist: ['hot_reload_unsupported'],
      focal_entities: ['checkout-api'],
      goal_orientation: ['restore(checkout)'],
      constraints: ['rolling_only'],
      uncertainty_signal: ['low'],
    },
    recalled: [postmortem],
    qualified: [postmortem],
    h: 0.02,
    d: 0.22,
  },
  {
    input: 'Deploy the new CA bundle to /etc/checkout/ca.pem and do a rolling restart of checkout-api.',
    output: 'Bundle deployed; rolling restart 6/6 pods done. 504 rate falling: 38 % → 4 %.',
    ccs: {
      episodic_trace: ['fix(bundle_deployed)', 'restart(rolling, 6_of_6)'],
      semantic_gist: ['recovery_in_progress'],
      focal_entities: ['checkout-api', 'ca.pem'],
      goal_orientation: ['confirm_recovery'],
      constraints: ['rolling_only'],
      predictive_cue: ['504_rate_to_zero'],
      uncertainty_signal: ['low'],
    },
    recalled: [runbook],
    qualified: [runbook],
    h: 0.02,
    d: 0.3,
  },
  {
    input: 'Status after 10 minutes?',
    output:
      '504 rate 0 %, p99 310 ms. Incident resolved; follow-up: ship trust-bundle hot reload and alert on CA rotations.',
    ccs: {
      episodic_trace: ['recovered(504_rate_0)'],
      semantic_gist: ['resolved(tls_trust_mismatch)'],
      focal_entities: ['checkout-api'],
      goal_orientation: ['follow_up(hot_reload)', 'follow_up(rotation_alert)'],
      uncertainty_signal: ['none'],
    },
    recalled: [dashboard],
    qualified: [dashboard],
    h: 0.01,
    d: 0.32,
  },
];
for (const s of steps)
  session.turn({
    input: s.input,
    output: s.output,
    ccs: s.ccs,
    recalled: s.recalled,
    qualified: s.qualified,
    hallucination: s.h,
    drift: s.d,
    footprint: { ccs: 180 + (20 * s.input.length) / 10, transcript: 400 * (steps.indexOf(s) + 1) },
  });

// ------------------------------------------------------------------ the curator emitter
const curator = mnemo.curator({ sourceAgent: AGENT, taskId: `INC-${SESSION}` });
const ids = [
  curator.emit({
    event_id: `memevt_${SESSION.replace(/[^A-Za-z0-9_-]/g, '_')}_bundle`,
    memory_kind: 'procedure',
    content:
      'After a payments gateway CA rotation, deploy the new bundle to /etc/checkout/ca.pem and rolling-restart ' +
      'checkout-api; it reads the bundle only at start.',
    suggested_scope: 'project',
    confidence: 'high',
    evidence_refs: ['file:/etc/checkout/ca.pem', 'message:INC-checkout-504'],
  }),
  curator.emit({
    event_id: `memevt_${SESSION.replace(/[^A-Za-z0-9_-]/g, '_')}_sighup`,
    memory_kind: 'fact',
    content: 'checkout-api ignores SIGHUP for TLS settings; hot reload of the trust bundle is not implemented.',
    suggested_scope: 'team_memory',
    confidence: 'high',
    evidence_refs: ['url:https://wiki.example.com/postmortems/2025-03-tls'],
  }),
  curator.emit({
    event_id: `memevt_${SESSION.replace(/[^A-Za-z0-9_-]/g, '_')}_token`,
    memory_kind: 'fact',
    content: 'The gateway admin token used during the incident was api_key=sk_live_51HxExampleExampleExample0000.',
    suggested_scope: 'project',
    sensitivity: 'confidential',
    confidence: 'medium',
    evidence_refs: ['message:INC-checkout-504'],
  }),
];

// ------------------------------------------------------------------ the UCS bridge
const ucs = mnemo.ucs(`${AGENT}-ucs`);
const TH = 12;
const PH = 16;
const field = (t: number, cx: number, cy: number, amp: number) =>
  Array.from({ length: TH * PH }, (_, i) => {
    const a = Math.floor(i / PH);
    const b = i % PH;
    const da = Math.min(Math.abs(a - cx), TH - Math.abs(a - cx));
    const db = Math.min(Math.abs(b - cy), PH - Math.abs(b - cy));
    return Number((amp * Math.exp(-(da * da + db * db) / (6 + t / 10))).toFixed(4));
  });
for (const t of [0, 10, 20, 30]) {
  ucs.state({
    version: 'torusfield_kernel.v0.2.1',
    state: {
      theta_bins: TH,
      phi_bins: PH,
      t,
      fields: {
        energy: field(t, 3 + t / 10, 4 + t / 5, 1),
        memory: field(t, 6, 8, 0.2 + t / 50),
        salience: field(t, 9 - t / 10, 12, 0.8),
      },
    },
    pp: {
      truth: 0.3 + t / 100,
      trust: 0.4 + t / 120,
      resilience: 0.5,
      throughput: 0.6,
      capacity: 0.2,
      optionality: 0.25,
    },
  });
  ucs.action({
    t,
    action: t === 20 ? 'dead_end' : t === 30 ? 'methodology' : 'consult',
    timestamp: new Date(Date.UTC(2026, 10, 21, 14, t)).toISOString(),
  });
}
ucs.index({
  dead_end_entries: [
    {
      id: 'de-sighup-tls',
      date: '2026-11-21',
      topic: 'SIGHUP hot reload of the checkout trust bundle',
      why_closed: 'checkout-api ignores SIGHUP for TLS; tried once during INC checkout-504',
      reopen_conditions: 'checkout-api ships trust bundle hot reload',
      capabilities: ['exec'],
      keywords: ['sighup', 'tls', 'reload'],
    },
  ],
  methodology_entries: [
    {
      id: 'me-ca-rotation',
      date: '2026-11-21',
      summary: 'On CA rotation: deploy bundle, rolling restart, watch 504 rate',
      source: 'INC checkout-504',
    },
  ],
});

const stats = await mnemo.shutdown(15_000);
console.log(
  `session ${SESSION}: ${steps.length} turns, ${ids.length} memory events, 4 field ` +
    `snapshots ` +
    `→ ` +
    `accepted ${stats.accepted}, already stored ${stats.duplicates}, ` +
    `rejected ${stats.rejected + stats.invalid}, ` +
    `dropped ${stats.dropped} (${stats.requests} requests, ${stats.retries} retries)`,
);
if (stats.rejected || stats.invalid || stats.dropped) {
  console.error(`mnemoscope: not everything arrived${stats.lastError ? `: ${stats.lastError}` : ''}`);
  (globalThis as { process?: { exitCode?: number } }).process!.exitCode = 1;
}
