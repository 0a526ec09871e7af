import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKED_DIRS, checkBoundaries, RULES } from './check-boundaries';

/**
 * Each rule must fail on a deliberate violation: a scratch copy of the source tree gets one forbidden
 * edge at a time, and the checker must report it under that rule's name (and only the new edge).
 */
const ROOT = path.resolve(import.meta.dirname, '..');
let scratch: string;
let baseline: Set<string>;

beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'boundaries-'));
  for (const d of CHECKED_DIRS)
    cpSync(path.join(ROOT, d), path.join(scratch, d), {
      recursive: true,
      filter: (src) => !/node_modules|ucs-workspace|\.json$|\.png$/.test(src),
    });
  baseline = new Set(checkBoundaries(scratch).violations);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes one file into the scratch tree, runs the checker, removes the file, returns what is new. */
function violationsWith(file: string, source: string): string[] {
  const full = path.join(scratch, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, source);
  try {
    return checkBoundaries(scratch).violations.filter((v) => !baseline.has(v));
  } finally {
    rmSync(full);
  }
}

const CASES: { rule: string; file: string; source: string }[] = [
  { rule: 'lib-pure', file: 'lib/x/bad.ts', source: "import { readFileSync } from 'node:fs';\n" },
  { rule: 'lib-pure', file: 'lib/x/bad-react.ts', source: "import { useState } from 'react';\n" },
  { rule: 'lib-pure', file: 'lib/x/bad-server.ts', source: "import { env } from '../../server/env';\n" },
  { rule: 'lib-tests-standalone', file: 'lib/x/bad.test.ts', source: "import { freshDb } from '@/server/test/db';\n" },
  {
    rule: 'ui-no-server',
    file: 'components/x/bad.tsx',
    source: "import { ingest } from '@/server/services/ingest';\n",
  },
  { rule: 'ui-no-server', file: 'components/x/bad-db.ts', source: "import { schema } from '@/server/db';\n" },
  {
    rule: 'services-no-routers',
    file: 'server/services/bad.ts',
    source: "import { appRouter } from '../routers/app';\n",
  },
  {
    rule: 'services-no-routers',
    file: 'server/services/bad.test.ts',
    source: "import { appRouter } from '@/server/routers/app';\n",
  },
  {
    rule: 'services-no-routers',
    file: 'bench/bad.ts',
    source: "import { hygieneRouter } from '@/server/routers/hygiene';\n",
  },
  { rule: 'db-no-services', file: 'server/db/bad.ts', source: "import { ingest } from '@/server/services/ingest';\n" },
  {
    rule: 'routers-no-db',
    file: 'server/routers/bad.ts',
    source: "import { turns } from '@/server/db/schema/sessions';\n",
  },
  {
    rule: 'server-no-components',
    file: 'server/services/bad-ui.ts',
    source: "import type { X } from '@/components/ui/states';\n",
  },
  {
    rule: 'app-through-adapters',
    file: 'app/bad/page.tsx',
    source: "import { listSessions } from '@/server/services/sessions';\n",
  },
  {
    rule: 'app-through-adapters',
    file: 'app/api/bad/route.ts',
    source: "import { getDbHandle } from '@/server/db';\n",
  },
  {
    rule: 'sdk-standalone',
    file: 'sdk/typescript/bad.ts',
    source: "import { ingest } from '@/server/services/ingest';\n",
  },
  {
    rule: 'client-no-server',
    file: 'lib/x/bad-client.ts',
    source: "'use client';\nimport { env } from '@/server/env';\n",
  },
];

describe('import boundaries', () => {
  it('has a case for every rule', () => {
    expect(new Set(CASES.map((c) => c.rule))).toEqual(new Set([...RULES.map((r) => r.name), 'client-no-server']));
  });

  it.each(CASES)('$rule fails on $file', ({ rule, file, source }) => {
    const found = violationsWith(file, source);
    expect(found.some((v) => v.startsWith(`${file}:`) && v.includes(`[${rule}:`))).toBe(true);
  });

  it('lets the allowed edges through', () => {
    expect(violationsWith('components/x/ok.tsx', "import type { AppRouter } from '@/server/routers/app';\n")).toEqual(
      [],
    );
    expect(violationsWith('server/routers/ok.ts', "import type { Tx } from '@/server/db';\n")).toEqual([]);
    expect(violationsWith('app/ok/page.tsx', "import { trpc } from '@/server/trpc/rsc';\n")).toEqual([]);
    expect(violationsWith('lib/x/ok.test.ts', "import { readFileSync } from 'node:fs';\n")).toEqual([]);
  });

  it('explains each violation with the reason', () => {
    const [v] = violationsWith('server/db/bad.ts', "import { ingest } from '@/server/services/ingest';\n");
    expect(v).toMatch(/server\/db\/bad\.ts:1 imports @\/server\/services\/ingest \[db-no-services: .+]/);
  });
});
