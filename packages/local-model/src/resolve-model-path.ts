import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ModelNotFoundError } from './local-model-errors.js';

/** File name of the default model, as `baton-fetch-model` writes it into the cache folder. */
export const defaultModelFile = 'SmolLM2-135M-Instruct.Q4_1.gguf';

export interface ResolveModelPathOptions {
  /** A GGUF file to use. When set, only this path is tried. Default: none. */
  modelPath?: string;
  /** Folder holding cached models. Default: {@link modelCacheDir}. */
  cacheDir?: string;
}

/**
 * The folder `baton-fetch-model` fills and discovery reads: `$BATON_CACHE_DIR/models`, else
 * `~/.cache/baton/models`.
 */
export function modelCacheDir(environment: NodeJS.ProcessEnv = process.env): string {
  const base = environment.BATON_CACHE_DIR || join(homedir(), '.cache', 'baton');
  return join(base, 'models');
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The `.gguf` files of a folder by name; none when it is missing or no folder (a file, a link loop). */
function ggufFilesIn(folder: string): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.toLowerCase().endsWith('.gguf'))
    .sort()
    .map((name) => join(folder, name))
    .filter(isFile);
}

/**
 * Finds the model file: the explicit `modelPath`, else in the cache folder the default model file,
 * else the first `.gguf` there by name. Throws `ModelNotFoundError` naming what was searched; never
 * downloads anything.
 */
export function resolveModelPath(options: ResolveModelPathOptions = {}): string {
  if (options.modelPath !== undefined) {
    const path = resolve(options.modelPath);
    if (isFile(path)) return path;
    throw new ModelNotFoundError({
      message: `no model file at the given modelPath ${path}`,
      searched: [path],
    });
  }
  const folder = resolve(options.cacheDir ?? modelCacheDir());
  const preferred = join(folder, defaultModelFile);
  if (isFile(preferred)) return preferred;
  const others = ggufFilesIn(folder);
  if (others[0] !== undefined) return others[0];
  throw new ModelNotFoundError({
    message: `no .gguf model in ${folder}; run \`baton-fetch-model\` (from @baton/local-model) to fetch the default model into it, or pass modelPath`,
    searched: [preferred, folder],
  });
}
