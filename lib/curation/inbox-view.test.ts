import { describe, expect, it } from 'vitest';
import { inboxHref, inboxViewKey, NO_FILTERS, readInboxView } from './inbox-view';

const at = (href: string) => new URL(href, 'http://x').searchParams;

describe('the inbox view in the address', () => {
  it('leaves the defaults out, and reads back what it wrote', () => {
    expect(inboxHref({ status: 'pending', filters: NO_FILTERS })).toBe('/curation');
    const view = { status: 'approved' as const, filters: { ...NO_FILTERS, kind: 'fact', agent: 'Project PM Soul' } };
    const href = inboxHref(view, 'p-1');
    expect(href).toBe('/curation?status=approved&kind=fact&agent=Project+PM+Soul&proposal=p-1');
    expect(readInboxView(at(href))).toEqual(view);
  });

  it('reads an unknown status as pending and a missing filter as none', () => {
    expect(readInboxView(at('/curation?status=deleted&scope=project'))).toEqual({
      status: 'pending',
      filters: { ...NO_FILTERS, scope: 'project' },
    });
  });

  it('tells views apart by status and filters, not by the proposal shown', () => {
    expect(inboxViewKey(at('/curation?proposal=a'))).toBe(inboxViewKey(at('/curation?proposal=b')));
    expect(inboxViewKey(at('/curation?status=rejected'))).not.toBe(inboxViewKey(at('/curation')));
    expect(inboxViewKey(at('/curation?kind=fact&status=pending'))).toBe(inboxViewKey(at('/curation?kind=fact')));
  });
});
