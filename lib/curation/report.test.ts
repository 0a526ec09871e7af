import { describe, expect, it } from 'vitest';
import { inert } from './report';

describe('inert', () => {
  it('leaves sender text no way to link, embed or inject HTML into a report', () => {
    const out = inert('[click](javascript:alert(1)) ![x](http://t/p.png) <img src=x onerror=alert(1)> `c` *b* a|b');
    expect(out).not.toMatch(/(^|[^\\])\[/);
    expect(out).not.toContain('<');
    expect(out).toBe(
      '\\[click\\](javascript:alert(1)) \\!\\[x\\](http://t/p.png) ' +
        '&lt;img src=x onerror=alert(1)&gt; \\`c\\` \\*b\\* a\\|b',
    );
  });
});
