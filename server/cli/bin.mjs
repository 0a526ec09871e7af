#!/usr/bin/env node
// `npx mnemoscope …` in a checkout of Mnemoscope (the package's bin): the TypeScript CLI (mnemoscope.ts) run with
// tsx, with the repository's tsconfig (path aliases) wherever it is called from.
import path from 'node:path';
import { register } from 'tsx/esm/api';

register({ tsconfig: path.join(import.meta.dirname, '../../tsconfig.json') });
await import('./mnemoscope.ts');
