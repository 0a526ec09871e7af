import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SourceFile } from '@/lib/import/files';

/** Reads a file, or every file under a directory (hidden ones skipped), with paths relative to it. */
export function readTree(root: string): SourceFile[] {
  const st = statSync(root);
  if (!st.isDirectory()) return [{ path: path.basename(root), text: readFileSync(root, 'utf8') }];
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.')) continue;
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push({ path: path.relative(root, full).split(path.sep).join('/'), text: readFileSync(full, 'utf8') });
    }
  };
  walk(root);
  return out;
}
