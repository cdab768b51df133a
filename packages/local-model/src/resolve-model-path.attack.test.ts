import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelNotFoundError, resolveModelPath } from './index.js';

const root = mkdtempSync(join(tmpdir(), 'baton-resolve-attack-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const fresh = () => join(root, randomBytes(4).toString('hex'));

describe('resolveModelPath on a broken cache folder', () => {
  it('a cache "folder" that is a file, a dangling symlink, or a loop: ModelNotFoundError, never a raw fs error', () => {
    const file = fresh();
    writeFileSync(file, 'not a folder');
    const dangling = fresh();
    symlinkSync(join(root, 'nowhere', randomBytes(4).toString('hex')), dangling);
    const loop = fresh();
    symlinkSync(loop, loop);
    const underFile = join(file, 'models');
    for (const cacheDir of [file, dangling, loop, underFile]) {
      let error: unknown;
      try {
        resolveModelPath({ cacheDir });
      } catch (caught) {
        error = caught;
      }
      expect(ModelNotFoundError.isInstance(error), cacheDir).toBe(true);
    }
  });

  it('entries named .gguf that are folders or dangling links are skipped for a real file', () => {
    const folder = fresh();
    mkdirSync(join(folder, 'a.gguf'), { recursive: true });
    symlinkSync(join(folder, 'missing.bin'), join(folder, 'b.gguf'));
    writeFileSync(join(folder, 'c.gguf'), 'GGUF');
    expect(resolveModelPath({ cacheDir: folder })).toBe(join(folder, 'c.gguf'));
  });
});
