import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { modelPin } from '../scripts/fetch-model.mjs';
import { createLocalModel } from './create-local-model.js';
import { ModelNotFoundError } from './local-model-errors.js';
import { defaultModelFile, modelCacheDir, resolveModelPath } from './resolve-model-path.js';

const folders: string[] = [];
function folder(): string {
  const path = mkdtempSync(join(tmpdir(), 'baton-models-'));
  folders.push(path);
  return path;
}
afterEach(() => {
  for (const path of folders.splice(0)) rmSync(path, { recursive: true, force: true });
});

describe('resolveModelPath', () => {
  it('uses an explicit path when it is a file, and only that path', () => {
    const cache = folder();
    writeFileSync(join(cache, defaultModelFile), 'x');
    const explicit = join(folder(), 'mine.gguf');
    writeFileSync(explicit, 'x');
    expect(resolveModelPath({ modelPath: explicit, cacheDir: cache })).toBe(explicit);
    const missing = join(folder(), 'absent.gguf');
    const error = (() => {
      try {
        resolveModelPath({ modelPath: missing, cacheDir: cache });
      } catch (caught) {
        return caught;
      }
    })();
    expect(ModelNotFoundError.isInstance(error)).toBe(true);
    expect((error as ModelNotFoundError).code).toBe('model_not_found');
    expect((error as ModelNotFoundError).searched).toEqual([missing]);
  });

  it('prefers the default model in the cache folder, else the first .gguf by name', () => {
    const cache = folder();
    writeFileSync(join(cache, 'b.gguf'), 'x');
    writeFileSync(join(cache, 'a.GGUF'), 'x');
    writeFileSync(join(cache, 'notes.txt'), 'x');
    mkdirSync(join(cache, 'dir.gguf'));
    expect(resolveModelPath({ cacheDir: cache })).toBe(join(cache, 'a.GGUF'));
    writeFileSync(join(cache, defaultModelFile), 'x');
    expect(resolveModelPath({ cacheDir: cache })).toBe(join(cache, defaultModelFile));
  });

  it('throws a typed error naming what to run when the cache holds no model; never fetches', () => {
    const empty = folder();
    const absent = join(empty, 'not-created');
    for (const cacheDir of [empty, absent]) {
      const error = (() => {
        try {
          createLocalModel({ cacheDir });
        } catch (caught) {
          return caught;
        }
      })() as ModelNotFoundError;
      expect(ModelNotFoundError.isInstance(error)).toBe(true);
      expect(error.message).toContain('baton-fetch-model');
    }
  });

  it('reads the cache folder from BATON_CACHE_DIR, else ~/.cache/baton', () => {
    expect(modelCacheDir({ BATON_CACHE_DIR: '/somewhere' })).toBe(join('/somewhere', 'models'));
    expect(modelCacheDir({})).toMatch(/\.cache[/\\]baton[/\\]models$/);
  });

  it('looks for the very file the fetch script writes', () => {
    expect(modelPin.file).toBe(defaultModelFile);
  });
});
