/**
 * An agent traced only with OpenInference (Arize Phoenix's conventions), sending its traces to Mnemoscope: the
 * OpenAI client is instrumented by @arizeai/openinference-instrumentation-openai, the agent and its tool are
 * wrapped by @arizeai/openinference-core, and the official OTLP exporter sends the spans. No Mnemoscope code.
 *
 *   OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:3000/api/v1/otel \
 *   OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer $MNEMOSCOPE_API_KEY" \
 *   OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf \
 *   OPENAI_BASE_URL=… OPENAI_API_KEY=… npx tsx sdk/examples/otel/openinference-agent.ts [session-id]
 *
 * Each question is one turn of the session (OpenInference's `session.id`): its AGENT span, the LLM calls and the
 * tool call below it.
 */
import { OpenAIInstrumentation } from '@arizeai/openinference-instrumentation-openai';
import { setSession, traceAgent, traceTool } from '@arizeai/openinference-core';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import OpenAI from 'openai';

// --- tracing: what a user adds ---------------------------------------------------------------------------------
const exporter = process.env.OTEL_EXPORTER_OTLP_PROTOCOL === 'http/json' ? new JsonExporter() : new ProtoExporter();
const provider = new TracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'weather-agent' }),
  spanProcessors: [new BatchSpanProcessor({ exporter })],
});
trace.setGlobalTracerProvider(provider);
context.setGlobalContextManager(new AsyncLocalStorageContextManager()); // a turn's spans find their parent
const instrumentation = new OpenAIInstrumentation();
instrumentation.setTracerProvider(provider);
instrumentation.manuallyInstrument(OpenAI);
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

const getWeather = traceTool(async (city: string) => (city === 'Oslo' ? '4 °C and sleet' : '18 °C and sunny'), {
  name: 'get_weather',
});

/** One turn: ask the model, run the tool it asks for, ask again with the result. */
const answer = traceAgent(
  async (question: string): Promise<string> => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: question }];
    for (let step = 0; step < 4; step++) {
      const res = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
      const msg = res.choices[0]!.message;
      if (!msg.tool_calls?.length) return msg.content ?? '';
      messages.push(msg);
      for (const call of msg.tool_calls) {
        if (call.type !== 'function') continue;
        const { city } = JSON.parse(call.function.arguments) as { city: string };
        messages.push({ role: 'tool', tool_call_id: call.id, content: await getWeather(city) });
      }
    }
    return 'I could not find out.';
  },
  { name: 'weather-agent' },
);

const session = process.argv[2] ?? 'openinference-weather';
for (const question of ['What is the weather in Oslo?', 'And in Lisbon?'])
  await context.with(setSession(context.active(), { sessionId: session }), async () => {
    console.log(`${question} → ${await answer(question)}`);
  });
await provider.shutdown(); // flushes the last batch
