/**
 * Bundles the SDK (sdk/typescript with its contracts and validation) into one ES module for agents in plain
 * JavaScript — Node ≥ 20, Bun, Deno or a browser — that cannot run TypeScript from this repository.
 *
 *   npm run sdk:bundle -- [--out FILE]     (default mnemoscope-sdk.mjs)
 */
import { build } from 'esbuild';
import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

export async function bundleSdk(out: string) {
  await build({
    entryPoints: [path.join(import.meta.dirname, '../../sdk/typescript/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    minify: true,
    legalComments: 'eof',
    tsconfig: path.join(import.meta.dirname, '../../tsconfig.json'),
    outfile: out,
    logLevel: 'silent',
  });
  return statSync(out).size;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: 'mnemoscope-sdk.mjs' } } });
  bundleSdk(values.out!).then(
    (size) =>
      console.log(
        `wrote ${values.out} (${Math.round(size / 1024)} KiB): import { Mnemoscope } ` +
          `from ` +
          `'./${path.basename(values.out!)}'`,
      ),
    (e: Error) => {
      console.error(`sdk:bundle: ${e.message}`);
      process.exit(1);
    },
  );
}
