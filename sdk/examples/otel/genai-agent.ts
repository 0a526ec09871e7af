/**
 * An agent traced with the official OpenTelemetry JS SDK and nothing else: its code marks each invocation, model
 * call and tool call with the GenAI semantic conventions' spans and attributes (`invoke_agent`, `chat`,
 * `execute_tool`, `gen_ai.*`), and the OTLP exporter sends them to Mnemoscope. No Mnemoscope code.
 *
 *   OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:3000/api/v1/otel \
 *   OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer $MNEMOSCOPE_API_KEY" \
 *   npx tsx sdk/examples/otel/genai-agent.ts [conversation-id]
 *
 * Two turns of a support conversation; the second one's order lookup fails.
 */
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

const provider = new TracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'plain-genai-agent' }),
  spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })], // endpoint and key from the env
});
trace.setGlobalTracerProvider(provider);
context.setGlobalContextManager(new AsyncLocalStorageContextManager());
const tracer = trace.getTracer('support-bot');
const text = (role: string, content: string) => JSON.stringify([{ role, parts: [{ type: 'text', content }] }]);

async function invoke(conversation: string, question: string, answer: string, orderServiceUp: boolean) {
  const attributes = {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': 'support-bot',
    'gen_ai.conversation.id': conversation,
  };
  await tracer.startActiveSpan('invoke_agent support-bot', { attributes }, async (agent) => {
    await tracer.startActiveSpan('chat gpt-4o', async (chat) => {
      chat.setAttributes({
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 900,
        'gen_ai.usage.output_tokens': 60,
        'gen_ai.input.messages': text('user', question),
        'gen_ai.output.messages': text('assistant', answer),
      });
      await new Promise((r) => setTimeout(r, 15)); // the model thinking
      chat.end();
    });
    await tracer.startActiveSpan('execute_tool lookup_order', async (tool) => {
      tool.setAttributes({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup_order' });
      if (!orderServiceUp) tool.setStatus({ code: SpanStatusCode.ERROR, message: 'order service timed out' });
      tool.end();
    });
    agent.end();
  });
}

const conversation = process.argv[2] ?? 'genai-support';
await invoke(conversation, 'Where is order 1142?', 'It shipped yesterday.', true);
await invoke(conversation, 'Can I change the address?', 'I could not reach the order service.', false);
await provider.shutdown(); // flushes the last batch
console.log(`sent 2 turns of ${conversation}`);
