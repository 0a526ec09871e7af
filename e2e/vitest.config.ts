import path from 'node:path';
import { defineConfig } from 'vitest/config';

const root = path.resolve(import.meta.dirname, '..');

export default defineConfig({
  root,
  resolve: { alias: { '@': root } },
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['./e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One browser and two servers for the whole run; files run one after another.
    fileParallelism: false,
    // A page that waits on the server gets 5 s, not vitest's default 1 s: on 2 busy cores a fetch and a render may
    // take longer than 1 s without anything being wrong (a poll that never matches still fails).
    expect: { poll: { timeout: 5_000 } },
  },
});
