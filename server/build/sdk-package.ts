/**
 * Builds the TypeScript SDK package (`@mnemoscope/sdk`, sdk/typescript) into its `dist/`: one ES module with the
 * contracts and validation it shares with the server bundled in (esbuild; `zod` stays a dependency), and one
 * declaration file with every type an agent sees, the `@/lib` contracts inlined (dts-bundle-generator).
 *
 *   npm run sdk:build [-- --out DIR]      (default sdk/typescript/dist); then `npm pack` in sdk/typescript
 */
import { build } from 'esbuild';
import { generateDtsBundle } from 'dts-bundle-generator';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.join(import.meta.dirname, '../..');
const pkgDir = path.join(root, 'sdk/typescript');

export async function buildSdkPackage(out = path.join(pkgDir, 'dist')) {
  mkdirSync(out, { recursive: true });
  const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  await build({
    entryPoints: [path.join(pkgDir, 'index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    external: Object.keys(pkg.dependencies),
    tsconfig: path.join(root, 'tsconfig.json'),
    outfile: path.join(out, 'index.js'),
    legalComments: 'eof',
    logLevel: 'silent',
  });
  // Only what index.ts exports is exported; the types it refers to are declared, not exported.
  const entry = { filePath: path.join(pkgDir, 'index.ts'), output: { noBanner: true, exportReferencedTypes: false } };
  const [dts] = generateDtsBundle([entry], {
    preferredConfigPath: path.join(root, 'tsconfig.json'),
  });
  writeFileSync(path.join(out, 'index.d.ts'), dts!);
  return { js: statSync(path.join(out, 'index.js')).size, dts: statSync(path.join(out, 'index.d.ts')).size };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  buildSdkPackage(values.out && path.resolve(values.out)).then(
    (s) => console.log(`built @mnemoscope/sdk: index.js ${Math.round(s.js / 1024)} KiB, index.d.ts ${s.dts} bytes`),
    (e: Error) => {
      console.error(`sdk:build: ${e.message}`);
      process.exit(1);
    },
  );
}
