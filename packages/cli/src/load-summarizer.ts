import type { LanguageModel } from 'ai';
import { withheldValue } from './safe-error-text.js';
import { UsageError } from './usage-error.js';

/** Providers `--summarizer` knows, with the package and environment each needs. */
export const SUMMARIZER_PROVIDERS = {
  openai: { package: '@ai-sdk/openai', env: 'OPENAI_API_KEY' },
  anthropic: { package: '@ai-sdk/anthropic', env: 'ANTHROPIC_API_KEY' },
  'openai-compatible': { package: '@ai-sdk/openai-compatible', env: 'OPENAI_COMPATIBLE_BASE_URL' },
} as const;

type ProviderName = keyof typeof SUMMARIZER_PROVIDERS;

/**
 * Builds the AI SDK model named by `provider:model` from the environment, importing the provider
 * package only now (it is an optional peer dependency). Throws `UsageError` for an unknown provider,
 * a missing key or a provider package that is not installed.
 *
 * - `openai:<model>`: `OPENAI_API_KEY` (and `OPENAI_BASE_URL` if set).
 * - `anthropic:<model>`: `ANTHROPIC_API_KEY` (and `ANTHROPIC_BASE_URL` if set).
 * - `openai-compatible:<model>`: `OPENAI_COMPATIBLE_BASE_URL` (e.g. `http://127.0.0.1:11434/v1` for
 *   Ollama) and optionally `OPENAI_COMPATIBLE_API_KEY`.
 */
export async function loadSummarizer(
  spec: string,
  env: Record<string, string | undefined>,
): Promise<{ model: LanguageModel; name: string }> {
  const colon = spec.indexOf(':');
  const provider = spec.slice(0, colon);
  const modelId = spec.slice(colon + 1);
  if (colon <= 0 || modelId === '') {
    throw new UsageError({
      message: `--summarizer: expected provider:model; got ${withheldValue(spec)}`,
    });
  }
  if (!(provider in SUMMARIZER_PROVIDERS)) {
    throw new UsageError({
      message: `--summarizer: unknown provider (expected ${Object.keys(SUMMARIZER_PROVIDERS).join(', ')}); got ${withheldValue(spec)}`,
    });
  }
  const { package: packageName, env: variable } = SUMMARIZER_PROVIDERS[provider as ProviderName];
  const value = env[variable];
  if (value === undefined || value === '') {
    throw new UsageError({
      message: `--summarizer ${provider}:… needs ${variable} in the environment`,
    });
  }
  let module: Record<string, unknown>;
  try {
    module = await import(packageName);
  } catch (error) {
    throw new UsageError({
      message: `--summarizer ${provider}:… needs the package ${packageName} (npm install ${packageName} ai)`,
      cause: error,
    });
  }
  const name = spec;
  switch (provider as ProviderName) {
    case 'openai': {
      const create = module.createOpenAI as (settings: object) => (id: string) => LanguageModel;
      return {
        model: create({ apiKey: value, baseURL: env.OPENAI_BASE_URL || undefined })(modelId),
        name,
      };
    }
    case 'anthropic': {
      const create = module.createAnthropic as (settings: object) => (id: string) => LanguageModel;
      return {
        model: create({ apiKey: value, baseURL: env.ANTHROPIC_BASE_URL || undefined })(modelId),
        name,
      };
    }
    case 'openai-compatible': {
      const create = module.createOpenAICompatible as (settings: object) => {
        chatModel(id: string): LanguageModel;
      };
      const compatible = create({
        name: 'openai-compatible',
        baseURL: value,
        apiKey: env.OPENAI_COMPATIBLE_API_KEY || undefined,
      });
      return { model: compatible.chatModel(modelId), name };
    }
  }
}
