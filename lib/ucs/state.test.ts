import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultNodePosition, joinUcsState, splitUcsState } from './state';

const dir = path.join(import.meta.dirname, '../../server/demo/ucs-workspace/snapshots');

describe('splitUcsState / joinUcsState', () => {
  it('rebuilds every fixture snapshot exactly, key order included', () => {
    for (const f of readdirSync(dir)) {
      const text = readFileSync(path.join(dir, f), 'utf8');
      const doc = JSON.parse(text);
      const parts = splitUcsState(doc);
      expect(parts.fields.energy).toHaveLength(parts.thetaBins * parts.phiBins);
      expect(JSON.stringify(joinUcsState(structuredClone(parts)))).toBe(JSON.stringify(doc));
    }
  });

  it('places capability i at (i mod θ, 3i mod φ)', () => {
    expect(defaultNodePosition(0, 24, 32)).toEqual({ theta: 0, phi: 0 });
    expect(defaultNodePosition(25, 24, 32)).toEqual({ theta: 1, phi: 11 });
  });
});
