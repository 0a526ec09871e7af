import { describe, expect, it } from 'vitest';
import { alertCount } from './alerts';

describe('alert counts as badges say them', () => {
  it('agree in number with the count', () => {
    expect(alertCount('constraint_dropped', 4)).toBe('4 constraints dropped');
    expect(alertCount('constraint_dropped', 1)).toBe('1 constraint dropped');
    expect(alertCount('h_spike', 2)).toBe('2 hallucination spikes');
    expect(alertCount('stress', 1)).toBe('1 stress turn');
    expect(alertCount('stress', 1200)).toBe('1,200 stress turns');
  });
});
