#!/usr/bin/env node
// Gathers each package's bench output (packages/*/bench-results/results.md, written by its `bench`
// script) into the root BENCHMARKS.md, headed by the machine, Node version and date of the run.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

const sections = [];
for (const root of ['packages', 'apps']) {
  if (!existsSync(root)) continue;
  for (const name of readdirSync(root).sort()) {
    const file = join(root, name, 'bench-results', 'results.md');
    if (existsSync(file)) sections.push(readFileSync(file, 'utf8').trim());
  }
}
const cpu = cpus();
const header = [
  '# Benchmarks',
  '',
  'Written by `pnpm bench`. Absolute times on a shared 2-core machine are noisy: read the medians and',
  'the ratios against peers measured in the same run.',
  '',
  `- Date: ${new Date().toISOString()}`,
  `- Machine: ${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
  `- Node: ${process.version} (${process.platform} ${process.arch})`,
  '',
];
writeFileSync('BENCHMARKS.md', `${[header.join('\n'), ...sections].join('\n\n')}\n`);
console.log(`BENCHMARKS.md: ${sections.length} package sections`);
