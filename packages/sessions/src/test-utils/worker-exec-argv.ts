import { fileURLToPath } from 'node:url';

const resolveHook = fileURLToPath(
  new URL('../__fixtures__/typescript-resolve.mjs', import.meta.url),
);

/**
 * Node flags for worker processes that run the TypeScript sources: type stripping (on by default from
 * Node 22.18 and 23.6; switched on explicitly before) and the `.js` -> `.ts` resolve hook.
 */
export const workerExecArgv: string[] = [
  ...(process.features.typescript ? [] : ['--experimental-strip-types']),
  '--import',
  resolveHook,
];
