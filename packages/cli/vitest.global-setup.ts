import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = fileURLToPath(new URL('.', import.meta.url));

/** Newest modification time of the sources the build reads. */
function newestSource(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * The end-to-end tests run the built binary. Turbo builds it before `test`; when the tests are run
 * on their own after an edit, rebuild here so they never exercise a stale `dist/`.
 */
export default function setup(): void {
  const bin = join(packageRoot, 'dist', 'bin.js');
  if (existsSync(bin) && statSync(bin).mtimeMs >= newestSource(join(packageRoot, 'src'))) return;
  const typescript = dirname(createRequire(import.meta.url).resolve('typescript/package.json'));
  execFileSync(process.execPath, [join(typescript, 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
    cwd: packageRoot,
    stdio: 'inherit',
  });
}
