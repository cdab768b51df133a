// Installs the pinned npm peers of bench/peers/package.json into bench/peers/.cache/npm (never into the
// workspace), links bench/peers/node_modules to it, and links Baton's built packages next to them so the
// harness imports `@baton/compressor` as a user would. Idempotent: skips npm when the pins are unchanged.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const cache = join(here, '.cache', 'npm');
const pins = readFileSync(join(here, 'package.json'), 'utf8');
mkdirSync(cache, { recursive: true });
const stamp = join(cache, '.pins');
if (
  !(
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8') === pins &&
    existsSync(join(cache, 'node_modules'))
  )
) {
  writeFileSync(join(cache, 'package.json'), pins);
  execFileSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--no-package-lock',
      '--loglevel=error',
    ],
    { cwd: cache, stdio: 'inherit' },
  );
  writeFileSync(stamp, pins);
}
const link = join(here, 'node_modules');
if (!existsSync(link)) symlinkSync(relative(here, join(cache, 'node_modules')), link, 'dir');
const root = resolve(here, '..', '..');
mkdirSync(join(cache, 'node_modules', '@baton'), { recursive: true });
for (const name of ['compressor', 'tokens', 'fallback', 'local-model']) {
  const target = join(root, 'packages', name);
  if (!existsSync(join(target, 'dist', 'index.js'))) {
    console.error(
      `setup-node: packages/${name} is not built (run: npx turbo run build --filter=@baton/${name}...)`,
    );
    process.exit(1);
  }
  const at = join(cache, 'node_modules', '@baton', name);
  try {
    if (lstatSync(at)) rmSync(at, { recursive: true, force: true });
  } catch {}
  symlinkSync(relative(dirname(at), target), at, 'dir');
}
console.log('setup-node: npm peers ready in', relative(root, cache));
