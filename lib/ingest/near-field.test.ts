import { describe, expect, it } from 'vitest';
import { nearField, slipWarnings } from './near-field';

const TURN = ['session_id', 'agent', 'turn', 'input', 'output', 'ccs', 'hallucination', 'drift', 'timestamp', 'judge'];

describe('a field that is a slip for a known one', () => {
  it('names the field meant: a misspelling, another case or separator', () => {
    expect(nearField('halucination', TURN)).toBe('hallucination');
    expect(nearField('sessionId', TURN)).toBe('session_id');
    expect(nearField('Turn', TURN)).toBe('turn');
    expect(nearField('time_stamp', TURN)).toBe('timestamp');
    expect(nearField('jugde', TURN)).toBe('judge');
    expect(nearField('ouptut', TURN)).toBe('output');
    expect(nearField('hallucinationn', TURN)).toBe('hallucination');
  });

  it('leaves an agent’s own fields alone, and a known field is no slip', () => {
    const known = [...TURN, 'id', 'recalled', 'addition', 'kind', 'content'];
    for (const own of [
      ...['model', 'latency_ms', 'tool_calls', 'user', 'trace', 'inputs_hash', 'agent_version', 'agent_id'],
      // One letter for another, a plural, a name that holds a field's, or too short to tell (a review found these).
      ...['context', 'draft', 'mind', 'kinds', 'recall_k', 'recall', 'additional', 'edition', 'css', 'uid', 'ids'],
    ])
      expect(nearField(own, known), own).toBeNull();
    expect(nearField('drift', TURN)).toBeNull();
  });

  it('warns for each slip, naming its path and the field meant', () => {
    expect(slipWarnings({ turn: 1, halucination: 0.9, model: 'x', Agent: 'a' }, TURN, 'turn')).toEqual([
      {
        path: 'data.halucination',
        message: "not a field of a turn, kept as the agent's own; did you mean hallucination?",
      },
      { path: 'data.Agent', message: "not a field of a turn, kept as the agent's own; did you mean agent?" },
    ]);
  });
});
