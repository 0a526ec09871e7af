/**
 * No line over 120 characters in source files (data files, lockfiles, generated migrations and fixtures
 * excepted): Prettier wraps code at 120 but leaves long strings and comments alone, so this catches them.
 * A one-name import from a long module path is the only exception.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX = 120;
const SOURCE = /\.(ts|tsx|js|mjs|css|sh|py)$/;
const DATA = /^(drizzle|public|server\/demo\/(ucs-workspace|curator))\//;

const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => SOURCE.test(f) && !DATA.test(f));
const long: string[] = [];
for (const f of tracked) {
  let text: string;
  try {
    text = readFileSync(f, 'utf8');
  } catch {
    continue; // deleted in the work tree
  }
  text.split('\n').forEach((line, i) => {
    // An import of one long name from a long module path cannot be wrapped.
    if (line.length > MAX && !/^import \{ \w+ \} from '[^']+';$/.test(line))
      long.push(`${f}:${i + 1} has ${line.length} characters`);
  });
}
if (long.length) {
  console.error(`Lines over ${MAX} characters: ${long.length}\n${long.map((l) => `  ${l}`).join('\n')}`);
  process.exit(1);
}
console.log(`Line length: ok (${tracked.length} files, at most ${MAX} characters)`);
