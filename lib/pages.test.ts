import { describe, expect, it } from 'vitest';
import { APP_PAGES, entryHref, eventHref, matchPages } from './pages';

const hrefs = (q: string, max?: number) => matchPages(q, max).map((p) => p.href);

describe('matchPages', () => {
  it('finds a page by the start of words of its name, line or other words, any case', () => {
    expect(hrefs('HEAL')).toEqual(['/curation/health']);
    expect(hrefs('m6')).toEqual(['/curation/retrievals', '/curation/health']);
    expect(hrefs('traces')).toEqual(['/sessions']);
    expect(hrefs('api keys')).toEqual(['/settings']);
  });

  it('puts pages whose name holds every word first', () => {
    // "Memory entries" and "Memory events" by name ("memory" is also one of the other words of Entries).
    expect(hrefs('memory')).toEqual(['/curation/entries', '/curation/events']);
    expect(hrefs('curation')[0]).toBe('/curation');
  });

  it('needs every word, inside no word, and gives every page for no words', () => {
    expect(hrefs('health sessions')).toEqual([]);
    expect(hrefs('ealth')).toEqual([]);
    // Words of a page's line, and a single letter, name none.
    for (const q of ['the', 'turn', 'dead end', 's']) expect(hrefs(q), q).toEqual([]);
    expect(hrefs('  ')).toEqual(APP_PAGES.map((p) => p.href));
    expect(hrefs('', 3)).toHaveLength(3);
  });
});

describe('links to one event or entry', () => {
  it('carry the id whole, whatever it holds', () => {
    expect(eventHref('memevt_a&focus=b#c')).toBe('/curation/events?focus=memevt_a%26focus%3Db%23c');
    const back = new URL(entryHref('e 1/?x'), 'http://h').searchParams.get('entry');
    expect(back).toBe('e 1/?x');
  });
});
