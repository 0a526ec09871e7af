import { describe, expect, it } from 'vitest';
import { isLoopback } from './loopback';

describe('isLoopback', () => {
  it('accepts only addresses this machine alone can reach', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopback(h)).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', '127.0.0.256', '128.0.0.1'])
      expect(isLoopback(h)).toBe(false);
  });
});
