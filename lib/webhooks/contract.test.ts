import { describe, expect, it } from 'vitest';
import { retryDelaySeconds, signWebhook, verifyWebhook, webhookUrlProblem } from './contract';

describe('webhook signatures', () => {
  const body = '{"id":"d1","type":"proposal.decided"}';
  const at = 1_764_000_000;

  it('verify what was signed with the same secret, at about the same time', async () => {
    const header = await signWebhook('whsec_a', body, at);
    expect(header).toMatch(/^t=1764000000,v1=[0-9a-f]{64}$/);
    expect(await verifyWebhook('whsec_a', body, header, { now: at + 299 })).toBe(true);
  });

  it('refuse another secret, a changed body, a stale or future time, and malformed headers', async () => {
    const header = await signWebhook('whsec_a', body, at);
    expect(await verifyWebhook('whsec_b', body, header, { now: at })).toBe(false);
    expect(await verifyWebhook('whsec_a', body.replace('d1', 'd2'), header, { now: at })).toBe(false);
    expect(await verifyWebhook('whsec_a', body, header, { now: at + 301 })).toBe(false);
    expect(await verifyWebhook('whsec_a', body, header, { now: at - 301 })).toBe(false);
    // The time is part of what is signed: moving it breaks the signature.
    expect(await verifyWebhook('whsec_a', body, header.replace(`t=${at}`, `t=${at + 1}`), { now: at })).toBe(false);
    for (const bad of [null, '', 'v1=abc', `t=${at}`, `t=${at},v1=zz`, 't=x,v1=' + '0'.repeat(64)])
      expect(await verifyWebhook('whsec_a', body, bad, { now: at })).toBe(false);
  });
});

describe('webhook retries and URLs', () => {
  it('wait 10 s after the first failure, doubling up to an hour', () => {
    expect([1, 2, 3, 4, 9, 10, 20].map(retryDelaySeconds)).toEqual([10, 20, 40, 80, 2560, 3600, 3600]);
  });

  it('take http(s) URLs without credentials only', () => {
    expect(webhookUrlProblem('https://hooks.example.org/x')).toBeNull();
    expect(webhookUrlProblem('http://127.0.0.1:9000/hook')).toBeNull();
    expect(webhookUrlProblem('hooks.example.org')).toBe('not a URL');
    expect(webhookUrlProblem('file:///etc/passwd')).toMatch(/^must be http or https/);
    expect(webhookUrlProblem('https://user:pw@example.org')).toMatch(/^must not carry/);
  });
});
