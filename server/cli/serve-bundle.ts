/**
 * The production server (serve.ts and the three small modules it imports) as one JavaScript file that plain `node`
 * runs: `npm start` makes it after the build check and then runs it in place of its shell. Run under tsx instead, the
 * server carried tsx's module hooks for every module it loaded (Next's bundles, transformers.js, onnxruntime): 215
 * MB more resident memory on a restart with the demo (658 → 443 MB after the main pages). Packages stay imports from
 * node_modules; only our TypeScript is bundled.
 */
import { renameSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * Where `npm start` and the tests' servers run it from (package.json's `start` names it too). Not under `.next`: a
 * `next build` started meanwhile (another instance finding the sources newer, `npm run build`) empties that folder.
 * Under node_modules, its packages resolve as they would from the checkout.
 */
export const SERVE_BUNDLE = path.join('node_modules', '.cache', 'mnemoscope', 'serve.mjs');

/**
 * Writes the bundle under `root` and returns its path. Written beside it and renamed, so that instances started at
 * once from one checkout never run a half-written file.
 */
export async function bundleServe(root: string): Promise<string> {
  const out = path.join(root, SERVE_BUNDLE);
  const tmp = `${out}.${process.pid}.tmp`;
  await build({
    entryPoints: [path.join(root, 'server/cli/serve.ts')],
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: tmp,
    logLevel: 'warning',
  });
  renameSync(tmp, out);
  return out;
}
