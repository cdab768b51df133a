import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('committed migrations', () => {
  const copy = mkdtempSync(join(tmpdir(), 'baton-sessions-migrations-'));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('match src/schema.ts (drizzle-kit finds nothing to generate)', () => {
    cpSync(join(packageDir, 'drizzle'), copy, { recursive: true });
    const before = readdirSync(copy, { recursive: true }).sort();
    const output = execFileSync(
      join(packageDir, 'node_modules', '.bin', 'drizzle-kit'),
      // drizzle-kit treats --out as relative to the working directory.
      [
        'generate',
        '--dialect',
        'postgresql',
        '--schema',
        './src/schema.ts',
        '--out',
        relative(packageDir, copy),
      ],
      { cwd: packageDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(output).toContain('No schema changes');
    expect(readdirSync(copy, { recursive: true }).sort()).toEqual(before);
  }, 60_000);
});
