import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

/** Starts a private PostgreSQL for the suite (or uses TEST_DATABASE_URL) and stops it afterwards. */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgUrl', process.env.TEST_DATABASE_URL);
    return;
  }
  const pg = await startPostgres();
  project.provide('pgUrl', pg.url);
  return pg.stop;
}
