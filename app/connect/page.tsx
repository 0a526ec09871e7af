import { readFileSync } from 'node:fs';
import path from 'node:path';
import Link from 'next/link';
import { headers } from 'next/headers';
import { CodeBlock } from '@/components/connect/code-block';
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

export default async function ConnectPage() {
  const h = await headers();
  const origin = `${h.get('x-forwarded-proto') ?? 'http'}://${h.get('host') ?? '127.0.0.1:3000'}`;
  const otel = `# Any OpenTelemetry SDK, exporting OTLP/HTTP (protobuf or JSON, gzip or not)
OTEL_EXPORTER_OTLP_ENDPOINT=${origin}/api/v1/otel
OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer $MNEMOSCOPE_API_KEY"

# On the span of each agent turn (GenAI conventions are read too):
#   mnemoscope.turn            = 3                      (makes the span a turn)
#   gen_ai.conversation.id     = "run-42"               (or mnemoscope.session_id)
#   gen_ai.input.messages / gen_ai.output.messages      (or mnemoscope.input / .output)
#   mnemoscope.ccs             = '{"goal_orientation": ["restore(checkout)"]}'
#   mnemoscope.recalled / mnemoscope.qualified = ["rb1"]
#   mnemoscope.utility, mnemoscope.hallucination, mnemoscope.drift
# Span events: "mnemoscope.memory_event" {event: <JSON>}, "mnemoscope.artifact" {id, content, kind}`;
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
        <section className="panel">
          <div className="panel-head">TypeScript SDK</div>
          <div className="panel-body">
            <p className="muted" style={{ margin: 0 }}>
              Batches in the background, retries with backoff, never blocks or throws into the agent; a bounded buffer
              drops the oldest records (and counts them) while the server is down. Runnable example:{' '}
              <code>npm run example:agent</code>.
            </p>
            <CodeBlock
              label="shell"
              code={[
                '# in a checkout of Mnemoscope: build and pack @mnemoscope/sdk',
                'npm run sdk:build && (cd sdk/typescript && npm pack)',
                "# in the agent's project",
                'npm install /path/to/mnemoscope/sdk/typescript/mnemoscope-sdk-0.1.0.tgz',
              ].join('\n')}
            />
            <CodeBlock
              label="sdk/typescript/examples/quickstart.ts"
              code={example('typescript/examples/quickstart.ts', origin)}
            />
          </div>
        </section>
        <section className="panel">
          <div className="panel-head">MCP server</div>
          <div className="panel-body">
            <p className="muted" style={{ margin: 0 }}>
              Streamable HTTP at <code>{origin}/api/v1/mcp</code>, stateless, authenticated with the API key (a request
              without one gets 401 with <code>WWW-Authenticate: Bearer</code>). Tools:
            </p>
            <dl className="tool-list">
              {Object.entries(MCP_TOOL_DOCS).map(([name, doc]) => (
                <div key={name} style={{ display: 'contents' }}>
                  <dt>{name}</dt>
                  <dd>{doc}</dd>
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
          </div>
        </section>
        <section className="panel">
          <div className="panel-head">OpenTelemetry</div>
          <div className="panel-body">
            <p className="muted" style={{ margin: 0 }}>
              Agents already traced with OpenTelemetry add a few span attributes; other spans are ignored. The answer is
              OTLP&apos;s, with <code>partialSuccess</code> naming each refused span and why.
            </p>
            <CodeBlock label="environment and attributes" code={otel} />
          </div>
        </section>
        <section className="panel">
          <div className="panel-head">curl</div>
          <div className="panel-body">
            <p className="muted" style={{ margin: 0 }}>
              <code>POST /api/v1/ingest</code> takes NDJSON (or a JSON array) of <code>{'{"type", "data"}'}</code>{' '}
              envelopes and answers one result per record; 207 when some were rejected, each with the field and the
              reason.
            </p>
            <CodeBlock label="sdk/examples/ingest.sh" code={example('examples/ingest.sh', origin)} />
          </div>
        </section>
        <section className="panel">
          <div className="panel-head">Python SDK (standard library only)</div>
          <div className="panel-body">
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
          </div>
        </section>
        <section className="panel">
          <div className="panel-head">Record types and schemas</div>
          <div className="panel-body">
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
          </div>
        </section>
        <section className="panel">
          <div className="panel-head">Move a project (e.g. to PostgreSQL)</div>
          <div className="panel-body">
            <p className="muted" style={{ margin: 0 }}>
              One file holds sessions, memory entries with their history, curation records and UCS data; importing it
              into an empty instance and exporting again gives the same file.
            </p>
            <CodeBlock label="shell" code={migrate} />
          </div>
        </section>
      </div>
    </>
  );
}
