import { readFileSync } from 'node:fs';
import path from 'node:path';
import Link from 'next/link';
import { headers } from 'next/headers';
import { CodeBlock } from '@/components/ui/code-block';
import { ExampleTabs, type ExampleTab } from '@/components/connect/example-tabs';
import { Panel } from '@/components/ui/panel';
import { RECORD_TYPES } from '@/lib/ingest/contract';
import { mcpClientConfigs } from '@/lib/mcp/clients';
import { MCP_TOOL_DOCS } from '@/lib/mcp/tools';

export const metadata = { title: 'Connect an agent' };
export const dynamic = 'force-dynamic';

/** The examples CI runs against a live server, shown as they are. */
/** An example script as shipped, pointed at this server (the files default to http://127.0.0.1:3000). */
const example = (name: string, origin: string) =>
  readFileSync(path.join(/*turbopackIgnore: true*/ process.cwd(), 'sdk', name), 'utf8').replaceAll(
    'http://127.0.0.1:3000',
    origin,
  );

/**
 * The environment every OTLP exporter reads (the OpenTelemetry specification's variables); the protocol for an example
 * that picks its exporter by it (one that imports a single exporter sends that exporter's encoding whatever it says).
 */
const otlpEnv = (origin: string, protocol = false) =>
  [
    `export OTEL_EXPORTER_OTLP_ENDPOINT=${origin}/api/v1/otel`,
    'export OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer $MNEMOSCOPE_API_KEY"',
    ...(protocol ? ['export OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf   # or http/json'] : []),
  ].join('\n');

/** The ways in for agents that are traced already, each with the example file the tests run. */
function tracedTabs(origin: string): ExampleTab[] {
  const run = (file: string, extra = '', protocol = true) => `${otlpEnv(origin, protocol)}${extra}\nnpx tsx ${file}`;
  const openai = '\nexport OPENAI_API_KEY=…   # or OPENAI_BASE_URL=… of any OpenAI-compatible server';
  return [
    {
      id: 'otel-js',
      label: 'OpenTelemetry JS',
      intro: (
        <>
          The official SDK and the GenAI semantic conventions: <code>invoke_agent</code> spans are turns,{' '}
          <code>chat</code> and <code>execute_tool</code> spans below them their calls.
        </>
      ),
      blocks: [
        { label: 'shell', code: run('sdk/examples/otel/genai-agent.ts', '', false) },
        { label: 'sdk/examples/otel/genai-agent.ts', code: example('examples/otel/genai-agent.ts', origin) },
      ],
    },
    {
      id: 'otel-python',
      label: 'Python (protobuf)',
      intro: (
        <>
          Python&apos;s OTLP/HTTP exporter sends protobuf (this server takes protobuf and JSON alike). The one example
          here the tests do not run (they cannot install Python packages): the requests it makes are the protobuf ones
          of the OpenTelemetry JS example, which they do run.
        </>
      ),
      blocks: [
        {
          label: 'shell',
          code: [
            'pip install opentelemetry-sdk opentelemetry-exporter-otlp-proto-http',
            otlpEnv(origin),
            'python sdk/examples/otel/genai_agent.py',
          ].join('\n'),
        },
        { label: 'sdk/examples/otel/genai_agent.py', code: example('examples/otel/genai_agent.py', origin) },
      ],
    },
    {
      id: 'openinference',
      label: 'OpenInference',
      intro: (
        <>
          Arize Phoenix&apos;s conventions: the OpenAI instrumentation for LLM calls, <code>traceAgent</code> and{' '}
          <code>traceTool</code> for the agent and its tools, <code>setSession</code> for the session.
        </>
      ),
      blocks: [
        { label: 'shell', code: run('sdk/examples/otel/openinference-agent.ts', openai) },
        {
          label: 'sdk/examples/otel/openinference-agent.ts',
          code: example('examples/otel/openinference-agent.ts', origin),
        },
      ],
    },
    {
      id: 'openllmetry',
      label: 'OpenLLMetry',
      intro: (
        <>
          Traceloop&apos;s OpenAI instrumentation (GenAI attributes on each <code>chat</code> span) under the
          conventions&apos; agent and tool spans. Without tool spans, the tools the model asked for are read from its
          messages.
        </>
      ),
      blocks: [
        { label: 'shell', code: run('sdk/examples/otel/openllmetry-agent.ts', openai) },
        {
          label: 'sdk/examples/otel/openllmetry-agent.ts',
          code: example('examples/otel/openllmetry-agent.ts', origin),
        },
      ],
    },
    {
      id: 'langgraph',
      label: 'LangGraph',
      intro: LANGGRAPH_INTRO,
      blocks: [
        { label: 'shell', code: `MNEMOSCOPE_URL=${origin} MNEMOSCOPE_API_KEY=… npx tsx ${LANGGRAPH_EXAMPLE}` },
        { label: LANGGRAPH_EXAMPLE, code: example(LANGGRAPH_EXAMPLE.replace(/^sdk\//, ''), origin) },
      ],
    },
    {
      id: 'attributes',
      label: 'Mnemoscope attributes',
      intro: (
        <>
          What the conventions lack (the CCS, recalled and qualified artifacts, H<sub>t</sub>, D<sub>t</sub>) as span
          attributes on the turn&apos;s span, or on any span to make it a turn with an explicit number.
        </>
      ),
      blocks: [{ label: 'environment and attributes', code: OTEL_ATTRIBUTES.replaceAll('ORIGIN', origin) }],
    },
  ];
}

const LANGGRAPH_EXAMPLE = 'sdk/typescript/examples/langgraph.ts';
const LANGGRAPH_INTRO = (
  <>
    A graph&apos;s checkpoints (its state history) recorded as a session by the TypeScript SDK: every super-step a turn,
    the graph state as the turn&apos;s state, with the node that ran, messages in and out, pending writes and
    interrupts.
  </>
);

const OTEL_ATTRIBUTES = `# Any OpenTelemetry SDK, exporting OTLP/HTTP (protobuf or JSON, gzip or not)
# Traces only (they arrive at POST ORIGIN/api/v1/otel/v1/traces): metrics and logs exporters off.
OTEL_EXPORTER_OTLP_ENDPOINT=ORIGIN/api/v1/otel
OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer $MNEMOSCOPE_API_KEY"
OTEL_METRICS_EXPORTER=none
OTEL_LOGS_EXPORTER=none

# On the span of each agent turn (GenAI conventions are read too):
#   mnemoscope.turn            = 3                      (makes the span a turn)
#   gen_ai.conversation.id     = "run-42"               (or mnemoscope.session_id)
#   gen_ai.input.messages / gen_ai.output.messages      (or mnemoscope.input / .output)
#   mnemoscope.ccs             = '{"goal_orientation": ["restore(checkout)"]}'
#   mnemoscope.recalled / mnemoscope.qualified = ["rb1"]
#   mnemoscope.utility, mnemoscope.hallucination, mnemoscope.drift
# Span events: "mnemoscope.memory_event" {event_id, kind, content, suggested_scope, confidence,
#                evidence_refs: ["commit:4b1e9a2"]} (or {event: <the event as JSON>}),
#              "mnemoscope.artifact" {id, content, kind}`;

export default async function ConnectPage() {
  const h = await headers();
  const origin = `${h.get('x-forwarded-proto') ?? 'http'}://${h.get('host') ?? '127.0.0.1:3000'}`;
  const migrate = `# 1. On the running embedded instance: write the project to one file
MNEMOSCOPE_API_KEY=$OLD_KEY npx mnemoscope export-project --out project.ndjson.gz --url ${origin}

# 2. Start an empty instance on PostgreSQL (another port while both run)
DATABASE_URL=postgres://user:pass@db:5432/mnemoscope MNEMOSCOPE_DEMO=0 MNEMOSCOPE_API_KEY=$NEW_KEY PORT=3001 npm start

# 3. Load the file into it: all or nothing, refused if the project already holds data
MNEMOSCOPE_API_KEY=$NEW_KEY npx mnemoscope import-project project.ndjson.gz --url http://127.0.0.1:3001`;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Connect an agent</h1>
          <div className="sub">
            The TypeScript and Python SDKs, MCP, OpenTelemetry, or plain HTTP from any language. Every request carries
            an API key (<Link href="/settings">Settings → API keys</Link>
            ); records carry their own ids, so a retry never stores anything twice.
          </div>
        </div>
      </div>
      <div className="connect-grid">
        <Panel title="TypeScript SDK">
          <p className="muted" style={{ margin: 0 }}>
            Batches in the background, retries with backoff, never blocks or throws into the agent; a bounded buffer
            drops the oldest records (and counts them) while the server is down. Runnable example, in a checkout:{' '}
            <code>MNEMOSCOPE_URL={origin} MNEMOSCOPE_API_KEY=… npm run example:agent</code>.
          </p>
          <CodeBlock
            label="shell"
            code={[
              '# in a checkout of Mnemoscope: build and pack @mnemoscope/sdk',
              'npm run sdk:build && (cd sdk/typescript && npm pack)',
              "# in the agent's project: the SDK, and tsx to run TypeScript",
              'npm install /path/to/mnemoscope/sdk/typescript/mnemoscope-sdk-0.1.0.tgz',
              'npm install --save-dev tsx',
              '# the quickstart below saved as quickstart.mts (an ES module: it awaits at its top level)',
              `MNEMOSCOPE_URL=${origin} MNEMOSCOPE_API_KEY=… npx tsx quickstart.mts`,
            ].join('\n')}
          />
          <CodeBlock
            label="sdk/typescript/examples/quickstart.ts"
            code={example('typescript/examples/quickstart.ts', origin)}
          />
        </Panel>
        <Panel title="MCP server">
          <p className="muted" style={{ margin: 0 }}>
            Streamable HTTP at <code>{origin}/api/v1/mcp</code>, stateless, authenticated with the API key (a request
            without one gets 401 with <code>WWW-Authenticate: Bearer</code>). Tools:
          </p>
          <dl className="tool-list">
            {Object.entries(MCP_TOOL_DOCS).map(([name, doc]) => (
              <div key={name} style={{ display: 'contents' }}>
                <dt>{name}</dt>
                <dd>
                  {/* The docs are written for MCP clients, `code` in backticks: shown as code here. */}
                  {doc.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part))}
                </dd>
              </div>
            ))}
          </dl>
          {mcpClientConfigs(origin).map((c) => (
            <div key={c.client} data-testid={`mcp-${c.client}`}>
              <p className="muted" style={{ margin: '10px 0 0' }}>
                <b>{c.title}</b>: {c.note}
              </p>
              <CodeBlock label={c.file} code={JSON.stringify(c.config, null, 2)} />
            </div>
          ))}
        </Panel>
        <Panel
          className="connect-wide"
          labelledBy="connect-otel"
          id="connect-otel"
          title="Agents already traced: OpenTelemetry, OpenInference, OpenLLMetry, LangGraph"
        >
          <p className="muted" style={{ margin: 0 }}>
            Send the traces you already have to <code>{origin}/api/v1/otel</code> (OTLP/HTTP, protobuf or JSON, gzip or
            not): each agent invocation becomes a turn with its input, output, LLM and tool calls, tokens, cost and
            latency; the session is the conventions&apos; conversation or session id. Nothing Mnemoscope-specific in the
            agent. The answer is OTLP&apos;s, with <code>partialSuccess</code> naming each refused span and why. The
            tests run each example below against a live server, but for Python&apos;s.
          </p>
          <ExampleTabs label="Ways in" tabs={tracedTabs(origin)} />
        </Panel>
        <Panel title="curl">
          <p className="muted" style={{ margin: 0 }}>
            <code>POST /api/v1/ingest</code> takes NDJSON (or a JSON array) of <code>{'{"type", "data"}'}</code>{' '}
            envelopes and answers one result per record; 207 when some were rejected, each with the field and the
            reason.
          </p>
          <CodeBlock label="sdk/examples/ingest.sh" code={example('examples/ingest.sh', origin)} />
        </Panel>
        <Panel title="Python SDK (standard library only)">
          <p className="muted" style={{ margin: 0 }}>
            The same background batching, retries and decisions as the TypeScript SDK; typed, no dependencies.
          </p>
          <CodeBlock
            label="shell"
            code={[
              '# from a checkout of Mnemoscope',
              'pip install ./sdk/python',
              `MNEMOSCOPE_URL=${origin} MNEMOSCOPE_API_KEY=… python sdk/python/examples/triage_agent.py`,
            ].join('\n')}
          />
          <CodeBlock
            label="sdk/python/examples/triage_agent.py"
            code={example('python/examples/triage_agent.py', origin)}
          />
        </Panel>
        <Panel title="Record types and schemas">
          <p className="muted" style={{ marginTop: 0 }}>
            JSON Schemas (draft 2020-12) of the envelope and of <code>data</code> for every type:{' '}
            <a href="/api/v1/schema">/api/v1/schema</a>.
          </p>
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 6 }}>
            {RECORD_TYPES.map((t) => (
              <span key={t} className="badge mono">
                {t}
              </span>
            ))}
          </div>
        </Panel>
        <Panel title="Move a project (e.g. to PostgreSQL)">
          <p className="muted" style={{ margin: 0 }}>
            One file holds sessions, memory entries with their history, curation records and UCS data; importing it into
            an empty instance and exporting again gives the same file.
          </p>
          <CodeBlock label="shell" code={migrate} />
        </Panel>
      </div>
    </>
  );
}
