/**
 * The import rules of ARCHITECTURE.md, executable: every forbidden edge of the layer graph, each with
 * the reason it is forbidden. `npm test` runs it (and `.ci/check-boundaries.test.ts` proves that each
 * rule fails on a deliberate violation). Run alone: `npm run check:boundaries`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const CHECKED_DIRS = ['app', 'components', 'lib', 'server', 'sdk', 'bench'];

interface Import {
  spec: string;
  typeOnly: boolean;
  line: number;
}

interface Rule {
  name: string;
  /** Which files the rule governs (paths relative to the root, with forward slashes). */
  applies: (file: string) => boolean;
  /** Whether an import (value imports only, unless `types` is set) breaks the rule. */
  forbids: (spec: string) => boolean;
  /** Type-only imports break it too. */
  types?: boolean;
  why: string;
}

const isTest = (f: string) => /\.test\.tsx?$/.test(f);
const under =
  (...dirs: string[]) =>
  (f: string) =>
    dirs.some((d) => f.startsWith(`${d}/`));
const to =
  (...dirs: string[]) =>
  (spec: string) =>
    dirs.some((d) => spec === `@/${d}` || spec.startsWith(`@/${d}/`));
const DRIVERS = [/^postgres$/, /^@electric-sql\//, /^drizzle-orm/];
const FRAMEWORKS = [/^react(-dom)?(\/|$)/, /^next(\/|$)/, /^@tanstack\/react-query/, /^@trpc\//];
const NODE = [/^node:/, /^(fs|path|crypto|os|child_process|http|stream|zlib)$/];
const matches = (res: RegExp[]) => (spec: string) => res.some((re) => re.test(spec));

export const RULES: Rule[] = [
  {
    name: 'lib-pure',
    applies: (f) => f.startsWith('lib/') && !isTest(f),
    forbids: (s) => matches([...FRAMEWORKS, ...DRIVERS, ...NODE])(s) || to('server', 'components', 'app', 'sdk')(s),
    why:
      'lib/ runs on the server, in the browser and in the worker alike: ' +
      'no React, Next, database drivers, Node built-ins or app layers',
  },
  {
    name: 'lib-tests-standalone',
    applies: (f) => f.startsWith('lib/') && isTest(f),
    forbids: (s) => matches([...FRAMEWORKS, ...DRIVERS])(s) || to('server', 'components', 'app', 'sdk')(s),
    why: 'unit tests of lib/ must run without PostgreSQL, a server or a browser (the fast developer loop)',
  },
  {
    name: 'ui-no-server',
    applies: under('components'),
    forbids: to('server'),
    why:
      'UI code is shipped to the browser: it may see server/ only as types ' +
      '(use the tRPC router, never services or db)',
  },
  {
    name: 'services-no-routers',
    applies: (f) => under('server/services', 'bench')(f),
    forbids: to('server/routers', 'server/trpc', 'server/http'),
    why: 'services are called by routers, HTTP adapters, the CLI and benches; a service reaching up would make a cycle',
  },
  {
    name: 'db-no-services',
    applies: under('server/db'),
    forbids: to('server/services', 'server/routers', 'server/http', 'server/trpc', 'server/demo'),
    why: 'the database layer is the bottom of the server: schema and driver know nothing of what uses them',
  },
  {
    name: 'routers-no-db',
    applies: (f) => f.startsWith('server/routers/') && !isTest(f),
    forbids: (s) => to('server/db')(s) || matches(DRIVERS)(s),
    why: 'routers are thin: validate, call one service, return its DTO; queries belong in services',
  },
  {
    name: 'server-no-components',
    applies: (f) => under('server', 'lib', 'sdk')(f) && !isTest(f),
    types: true,
    forbids: to('components', 'app'),
    why: 'server code never depends on UI code; what both sides use lives in lib/',
  },
  {
    name: 'app-through-adapters',
    applies: (f) => f.startsWith('app/') && !isTest(f),
    forbids: to('server/services', 'server/db', 'server/bootstrap', 'server/demo'),
    why:
      'pages and route handlers reach services only through server/http adapters or tRPC ' +
      '(auth, limits and errors in one place)',
  },
  {
    name: 'sdk-standalone',
    applies: (f) => f.startsWith('sdk/') && !isTest(f),
    forbids: (s) => to('server', 'components', 'app')(s) || matches([...FRAMEWORKS, ...DRIVERS])(s),
    why: 'the SDK ships to agents as its own package: it may use lib/ contracts but nothing of the app',
  },
];

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    if (n === 'node_modules' || n.startsWith('.')) return [];
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(n) && !n.endsWith('.d.ts') ? [p] : [];
  });
}

// `import … from 'x'` / `export … from 'x'`, a bare `import 'x'`, and a dynamic `import('x')`.
const IMPORT_RE = new RegExp(
  [
    String.raw`^\s*(import|export)\s+(type\s+)?([\s\S]*?)\s*from\s*['"]([^'"]+)['"]`,
    String.raw`^\s*import\s*['"]([^'"]+)['"]`,
    String.raw`import\(\s*['"]([^'"]+)['"]\s*\)`,
  ].join('|'),
  'gm',
);

function importsOf(file: string): Import[] {
  const src = readFileSync(file, 'utf8');
  const out: Import[] = [];
  for (const m of src.matchAll(IMPORT_RE)) {
    const spec = m[4] ?? m[5] ?? m[6]!;
    const clause = m[3] ?? '';
    const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
    const allTypes =
      !!braces &&
      braces[1]!
        .split(',')
        .filter((s) => s.trim())
        .every((s) => /^\s*type\s/.test(s));
    out.push({ spec, typeOnly: !!m[2] || allTypes, line: src.slice(0, m.index).split('\n').length });
  }
  return out;
}

/** `@/x` and relative specifiers as `@/…` paths from the root, so rules see one spelling. */
function canonical(root: string, from: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  return `@/${path
    .relative(root, path.resolve(path.dirname(from), spec))
    .split(path.sep)
    .join('/')}`;
}

function resolve(root: string, from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('@/')) base = path.join(root, spec.slice(2));
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else return null;
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')])
    if (existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

export interface BoundaryReport {
  files: number;
  clientModules: number;
  violations: string[];
}

export function checkBoundaries(root: string): BoundaryReport {
  const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');
  const all = CHECKED_DIRS.flatMap((d) => files(path.join(root, d)));
  const violations: string[] = [];

  for (const f of all) {
    const r = rel(f);
    const rules = RULES.filter((rule) => rule.applies(r));
    if (!rules.length) continue;
    for (const i of importsOf(f)) {
      const spec = canonical(root, f, i.spec);
      for (const rule of rules)
        if ((rule.types || !i.typeOnly) && rule.forbids(spec))
          violations.push(`${r}:${i.line} imports ${i.spec} [${rule.name}: ${rule.why}]`);
    }
  }

  // Everything reachable from a 'use client' module through value imports is client code.
  const isClient = (f: string) => /^\s*(['"])use client\1/.test(readFileSync(f, 'utf8'));
  const seen = new Map<string, string>();
  const queue = all.filter(isClient).map((f) => [f, rel(f)] as const);
  while (queue.length) {
    const [f, via] = queue.shift()!;
    if (seen.has(f)) continue;
    seen.set(f, via);
    for (const i of importsOf(f)) {
      if (i.typeOnly) continue;
      const target = resolve(root, f, i.spec);
      if (!target) continue;
      if (rel(target).startsWith('server/'))
        violations.push(
          `${rel(f)}:${i.line} imports ${i.spec} [client-no-server: client code (reached from ${via}) ` +
            'is shipped to the browser and may see server/ only as types]',
        );
      else queue.push([target, via]);
    }
  }
  return { files: all.length, clientModules: seen.size, violations };
}

if (import.meta.filename === process.argv[1]) {
  const { files: n, clientModules, violations } = checkBoundaries(path.resolve(import.meta.dirname, '..'));
  if (violations.length) {
    console.error(
      `Import boundaries: ${violations.length} violation(s)\n${violations.map((v) => `  ${v}`).join('\n')}`,
    );
    process.exit(1);
  }
  console.log(`Import boundaries: ok (${n} files, ${clientModules} client modules)`);
}
