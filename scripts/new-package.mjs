#!/usr/bin/env node
// Scaffolds packages/<name> with the files every Baton package shares, so that no package drifts
// from the others in layout or script names. Usage: node scripts/new-package.mjs <name> "<description>"
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [name, description = ''] = process.argv.slice(2);
if (!name || !/^[a-z][a-z0-9-]*$/.test(name)) {
  console.error('usage: node scripts/new-package.mjs <kebab-name> "<description>"');
  process.exit(2);
}
const dir = join('packages', name);
if (existsSync(dir)) {
  console.error(`${dir} already exists`);
  process.exit(2);
}
mkdirSync(join(dir, 'src'), { recursive: true });

const json = (value) => `${JSON.stringify(value, null, 2)}\n`;
const files = {
  'package.json': json({
    name: `@baton/${name}`,
    version: '0.0.0',
    description,
    license: 'MIT',
    type: 'module',
    sideEffects: false,
    engines: { node: '>=22' },
    exports: {
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './package.json': './package.json',
    },
    main: './dist/index.js',
    types: './dist/index.d.ts',
    files: ['dist', 'README.md', 'CHANGELOG.md'],
    scripts: {
      build: 'tsc -p tsconfig.build.json',
      typecheck: 'tsc -p tsconfig.json --noEmit',
      test: 'vitest run',
      bench: 'node --expose-gc bench/run.ts',
      'lint:package': 'publint --strict && attw --pack . --profile esm-only',
    },
  }),
  'tsconfig.json': json({
    extends: '../../tsconfig.base.json',
    compilerOptions: { rootDir: '.', noEmit: true },
    include: ['src', 'bench', 'vitest.config.ts'],
  }),
  'tsconfig.build.json': json({
    extends: '../../tsconfig.base.json',
    compilerOptions: { rootDir: 'src', outDir: 'dist' },
    include: ['src'],
    exclude: ['src/**/*.test.ts', 'src/**/__fixtures__/**', 'src/**/test-utils/**'],
  }),
  'vitest.config.ts': `import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
`,
  'README.md': `# @baton/${name}\n\n${description}\n`,
  'CHANGELOG.md': `# @baton/${name}\n`,
};
for (const [file, content] of Object.entries(files)) writeFileSync(join(dir, file), content);
console.log(`created ${dir}`);
