#!/usr/bin/env node
// Packs every public package and installs each one alone, from its tarball, into an empty project
// (other @baton packages it needs come from their tarballs too, never from the workspace), then imports
// it. Optional peers (ai, pg, @electric-sql/pglite) are NOT installed, so an import that needs one
// eagerly fails here: that is the check that heavy dependencies are loaded lazily.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'baton-packed-'));
const packs = join(work, 'packs');
mkdirSync(packs);

const packages = readdirSync(join(root, 'packages'))
  .map((name) => ({ dir: join(root, 'packages', name) }))
  .map((entry) => ({
    ...entry,
    manifest: JSON.parse(readFileSync(join(entry.dir, 'package.json'), 'utf8')),
  }))
  .filter(({ manifest }) => !manifest.private);

const tarballs = {};
for (const { dir, manifest } of packages) {
  const output = execFileSync('pnpm', ['pack', '--pack-destination', packs], {
    cwd: dir,
    encoding: 'utf8',
  });
  const file = output.trim().split('\n').pop().trim();
  tarballs[manifest.name] = resolve(dir, file);
}

const failures = [];
for (const { manifest } of packages) {
  const project = join(work, manifest.name.replace('/', '__'));
  mkdirSync(project);
  const overrides = Object.fromEntries(
    Object.entries(tarballs).map(([name, file]) => [name, `file:${file}`]),
  );
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'probe',
      private: true,
      type: 'module',
      dependencies: { [manifest.name]: `file:${tarballs[manifest.name]}` },
      overrides,
    }),
  );
  const started = Date.now();
  try {
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--omit=peer', '--loglevel=error'], {
      cwd: project,
      stdio: 'pipe',
      // A registry that cannot be reached must fail the check, not hang it.
      timeout: 180_000,
    });
    const probe = `const m = await import(${JSON.stringify(manifest.name)}); const names = Object.keys(m); if (names.length === 0) throw new Error('no exports'); console.log(names.length + ' exports');`;
    const result = execFileSync('node', ['--input-type=module', '-e', probe], {
      cwd: project,
      encoding: 'utf8',
    }).trim();
    if (manifest.bin) {
      for (const bin of Object.keys(manifest.bin)) {
        execFileSync(join(project, 'node_modules', '.bin', bin), ['--version'], {
          cwd: project,
          stdio: 'pipe',
        });
      }
    }
    console.log(
      `ok   ${manifest.name}: installs alone, imports (${result})${manifest.bin ? ', bin runs' : ''} [${Date.now() - started} ms]`,
    );
  } catch (error) {
    failures.push(manifest.name);
    console.log(
      `FAIL ${manifest.name}: ${String(error.stderr || error.message)
        .trim()
        .split('\n')
        .slice(-5)
        .join('\n     ')}`,
    );
  }
}
rmSync(work, { recursive: true, force: true });
if (failures.length > 0) {
  console.error(`packed install failed for: ${failures.join(', ')}`);
  process.exit(1);
}
