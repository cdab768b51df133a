import type { LanguageModelV4 } from '@ai-sdk/provider';

type Environment = Record<string, string | undefined>;

/** Settings the compaction layer passes to the middleware when a local model summarises. */
export interface LocalSummarizerSettings {
  summaryTargetTokens: number;
  compressor: {
    summarizerInputBudget: number;
    summarizerName: string;
    timeoutMs: number;
    deadlineMs: number;
    maxAttempts: number;
    detail: 'brief';
  };
}

export type LocalSummarizer =
  | {
      found: true;
      model: LanguageModelV4 & { dispose(): Promise<void> };
      /** The model's id (its file name without `.gguf`). */
      name: string;
      settings: LocalSummarizerSettings;
    }
  | {
      found: false;
      /** Why there is none, in words for the banner. */
      reason: string;
    };

/** How to get a model, for the banner and the console. */
export const FETCH_MODEL_HINT =
  'run `node packages/local-model/scripts/fetch-model.mjs` (or `baton-fetch-model`) to fetch SmolLM2-135M';

/** Small enough that a one-thread CPU model writes the summary in well under a minute. */
const summaryTargetTokens = 300;
const contextSize = 4096;

/**
 * The local GGUF model that summarises for the offline demo, found like `@baton/local-model` finds
 * it: `DEMO_LOCAL_MODEL_PATH`, else the cache folder (`$BATON_CACHE_DIR/models`, else
 * `~/.cache/baton/models`). `DEMO_LOCAL_MODEL=off` turns it off. `@baton/local-model` (and
 * node-llama-cpp) are optional: imported only here, and their absence is a reason, not an error.
 * The model loads on its first summary, not now.
 */
export async function findLocalSummarizer(environment: Environment): Promise<LocalSummarizer> {
  if (environment['DEMO_LOCAL_MODEL']?.trim().toLowerCase() === 'off') {
    return { found: false, reason: 'the local model is turned off (DEMO_LOCAL_MODEL=off)' };
  }
  let local: typeof import('@baton/local-model');
  try {
    local = await import('@baton/local-model');
  } catch {
    return { found: false, reason: '@baton/local-model is not installed' };
  }
  let modelPath: string;
  try {
    modelPath = local.resolveModelPath({
      modelPath: environment['DEMO_LOCAL_MODEL_PATH']?.trim() || undefined,
      cacheDir: local.modelCacheDir(environment as NodeJS.ProcessEnv),
    });
  } catch (error) {
    if (!local.ModelNotFoundError.isInstance(error)) throw error;
    return { found: false, reason: 'no local model found' };
  }
  const model = local.createLocalModel({ modelPath, contextSize });
  return {
    found: true,
    model,
    name: model.modelId,
    settings: {
      summaryTargetTokens,
      compressor: {
        summarizerInputBudget: local.summarizerInputBudget({ contextSize, summaryTargetTokens }),
        summarizerName: model.modelId,
        // One CPU thread: a prompt of a few thousand tokens and the reply take tens of seconds.
        timeoutMs: 180_000,
        deadlineMs: 200_000,
        maxAttempts: 1,
        detail: 'brief',
      },
    },
  };
}
