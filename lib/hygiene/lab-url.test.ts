import { describe, expect, it } from 'vitest';
import { SLEEP_K } from './consolidation';
import { DEFAULT_BUDGET } from './contract';
import { DEFAULT_MISALIGNMENT } from './items';
import { labSettingsProblems, readLabSettings, writeLabSettings } from './lab-url';

describe('the hygiene lab settings in the URL', () => {
  it('reads nothing changed as the defaults, the deletion parameters left to the agent history', () => {
    expect(readLabSettings(new URLSearchParams('tab=deletion&agent=a'))).toEqual({
      deletion: null,
      budget: DEFAULT_BUDGET,
      sleepK: SLEEP_K,
      misalignment: DEFAULT_MISALIGNMENT,
    });
  });

  it('writes only what differs from the defaults, keeps the other parameters, and reads it back', () => {
    const settings = {
      deletion: { period: 24, alpha: 0, n: 5, beta: 0.3, capacity: 32 },
      budget: 8,
      sleepK: SLEEP_K,
      misalignment: { ...DEFAULT_MISALIGNMENT, outputMax: 0.4 },
    };
    const params = writeLabSettings(new URLSearchParams('tab=deletion&agent=acc-itops&k=3'), settings);
    expect(params.toString()).toBe(
      'tab=deletion&agent=acc-itops&period=24&alpha=0&n=5&beta=0.3&capacity=32&output_max=0.4&budget=8',
    );
    expect(readLabSettings(params)).toEqual(settings);
  });

  it('leaves out a value the server would refuse, so its default stands', () => {
    const s = readLabSettings(
      new URLSearchParams('period=0&beta=1.5&n=2.5&alpha=x&capacity=&budget=1e9&k=4&min_hits=3'),
    );
    expect(s.deletion).toBeNull();
    expect(s.budget).toBe(DEFAULT_BUDGET);
    expect(s.sleepK).toBe(4);
    expect(s.misalignment).toEqual({ ...DEFAULT_MISALIGNMENT, minHits: 3 });
    // And says which, with what each takes (an empty one is no choice: nothing to say).
    expect(
      labSettingsProblems(new URLSearchParams('period=0&beta=1.5&n=2.5&alpha=x&capacity=&budget=1e9&k=4')),
    ).toEqual([
      'period: “0” is not a whole number from 1 to 1000000',
      'alpha: “x” is not a whole number from 0 to 1000',
      'n: “2.5” is not a whole number from 0 to 1000',
      'beta: “1.5” is not a number from 0 to 1',
      'budget: “1e9” is not a whole number from 1 to 100000',
    ]);
    expect(labSettingsProblems(new URLSearchParams('k=4&min_hits=3'))).toEqual([]);
  });
});
