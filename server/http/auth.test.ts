import { describe, expect, it } from 'vitest';
import { safeNext } from './auth';

describe('safeNext', () => {
  it('keeps same-site paths and refuses every way out of the site', () => {
    expect(safeNext('/curation?tab=inbox')).toBe('/curation?tab=inbox');
    expect(safeNext('/sessions/a%2Fb')).toBe('/sessions/a%2Fb');
    for (const evil of [
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/ /evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '',
      null,
    ])
      expect(safeNext(evil), JSON.stringify(evil)).toBe('/sessions');
  });
});
