/**
 * An agent traced with OpenLLMetry (Traceloop) and the OpenTelemetry GenAI semantic conventions, sending its traces
 * to Mnemoscope: the OpenAI client is instrumented by @traceloop/instrumentation-openai (`chat` spans with
 * `gen_ai.*` attributes), the agent marks each invocation and tool call with the conventions' `invoke_agent` and
 * `execute_tool` spans, and the official OTLP exporter sends them. No Mnemoscope code.
 *
 *   OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:3000/api/v1/otel \
 *   OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer $MNEMOSCOPE_API_KEY" \
 *   OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf \
 *   OPENAI_BASE_URL=… OPENAI_API_KEY=… npx tsx sdk/examples/otel/openllmetry-agent.ts [conversation-id]
 *
 * Each question is one turn of the conversation (`gen_ai.conversation.id`).
 */
import { OpenAIInstrumentation } from '@traceloop/instrumentation-openai';
import { context, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import OpenAI from 'openai';

// --- tracing: what a user adds ---------------------------------------------------------------------------------
const exporter = process.env.OTEL_EXPORTER_OTLP_PROTOCOL === 'http/json' ? new JsonExporter() : new ProtoExporter();
const provider = new TracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'travel-desk' }),
  spanProcessors: [new BatchSpanProcessor({ exporter })],
});
trace.setGlobalTracerProvider(provider);
context.setGlobalContextManager(new AsyncLocalStorageContextManager());
const instrumentation = new OpenAIInstrumentation();
instrumentation.setTracerProvider(provider);
instrumentation.manuallyInstrument(OpenAI);
const tracer = trace.getTracer('travel-desk');
/** Runs `fn` inside a span named and tagged as the GenAI conventions say; records a thrown error on it. */
const span = <T>(name: string, attributes: Record<string, string>, fn: (s: Span) => Promise<T>) =>
  tracer.startActiveSpan(name, { attributes }, async (s) => {
    try {
      return await fn(s);
    } catch (e) {
      s.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error).message });
      throw e;
    } finally {
      s.end();
    }
  });
// ---------------------------------------------------------------------------------------------------------------

const openai = new OpenAI();
const tools: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

async function getWeather(city: string): Promise<string> {
  if (city === 'Atlantis') throw new Error(`no weather station in ${city}`);
  return city === 'Oslo' ? '4 °C and sleet' : '18 °C and sunny';
}

/** One turn: ask the model, run the tool it asks for, ask again with the result. */
const answer = (conversation: string, question: string) =>
  span(
    'invoke_agent travel-desk',
    {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'travel-desk',
      'gen_ai.conversation.id': conversation,
    },
    async () => {
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: question }];
      for (let step = 0; step < 4; step++) {
        const res = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
        const msg = res.choices[0]!.message;
        if (!msg.tool_calls?.length) return msg.content ?? '';
        messages.push(msg);
        for (const call of msg.tool_calls) {
          if (call.type !== 'function') continue;
          const tool = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': call.function.name };
          const result = await span(`execute_tool ${call.function.name}`, tool, async (s) => {
            s.setAttribute('gen_ai.tool.call.arguments', call.function.arguments);
            const { city } = JSON.parse(call.function.arguments) as { city: string };
            const r = await getWeather(city).catch((e: Error) => `error: ${e.message}`);
            s.setAttribute('gen_ai.tool.call.result', r);
            if (r.startsWith('error: ')) s.setStatus({ code: SpanStatusCode.ERROR, message: r.slice(7) });
            return r;
          });
          messages.push({ role: 'tool', tool_call_id: call.id, content: result });
        }
      }
      return 'I could not find out.';
    },
  );

const conversation = process.argv[2] ?? 'openllmetry-travel';
for (const question of ['What is the weather in Oslo?', 'And in Atlantis?'])
  console.log(`${question} → ${await answer(conversation, question)}`);
await provider.shutdown(); // flushes the last batch
