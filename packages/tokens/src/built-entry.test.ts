import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as source from './index.js';

// The published entry is one bundled module (`pnpm build`): importing 42 modules through Node's ESM
// loader cost ~20 ms of a cold start's ~165 ms (import plus a first count), a quarter of a
// millisecond per module before any of its code ran.
const entry = new URL('../dist/index.js', import.meta.url);
const built = existsSync(entry);
const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');

describe.skipIf(!built)('built entry point', () => {
  it('is one module: it imports packages and node: builtins only, never a file of its own', () => {
    const code = readFileSync(entry, 'utf8');
    const specifiers = [
      ...code.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']/g),
    ]
      .map((match) => match[1] ?? match[2]!)
      .filter((specifier) => specifier.startsWith('.') || specifier.startsWith('/'));
    expect(specifiers).toEqual([]);
  });

  it('exports what the source exports', async () => {
    const bundle = (await import(entry.href)) as Record<string, unknown>;
    expect(Object.keys(bundle).sort()).toEqual(Object.keys(source).sort());
  });

  it('counts exactly through each entry point used first in a fresh process (property)', () => {
    // Each process uses one entry point first: the rank table and caches are built by that call.
    const entryPoints: Record<string, string> = {
      createTokenCounter: `m.createTokenCounter({ encoding: 'o200k_base' }).count(text)`,
      defaultTokenCounter: 'm.defaultTokenCounter().count(text)',
      loadBytePairEncoder: `m.loadBytePairEncoder('o200k_base').encode_ordinary(text).length`,
      countMessages: `m.createTokenCounter({ encoding: 'o200k_base' }).countMessages([{ role: 'user', content: text }]) - m.createTokenCounter({ encoding: 'o200k_base' }).countMessages([{ role: 'user', content: '' }])`,
    };
    const encoder = tiktoken.get_encoding('o200k_base');
    const text = fc
      .sample(
        fc.noBias(
          fc.array(
            fc.oneof(
              fc.string({ unit: 'grapheme', maxLength: 40 }),
              fc.string({ unit: 'binary', maxLength: 20 }),
              fc.constantFrom(
                ' ',
                '\n',
                'the ',
                'Straße ',
                '日本語',
                '='.repeat(300),
                'x'.repeat(200),
              ),
            ),
            { minLength: 20, maxLength: 60 },
          ),
        ),
        1,
      )[0]!
      .join('');
    const expected = encoder.encode_ordinary(text).length;
    encoder.free();
    for (const [name, call] of Object.entries(entryPoints)) {
      const output = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const text = ${JSON.stringify(text)}; const m = await import(${JSON.stringify(entry.href)}); process.stdout.write(String(${call}));`,
        ],
        { encoding: 'utf8' },
      );
      expect(Number(output), name).toBe(expected);
    }
    const estimate = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(entry.href)}); process.stdout.write(String(m.estimateTokens(${JSON.stringify(text)})));`,
      ],
      { encoding: 'utf8' },
    );
    expect(Number(estimate)).toBe(source.estimateTokens(text));
  });

  it('counts o200k from the rank table built into dist, without decoding the published rank file', () => {
    // Decoding overwrites the rank file's bytes in place; read through the built table they stay
    // as read. Control: with the built table hidden (read as missing) they are decoded.
    const script = (hideBuilt: boolean) =>
      `import fs from 'node:fs'; import { syncBuiltinESMExports } from 'node:module';
      const read = fs.readFileSync; const seen = [];
      fs.readFileSync = (path, ...rest) => {
        if (${hideBuilt} && String(path).endsWith('.ranks')) throw new Error('hidden');
        const bytes = read(path, ...rest);
        if (String(path).endsWith('o200k_base.json')) seen.push([bytes, Buffer.from(bytes)]);
        return bytes;
      };
      syncBuiltinESMExports();
      const m = await import(${JSON.stringify(entry.href)});
      const n = m.createTokenCounter({ encoding: 'o200k_base' }).count('Grüße, 世界! ' + 'hello world '.repeat(50));
      process.stdout.write(JSON.stringify({ n, read: seen.length, intact: seen.every(([a, b]) => a.equals(b)) }));`;
    const run = (hideBuilt: boolean) =>
      JSON.parse(
        execFileSync(process.execPath, ['--input-type=module', '-e', script(hideBuilt)], {
          encoding: 'utf8',
        }),
      ) as { n: number; read: number; intact: boolean };
    const built = run(false);
    const decoded = run(true);
    expect(built).toEqual({ n: decoded.n, read: 1, intact: true });
    expect(decoded).toMatchObject({ read: 1, intact: false });
  });
});
