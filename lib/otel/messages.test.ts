import { describe, expect, it } from 'vitest';
import { flattenedMessages, messagesTurnText, parseMessages, spanMessages } from './messages';

describe('chat messages in the conventions instrumentations use', () => {
  it('GenAI parts: text, a tool call and its response', () => {
    const msgs = parseMessages(
      JSON.stringify([
        { role: 'user', parts: [{ type: 'text', content: 'Weather in Oslo?' }] },
        {
          role: 'assistant',
          parts: [{ type: 'tool_call', id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } }],
        },
        { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: '4 degrees' }] },
      ]),
    );
    expect(msgs?.map((m) => [m.role, m.text, m.toolCalls, m.toolResults])).toEqual([
      ['user', 'Weather in Oslo?', [], []],
      ['assistant', '', [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Oslo"}' }], []],
      ['tool', '', [], [{ id: 'c1', result: '4 degrees' }]],
    ]);
  });

  it('OpenAI-style messages: content, tool_calls and tool_call_id', () => {
    const msgs = parseMessages([
      { role: 'assistant', content: null, tool_calls: [{ id: 'x', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'x', content: 'done' },
    ]);
    expect(msgs?.map((m) => [m.toolCalls, m.toolResults])).toEqual([
      [[{ id: 'x', name: 'f', arguments: '{}' }], []],
      [[], [{ id: 'x', result: 'done' }]],
    ]);
    expect(parseMessages('not json')).toBeNull();
    expect(parseMessages('{"role":"user"}')).toBeNull();
  });

  it("OpenInference's flattened messages, with contents lists and tool calls", () => {
    const a = {
      'llm.input_messages.0.message.role': 'system',
      'llm.input_messages.0.message.content': 'Be brief.',
      'llm.input_messages.1.message.role': 'user',
      'llm.input_messages.1.message.contents.0.message_content.text': 'first',
      'llm.input_messages.1.message.contents.1.message_content.text': 'second',
      'llm.input_messages.2.message.role': 'tool',
      'llm.input_messages.2.message.tool_call_id': 'c9',
      'llm.input_messages.2.message.content': '4 degrees',
      'llm.output_messages.0.message.role': 'assistant',
      'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'c10',
      'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'book',
      'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"seat":"4A"}',
    };
    const input = spanMessages(a, 'input');
    expect(input?.map((m) => [m.role, m.text])).toEqual([
      ['system', 'Be brief.'],
      ['user', 'first\nsecond'],
      ['tool', '4 degrees'],
    ]);
    expect(input?.[2]?.toolResults).toEqual([{ id: 'c9', result: '4 degrees' }]);
    expect(messagesTurnText(input, 'input')).toBe('first\nsecond');
    expect(messagesTurnText(spanMessages(a, 'output'), 'output')).toBe('book({"seat":"4A"})');
  });

  it("older OpenLLMetry's indexed prompt and completion", () => {
    const a = {
      'gen_ai.prompt.0.role': 'user',
      'gen_ai.prompt.0.content': 'hello',
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.content': 'hi there',
    };
    expect(messagesTurnText(spanMessages(a, 'input'), 'input')).toBe('hello');
    expect(messagesTurnText(spanMessages(a, 'output'), 'output')).toBe('hi there');
    expect(flattenedMessages({}, 'gen_ai.prompt')).toBeNull();
  });

  it("a turn's text: the last user message in, the last answer out, all text when roles say nothing", () => {
    const msgs = parseMessages([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'there' },
    ]);
    expect(messagesTurnText(msgs, 'input')).toBe('there');
    expect(messagesTurnText(msgs, 'output')).toBe('hello');
    expect(messagesTurnText(parseMessages([{ role: 'system', content: 'rules' }]), 'input')).toBe('rules');
    expect(messagesTurnText([], 'input')).toBeNull();
    expect(messagesTurnText(null, 'output')).toBeNull();
  });

  it('reads a message with 20,000 flattened tool calls in linear time (an exporter is not trusted)', () => {
    const a: Record<string, unknown> = { 'llm.output_messages.0.message.role': 'assistant' };
    for (let k = 0; k < 20_000; k++)
      a[`llm.output_messages.0.message.tool_calls.${k}.tool_call.function.name`] = `tool_${k}`;
    const t = performance.now();
    const msgs = spanMessages(a, 'output');
    expect(msgs?.[0]?.toolCalls).toHaveLength(20_000);
    expect(performance.now() - t).toBeLessThan(2_000); // quadratic copying took 76 s here
  });
});
