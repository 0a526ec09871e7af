/**
 * Enforces the import boundaries of STYLE.md; exits 1 listing every violation.
 *  1. lib/ is pure: no React, Next, database drivers, Node built-ins, server/, components/ or app/.
 *  2. Client code (a 'use client' module and everything it imports, transitively) reaches server/
 *     only through `import type`.
 *  3. components/ imports server/ only as types.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIRS = ['app', 'components', 'lib', 'server'];
const LIB_FORBIDDEN = [/^react(-dom)?(\/|$)/, /^next(\/|$)/, /^@tanstack\/react-query/, /^@trpc\//, /^postgres$/, /^@electric-sql\//, /^drizzle-orm/, /^node:/, /^(fs|path|crypto|os|child_process)$/, /^@\/(server|components|app)\//];

interface Import {
  spec: string;
  typeOnly: boolean;
  line: number;
}

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    if (n === 'node_modules' || n === 'demo' || n.startsWith('.')) return [];
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(n) && !n.endsWith('.d.ts') ? [p] : [];
  });
}

const IMPORT_RE = /^\s*(import|export)\s+(type\s+)?([\s\S]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

function importsOf(file: string): Import[] {
  const src = readFileSync(file, 'utf8');
  const out: Import[] = [];
  for (const m of src.matchAll(IMPORT_RE)) {
    const spec = m[4] ?? m[5] ?? m[6]!;
    const clause = m[3] ?? '';
    const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
    const allTypes = !!braces && braces[1]!.split(',').filter((s) => s.trim()).every((s) => /^\s*type\s/.test(s));
    out.push({ spec, typeOnly: !!m[2] || allTypes, line: src.slice(0, m.index).split('\n').length });
  }
  return out;
}

function resolve(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('@/')) base = path.join(ROOT, spec.slice(2));
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else return null;
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')])
    if (existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

const rel = (f: string) => path.relative(ROOT, f);
const all = DIRS.flatMap((d) => files(path.join(ROOT, d)));
const violations: string[] = [];

for (const f of all.filter((f) => rel(f).startsWith('lib/') && !f.endsWith('.test.ts'))) {
  for (const i of importsOf(f)) if (!i.typeOnly && LIB_FORBIDDEN.some((re) => re.test(i.spec))) violations.push(`${rel(f)}:${i.line} lib/ must stay pure but imports ${i.spec}`);
}

for (const f of all.filter((f) => rel(f).startsWith('components/'))) {
  for (const i of importsOf(f)) if (!i.typeOnly && i.spec.startsWith('@/server/')) violations.push(`${rel(f)}:${i.line} components/ may import server/ only as types, imports ${i.spec}`);
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
    const target = resolve(f, i.spec);
    if (!target) continue;
    if (rel(target).startsWith('server/')) violations.push(`${rel(f)}:${i.line} is client code (reached from ${via}) but imports ${i.spec}`);
    else queue.push([target, via]);
  }
}

if (violations.length) {
  console.error(`Import boundaries: ${violations.length} violation(s)\n${violations.map((v) => `  ${v}`).join('\n')}`);
  process.exit(1);
}
console.log(`Import boundaries: ok (${all.length} files, ${seen.size} client modules)`);
