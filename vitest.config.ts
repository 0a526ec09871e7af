import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Two projects, both run by `npm test`:
 * - unit: pure code (lib/, the SDK, the demo generators, the boundary checker); no database, so it runs
 *   on a machine without PostgreSQL binaries (`npm run test:unit`);
 * - integration: services, routers and route handlers on a freshly migrated PGlite and on a private
 *   PostgreSQL that the global setup starts (`npm run test:integration`).
 */
const UNIT = ['lib/**/*.test.ts', 'sdk/**/*.test.ts', '.ci/**/*.test.ts', 'server/demo/**/*.test.ts'];

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['{server,components,app}/**/*.test.ts'],
          exclude: ['server/demo/**', 'node_modules/**'],
          globalSetup: ['./server/test/global-setup.ts'],
        },
      },
    ],
  },
});
