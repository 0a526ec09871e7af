import { describe, expect, it } from 'vitest';
import { gapBefore, textDiff } from './text-diff';

describe('textDiff', () => {
  it('marks the words a proposal changes', () => {
    const parts = textDiff('Backups are kept for 30 days.', 'Backups are kept for 14 days.');
    expect(parts.filter((p) => p.op !== 'same').map((p) => [p.op, p.text.trim()])).toEqual([
      ['del', '30'],
      ['add', '14'],
    ]);
    expect(
      parts
        .filter((p) => p.op !== 'add')
        .map((p) => p.text)
        .join(''),
    ).toBe('Backups are kept for 30 days.');
  });

  it('shows two texts too different to diff word by word whole, one struck and one marked', () => {
    const words = Array.from({ length: 6000 }, (_, i) => ['alpha', 'beta', 'gamma', 'delta'][(i * 3) % 4]);
    const before = words.join(' ');
    const after = [...words].reverse().join(' ');
    expect(textDiff(before, after)).toEqual([
      { text: before, op: 'del' },
      { text: after, op: 'add' },
    ]);
    expect(textDiff('', after)).toEqual([{ text: after, op: 'add' }]);
  });

  it('puts a gap between a struck word and the word that replaces it, never inside a text', () => {
    const parts = textDiff('Run the job daily.', 'Run the task daily.');
    const shown = parts.map((p, i) => (gapBefore(parts[i - 1], p) ? ' ' : '') + p.text).join('');
    expect(shown).toBe('Run the job task daily.');
    expect(gapBefore({ text: 'a ', op: 'del' }, { text: 'b', op: 'add' })).toBe(false);
    expect(gapBefore({ text: 'a', op: 'same' }, { text: 'b', op: 'add' })).toBe(false);
  });
});
