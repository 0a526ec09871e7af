/**
 * A stand-in for an OpenAI-compatible chat completions server, for the traced example agents: it answers a user's
 * question with a `get_weather` tool call and, once the tool's result is in the conversation, with a sentence built
 * from it. Deterministic (token counts from the conversation's length), so tests can check what the traces carry.
 *
 *   npx tsx sdk/examples/otel/weather-model.ts      # listens on 127.0.0.1:4010, prints its base URL
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Message = { role: string; content?: string | null; tool_call_id?: string };

/** The completion the model gives for a conversation. */
export function reply(messages: Message[]) {
  const last = messages.at(-1);
  const user = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const city = /in ([A-Z][a-z]+)/.exec(user)?.[1] ?? 'Oslo';
  const message =
    last?.role === 'tool'
      ? { role: 'assistant', content: `It is ${last.content} in ${city} right now.` }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: `call_${city.toLowerCase()}`,
              type: 'function',
              function: { name: 'get_weather', arguments: JSON.stringify({ city }) },
            },
          ],
        };
  const prompt = 12 * messages.length;
  const completion = last?.role === 'tool' ? 9 : 5;
  return {
    id: `chatcmpl-${messages.length}-${city}`,
    object: 'chat.completion',
    created: 1_764_000_000,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, message, finish_reason: last?.role === 'tool' ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

/** Starts the stand-in on 127.0.0.1 (port 0: any free one); resolves to its base URL and a way to stop it. */
export async function startWeatherModel(port = 0): Promise<{ baseURL: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      const { messages } = JSON.parse(body) as { messages: Message[] };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(reply(messages)));
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const { port: p } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${p}/v1`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { baseURL } = await startWeatherModel(4010);
  console.log(`OPENAI_BASE_URL=${baseURL}`);
}
