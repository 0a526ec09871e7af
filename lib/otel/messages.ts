/**
 * The chat messages an LLM span carries, read from whichever convention wrote them, into one shape:
 *
 * - GenAI semantic conventions (OpenTelemetry, and OpenLLMetry from 0.2x): `gen_ai.input.messages` /
 *   `gen_ai.output.messages`, JSON `[{role, parts: [{type: "text", content} | {type: "tool_call", id, name,
 *   arguments} | {type: "tool_call_response", id, response}]}]`; OpenAI-style `[{role, content, tool_calls}]` too.
 * - OpenInference (Arize Phoenix): flattened `llm.input_messages.N.message.role` / `.content` /
 *   `.contents.M.message_content.text` / `.tool_call_id` /
 *   `.tool_calls.M.tool_call.{id,function.name,function.arguments}`.
 * - OpenLLMetry before the GenAI messages: `gen_ai.prompt.N.role` / `.content`, `gen_ai.completion.N.role` /
 *   `.content` / `.tool_calls.M.{id,name,arguments}`.
 *
 * Pure.
 */

export interface ToolCallRequest {
  id: string | null;
  name: string;
  arguments: string | null;
}

export interface ChatMessage {
  role: string;
  text: string;
  /** Tools the model asked for (an assistant message). */
  toolCalls: ToolCallRequest[];
  /** A tool's answer (a tool message, or a GenAI `tool_call_response` part): the call it answers and its text. */
  toolResults: { id: string | null; result: string }[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const s = (v: unknown) => (typeof v === 'string' ? v : null);
const asText = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? null : JSON.stringify(v));

/** One message as GenAI parts or OpenAI-style fields. */
function fromJson(m: unknown): ChatMessage | null {
  if (!isObj(m)) return null;
  const role = s(m.role) ?? 'user';
  const texts: string[] = [];
  const toolCalls: ToolCallRequest[] = [];
  const toolResults: ChatMessage['toolResults'] = [];
  if (typeof m.content === 'string') texts.push(m.content);
  else if (Array.isArray(m.content))
    for (const p of m.content) if (isObj(p) && typeof p.text === 'string') texts.push(p.text);
  for (const p of Array.isArray(m.parts) ? m.parts : []) {
    if (!isObj(p)) continue;
    const type = s(p.type) ?? 'text';
    if (type === 'text' && typeof p.content === 'string') texts.push(p.content);
    else if (type === 'tool_call' && s(p.name))
      toolCalls.push({ id: s(p.id), name: s(p.name)!, arguments: asText(p.arguments) });
    else if (type === 'tool_call_response') toolResults.push({ id: s(p.id), result: asText(p.response) ?? '' });
  }
  for (const c of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
    if (!isObj(c)) continue;
    const f = isObj(c.function) ? c.function : c;
    if (s(f.name)) toolCalls.push({ id: s(c.id), name: s(f.name)!, arguments: asText(f.arguments) });
  }
  if (role === 'tool' && !toolResults.length) toolResults.push({ id: s(m.tool_call_id), result: texts.join('\n') });
  return { role, text: texts.join('\n'), toolCalls, toolResults };
}

/** A JSON array of messages (or a string holding one); null when it is not one. */
export function parseMessages(v: unknown): ChatMessage[] | null {
  let raw: unknown = v;
  if (typeof v === 'string') {
    try {
      raw = JSON.parse(v);
    } catch {
      return null;
    }
  }
  if (!Array.isArray(raw)) return null;
  return raw.map(fromJson).filter((m): m is ChatMessage => m !== null);
}

/**
 * Messages flattened into attributes under `prefix` (`llm.input_messages` of OpenInference, `gen_ai.prompt` of older
 * OpenLLMetry); null when there are none.
 */
export function flattenedMessages(a: Obj, prefix: string): ChatMessage[] | null {
  const byIndex = new Map<number, Obj>();
  const head = `${prefix}.`;
  for (const [key, v] of Object.entries(a)) {
    if (!key.startsWith(head)) continue;
    const m = /^(\d+)\.(.+)$/.exec(key.slice(head.length));
    if (!m) continue;
    const i = Number(m[1]);
    // OpenInference nests under `message.`; OpenLLMetry does not.
    const path = m[2]!.replace(/^message\./, '');
    // In place: a message may carry thousands of attributes (an exporter's, or a hostile one's).
    let o = byIndex.get(i);
    if (!o) byIndex.set(i, (o = {}));
    o[path] = v;
  }
  if (!byIndex.size) return null;
  return [...byIndex.entries()]
    .sort(([x], [y]) => x - y)
    .map(([, f]) => {
      const texts = Object.keys(f)
        .filter((k) => /^contents\.\d+\.message_content\.text$/.test(k))
        .sort((x, y) => Number(x.split('.')[1]) - Number(y.split('.')[1]))
        .map((k) => s(f[k]))
        .filter((t): t is string => t !== null);
      const text = s(f.content) ?? texts.join('\n');
      const calls = new Map<number, Obj>();
      for (const [k, v] of Object.entries(f)) {
        const c = /^tool_calls\.(\d+)\.(?:tool_call\.)?(.+)$/.exec(k);
        if (!c) continue;
        let call = calls.get(Number(c[1]));
        if (!call) calls.set(Number(c[1]), (call = {}));
        call[c[2]!] = v;
      }
      const toolCalls = [...calls.entries()]
        .sort(([x], [y]) => x - y)
        .map(([, c]) => ({
          id: s(c.id),
          name: s(c['function.name']) ?? s(c.name) ?? '',
          arguments: asText(c['function.arguments'] ?? c.arguments),
        }))
        .filter((c) => c.name);
      const role = s(f.role) ?? 'user';
      const toolCallId = s(f.tool_call_id);
      return {
        role,
        text,
        toolCalls,
        toolResults: role === 'tool' ? [{ id: toolCallId, result: text }] : [],
      };
    });
}

/** A span's input or output messages, by whichever convention wrote them. */
export function spanMessages(a: Obj, side: 'input' | 'output'): ChatMessage[] | null {
  const genai = parseMessages(a[`gen_ai.${side}.messages`]);
  if (genai?.length) return genai;
  const oi = flattenedMessages(a, `llm.${side}_messages`);
  if (oi?.length) return oi;
  return flattenedMessages(a, side === 'input' ? 'gen_ai.prompt' : 'gen_ai.completion');
}

/** What a tool call reads as in a turn's output when the model answered with tool calls only. */
export const toolCallText = (c: ToolCallRequest) => `${c.name}(${c.arguments ?? ''})`;

/**
 * The text a turn shows for these messages: on the input side the last user message (else all text), on the output
 * side the last assistant text (else the tools it asked for). Null when nothing readable.
 */
export function messagesTurnText(msgs: ChatMessage[] | null, side: 'input' | 'output'): string | null {
  if (!msgs?.length) return null;
  if (side === 'input') {
    const user = msgs.filter((m) => m.role === 'user' && m.text).at(-1);
    if (user) return user.text;
  } else {
    const said = msgs.filter((m) => m.role !== 'user' && m.role !== 'tool' && m.text).at(-1);
    if (said) return said.text;
    const asked = msgs.flatMap((m) => m.toolCalls);
    if (asked.length) return asked.map(toolCallText).join('\n');
  }
  const all = msgs.map((m) => m.text).filter(Boolean);
  return all.length ? all.join('\n') : null;
}
