import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TurnCall, TurnUsage } from '@/lib/otel/otlp';
import { startWeatherModel } from '../sdk/examples/otel/weather-model';
import { launchPage } from './browser';
import { open } from './page';
import { exportedTurns } from './export';

/**
 * Agents traced only with standard conventions, by real instrumentation packages, exporting through the official
 * OTLP exporters (sdk/examples/otel/, the files the Connect page shows): each becomes a session of turns with their
 * inputs, outputs, LLM and tool calls and token totals, in the API and in Chromium. Between the exporter and the
 * server sits a recorder, so the very same requests can be sent again (as an exporter's retry would): nothing new.
 */
const servers = inject('servers');
const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
let browser: Browser;
let page: Page;
let model: Awaited<ReturnType<typeof startWeatherModel>>;

beforeAll(async () => {
  ({ browser, page } = await launchPage());
  model = await startWeatherModel();
});
afterAll(async () => {
  await browser?.close();
  await model?.close();
});

interface Recorded {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** A pass-through to the server that keeps every request, for sending them again. */
async function recorder(target: string) {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const h of ['content-type', 'content-encoding', 'authorization'])
        if (typeof req.headers[h] === 'string') headers[h] = req.headers[h] as string;
      const rec = { path: req.url ?? '/', headers, body: Buffer.concat(chunks) };
      requests.push(rec);
      const answer = await send(target, rec);
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
const send = (target: string, r: Recorded) =>
  fetch(`${target}${r.path}`, { method: 'POST', headers: r.headers, body: new Uint8Array(r.body) });

/** Runs an example agent with the OTLP exporter configured the standard way (environment variables). */
function runAgent(file: string, session: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      tsx,
      [file, session],
      { cwd: root, env: { ...process.env, OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'stand-in', ...env } },
      (err, stdout, stderr) => (err ? reject(new Error(`${file}: ${err.message}\n${stderr}`)) : resolve(stdout)),
    ),
  );
}

const turnsOf = (srv: { url: string; key: string }, session: string) => exportedTurns<Turn>(srv, session);
type Turn = {
  turn: number;
  agent: string;
  input: string;
  output: string;
  calls: TurnCall[];
  usage: TurnUsage;
  otel: { span_id: string };
};
const toolsOf = (t: Turn) => t.calls.filter((c) => c.kind === 'tool').map((c) => [c.tool, c.result ?? null]);

// Each producer over both encodings: OpenInference over protobuf on PGlite and JSON on PostgreSQL, OpenLLMetry the
// other way round (one agent run per pair keeps the test lean; the decoding is the same for every producer).
const AGENTS = [
  {
    name: 'OpenInference (@arizeai/openinference-instrumentation-openai, traceAgent, traceTool)',
    file: 'sdk/examples/otel/openinference-agent.ts',
    protocol: (srv: string) => (srv === 'pglite' ? 'http/protobuf' : 'http/json'),
    agent: 'weather-agent',
    questions: ['What is the weather in Oslo?', 'And in Lisbon?'],
    outputs: ['It is 4 °C and sleet in Oslo right now.', 'It is 18 °C and sunny in Lisbon right now.'],
    tools: [[['get_weather', '4 °C and sleet']], [['get_weather', '18 °C and sunny']]],
    failed: null,
  },
  {
    name: 'OpenLLMetry (@traceloop/instrumentation-openai) under GenAI invoke_agent / execute_tool spans',
    file: 'sdk/examples/otel/openllmetry-agent.ts',
    protocol: (srv: string) => (srv === 'pglite' ? 'http/json' : 'http/protobuf'),
    agent: 'travel-desk',
    questions: ['What is the weather in Oslo?', 'And in Atlantis?'],
    outputs: [
      'It is 4 °C and sleet in Oslo right now.',
      'It is error: no weather station in Atlantis in Atlantis right now.',
    ],
    tools: [[['get_weather', '4 °C and sleet']], [['get_weather', 'error: no weather station in Atlantis']]],
    failed: 'no weather station in Atlantis',
  },
];

describe.each(servers)('agents traced with standard conventions, into the server on $name', (srv) => {
  it.each(AGENTS)('$name: turns, calls and tokens; the same export sent again stores nothing', async (a) => {
    const session = `${path.basename(a.file, '.ts')}-${srv.name}`;
    const proxy = await recorder(srv.url);
    try {
      const protocol = a.protocol(srv.name);
      await runAgent(a.file, session, {
        OTEL_EXPORTER_OTLP_ENDPOINT: `${proxy.url}/api/v1/otel`,
        OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${srv.key}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
      });
      expect(proxy.requests.length).toBeGreaterThan(0);
      const type = protocol === 'http/json' ? 'application/json' : 'application/x-protobuf';
      expect(proxy.requests.every((r) => r.headers['content-type'] === type)).toBe(true);

      const turns = await turnsOf(srv, session);
      expect(turns.map((t) => [t.turn, t.agent, t.input, t.output])).toEqual(
        a.questions.map((q, k) => [k + 1, a.agent, q, a.outputs[k]]),
      );
      expect(turns.map(toolsOf)).toEqual(a.tools);
      // The stand-in model's token counts: 12 + 36 in, 5 + 9 out per turn (two chat calls).
      for (const t of turns)
        expect(t.usage).toMatchObject({ input_tokens: 48, output_tokens: 14, llm_calls: 2, tool_calls: 1 });
      expect(turns.map((t) => t.usage.errors)).toEqual(a.failed ? [0, 1] : [0, 0]);

      // An exporter's retry: the same requests again. Every span is already stored; the session is unchanged.
      for (const r of proxy.requests) {
        const again = await send(srv.url, r);
        expect(again.status).toBe(200);
      }
      expect((await turnsOf(srv, session)).map((t) => [t.turn, t.otel.span_id])).toEqual(
        turns.map((t) => [t.turn, t.otel.span_id]),
      );
    } finally {
      await proxy.close();
    }

    // In the browser: the second turn's waterfall with the model calls and the tool (and its failure).
    await open(page, `${srv.url}/sessions/${session}?turn=2`);
    const calls = page.getByTestId('turn-calls');
    await expect.poll(() => calls.textContent(), { timeout: 10_000 }).toContain('get_weather');
    expect(await calls.locator('[data-call-kind=llm]').count()).toBe(2);
    // The tool's arguments and its answer, or its failure.
    const tool = await calls.locator('[data-call-kind=tool]').textContent();
    expect(tool).toContain(a.failed ?? 'Lisbon → 18 °C and sunny');
    expect(await page.getByTestId('turn-usage').textContent()).toContain('2 LLM · 1 tool · 48 tokens in · 14 out');
    expect(await calls.locator('.call-error').count()).toBe(a.failed ? 1 : 0);
    // A traced turn has no CCS to correct: no fork is offered.
    expect(await page.getByTestId('fork-open').count()).toBe(0);
  });

  it('a long invocation: its calls exported batches before its own span still become its calls', async () => {
    const { TracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace');
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
    const { context, trace } = await import('@opentelemetry/api');
    const proxy = await recorder(srv.url);
    const conv = `split-${srv.name}`;
    // The SDK's default processor, exporting every 30 ms instead of every 5 s: a 5 s model call does the same.
    const provider = new TracerProvider({
      spanProcessors: [
        new BatchSpanProcessor({
          exporter: new OTLPTraceExporter({
            url: `${proxy.url}/api/v1/otel/v1/traces`,
            headers: { Authorization: `Bearer ${srv.key}` },
          }),
          scheduledDelayMillis: 30,
        }),
      ],
    });
    const tracer = provider.getTracer('e2e');
    try {
      const agent = tracer.startSpan('invoke_agent planner', {
        attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': conv },
      });
      const inAgent = trace.setSpan(context.active(), agent);
      // Each call a second apart, as a long invocation's are (a start that passes for a card number must not lose
      // the calls their order: server/services/otel-pending.ts keeps span times out of redaction).
      const t0 = Date.now();
      for (const [k, question] of ['Plan the migration.', 'Check the plan.'].entries()) {
        const chat = tracer.startSpan(
          'chat gpt-4o',
          {
            startTime: t0 + 1000 * k + 1,
            attributes: {
              'gen_ai.operation.name': 'chat',
              'gen_ai.usage.input_tokens': 100 * (k + 1),
              'gen_ai.input.messages': JSON.stringify([{ role: 'user', content: question }]),
              'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', content: `Answer ${k + 1}.` }]),
            },
          },
          inAgent,
        );
        chat.end(t0 + 1000 * k + 500);
        // Exported in a request of its own, and answered, while the invocation goes on. (A fixed sleep let a slow
        // export of the second call overlap the invocation's own: two requests of one trace at once, a race the
        // note names; the joining under test is that of batches one after another.)
        await provider.forceFlush();
      }
      agent.end();
      await provider.shutdown();
    } finally {
      await proxy.close();
    }
    expect(proxy.requests.length).toBeGreaterThanOrEqual(3); // each call and the invocation in a request of its own
    const turns = await turnsOf(srv, conv);
    expect(turns.map((t) => [t.turn, t.input, t.output, t.usage.input_tokens, t.usage.llm_calls])).toEqual([
      [1, 'Plan the migration.', 'Answer 2.', 300, 2],
    ]);
  });

  it('an invocation and its calls exported at once (two requests in flight): one turn with its calls', async () => {
    const conv = `race-${srv.name}`;
    const s = (key: string, v: string) => ({ key, value: { stringValue: v } });
    const at = (ms: number) => String(BigInt(Date.UTC(2026, 10, 26) + ms) * 1_000_000n);
    const body = (span: Record<string, unknown>) =>
      JSON.stringify({
        resourceSpans: [{ resource: { attributes: [s('service.name', 'racer')] }, scopeSpans: [{ spans: [span] }] }],
      });
    const post = (json: string) =>
      fetch(`${srv.url}/api/v1/otel/v1/traces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${srv.key}`, 'content-type': 'application/json' },
        body: json,
      });
    const hex = (n: number, k: number) => (n.toString(16) + k.toString(16)).padStart(32, 'ab').slice(0, 32);
    // Five invocations; each one's call and its own span sent at once, whichever the server takes first.
    const answers = await Promise.all(
      [0, 1, 2, 3, 4].flatMap((k) => {
        const traceId = hex(Date.now(), k);
        const root = `${String(k).padStart(2, '0')}aaaaaaaaaaaaaa`;
        return [
          post(
            body({
              traceId,
              spanId: `${String(k).padStart(2, '0')}bbbbbbbbbbbbbb`,
              parentSpanId: root,
              name: 'chat gpt-4o',
              startTimeUnixNano: at(k * 10_000 + 100),
              endTimeUnixNano: at(k * 10_000 + 900),
              attributes: [
                s('gen_ai.operation.name', 'chat'),
                { key: 'gen_ai.usage.input_tokens', value: { intValue: '50' } },
                s('gen_ai.input.messages', JSON.stringify([{ role: 'user', content: `Question ${k + 1}.` }])),
                s('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', content: `Answer ${k + 1}.` }])),
              ],
            }),
          ),
          post(
            body({
              traceId,
              spanId: root,
              name: 'invoke_agent racer',
              startTimeUnixNano: at(k * 10_000),
              endTimeUnixNano: at(k * 10_000 + 1000),
              attributes: [s('gen_ai.operation.name', 'invoke_agent'), s('gen_ai.conversation.id', conv)],
            }),
          ),
        ];
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    // Numbered as the invocations arrived (requests at once come in any order); each with its call.
    const turns = await turnsOf(srv, conv);
    expect(turns.map((t) => t.turn)).toEqual([1, 2, 3, 4, 5]);
    expect(
      turns.map((t) => [t.input, t.output, t.calls?.length, t.usage?.input_tokens]).sort((a, b) => (a < b ? -1 : 1)),
    ).toEqual([1, 2, 3, 4, 5].map((n) => [`Question ${n}.`, `Answer ${n}.`, 1, 50]));
    // In the browser: the turn's call, whichever request came first.
    await open(page, `${srv.url}/sessions/${conv}?turn=3`);
    const calls = page.getByTestId('turn-calls');
    await expect.poll(() => calls.locator('[data-call-kind=llm]').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByTestId('turn-usage').textContent()).toContain('1 LLM');
  });

  it('plain OpenTelemetry JS with GenAI spans (examples/otel/genai-agent.ts): numbered turns with calls', async () => {
    const conv = `genai-${srv.name}`;
    await runAgent('sdk/examples/otel/genai-agent.ts', conv, {
      OTEL_EXPORTER_OTLP_ENDPOINT: `${srv.url}/api/v1/otel`,
      OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${srv.key}`,
    });
    const turns = await turnsOf(srv, conv);
    expect(turns.map((t) => [t.turn, t.input, t.output, t.agent])).toEqual([
      [1, 'Where is order 1142?', 'It shipped yesterday.', 'support-bot'],
      [2, 'Can I change the address?', 'I could not reach the order service.', 'support-bot'],
    ]);
    expect(turns[1]!.usage).toMatchObject({
      input_tokens: 900,
      output_tokens: 60,
      llm_calls: 1,
      tool_calls: 1,
      errors: 1,
    });

    await open(page, `${srv.url}/sessions/${conv}?turn=2`);
    const calls = page.getByTestId('turn-calls');
    await expect.poll(() => calls.textContent()).toContain('lookup_order');
    expect(await calls.textContent()).toContain('order service timed out');
    expect(await calls.locator('[data-call-kind=llm]').count()).toBe(1);
    expect(await page.getByTestId('work-charts').textContent()).toContain('Tokens per turn');
    // The sessions list adds the work columns: 2 turns × (900 + 60) tokens.
    await open(page, `${srv.url}/sessions`);
    await page.getByLabel('Search sessions').fill(conv);
    const table = page.getByTestId('sessions-table');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    expect(await table.locator('thead').textContent()).toContain('Work');
    expect(await table.locator('tbody tr').textContent()).toContain('1.92k tok');
  });
});
