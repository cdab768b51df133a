import { InvalidInputError } from './invalid-input-error.js';
import type { OpenWeightTokenizer } from './load-open-weight-tokenizer.js';
import type { ModelInfo } from './types.js';

/** What `resolveModel` returns for a model it does not recognise: a deliberately small window. */
export const unknownModel: ModelInfo = Object.freeze({
  provider: 'unknown',
  encoding: 'heuristic',
  exact: false,
  contextWindow: 32_768,
  maxOutputTokens: 4_096,
});

type Rule = readonly [
  pattern: RegExp,
  provider: string,
  encoding: ModelInfo['encoding'],
  contextWindow: number,
  maxOutputTokens: number,
  tokenizer?: OpenWeightTokenizer,
];

// First match wins, so specific ids come before their family. Windows are the providers' published
// figures for their own APIs (hosts of open models often serve less).
const rules: readonly Rule[] = [
  // OpenAI, o200k_base.
  [/^gpt-5(?:\.\d+)?-chat/, 'openai', 'o200k_base', 128_000, 16_384],
  [/^gpt-5/, 'openai', 'o200k_base', 400_000, 128_000],
  [/^gpt-4\.1/, 'openai', 'o200k_base', 1_047_576, 32_768],
  [/^gpt-4\.5/, 'openai', 'o200k_base', 128_000, 16_384],
  [/^gpt-4o-2024-05-13/, 'openai', 'o200k_base', 128_000, 4_096],
  [/^(?:gpt-4o|chatgpt-4o)/, 'openai', 'o200k_base', 128_000, 16_384],
  [/^o1-mini/, 'openai', 'o200k_base', 128_000, 65_536],
  [/^o1-preview/, 'openai', 'o200k_base', 128_000, 32_768],
  [/^o[134](?:$|-)/, 'openai', 'o200k_base', 200_000, 100_000],
  [/^codex-mini/, 'openai', 'o200k_base', 200_000, 100_000],
  [/^gpt-oss/, 'openai', 'o200k_base', 131_072, 131_072],
  // OpenAI, cl100k_base.
  [/^gpt-4-32k/, 'openai', 'cl100k_base', 32_768, 4_096],
  [/^gpt-4-(?:turbo|\d{4}-preview|vision)/, 'openai', 'cl100k_base', 128_000, 4_096],
  [/^gpt-4(?:$|-)/, 'openai', 'cl100k_base', 8_192, 8_192],
  [/^gpt-3\.5-turbo-instruct/, 'openai', 'cl100k_base', 4_096, 4_096],
  [/^gpt-3\.5/, 'openai', 'cl100k_base', 16_385, 4_096],
  [/^gpt-35/, 'openai', 'cl100k_base', 16_385, 4_096],
  [/^text-embedding-(?:3|ada-002)/, 'openai', 'cl100k_base', 8_191, 0],
  [/^(?:davinci|babbage)-002/, 'openai', 'cl100k_base', 16_384, 4_096],
  [/^(?:text-davinci-00[23]|code-davinci|code-cushman)/, 'openai', 'p50k_base', 4_097, 4_097],
  [
    /^(?:davinci|curie|babbage|ada|text-(?:curie|babbage|ada)-001)$/,
    'openai',
    'r50k_base',
    2_049,
    2_049,
  ],
  // Anthropic: its tokenizer is not public.
  [/^claude-(?:opus-4-[5-9]|sonnet-4|haiku-4|4)/, 'anthropic', 'heuristic', 200_000, 64_000],
  [/^claude-opus-4/, 'anthropic', 'heuristic', 200_000, 32_000],
  [/^claude-3-7/, 'anthropic', 'heuristic', 200_000, 64_000],
  [/^claude-3-5/, 'anthropic', 'heuristic', 200_000, 8_192],
  [/^claude-3/, 'anthropic', 'heuristic', 200_000, 4_096],
  [/^claude-2\.1/, 'anthropic', 'heuristic', 200_000, 4_096],
  [/^claude/, 'anthropic', 'heuristic', 100_000, 4_096],
  // Google.
  [/^gemini-1\.5-pro/, 'google', 'heuristic', 2_097_152, 8_192],
  [/^gemini-(?:1\.5|2\.0)/, 'google', 'heuristic', 1_048_576, 8_192],
  [/^gemini-1\.0|^gemini-pro$/, 'google', 'heuristic', 32_760, 8_192],
  [/^gemini/, 'google', 'heuristic', 1_048_576, 65_536],
  // Gemma 3: 128K (1B and 3n: 32K); Gemma 1 and 2: 8K (model cards).
  // Gemma 3n's tokenizer is not checked against Gemma 3's here: it stays estimated.
  [/^gemma-?3n/, 'google', 'heuristic', 32_768, 8_192],
  [/^gemma-?3-1b/, 'google', 'heuristic', 32_768, 8_192, 'gemma3'],
  [/^gemma-?3/, 'google', 'heuristic', 131_072, 8_192, 'gemma3'],
  [/^gemma/, 'google', 'heuristic', 8_192, 8_192],
  // Meta.
  [/^llama-?4.*scout/, 'meta', 'heuristic', 10_000_000, 8_192],
  [/^llama-?4/, 'meta', 'heuristic', 1_000_000, 8_192],
  [
    /^(?:meta-)?llama-?3[.-]?[123]|^llama-?v3p[123]/,
    'meta',
    'heuristic',
    131_072,
    4_096,
    'llama3_1',
  ],
  [/^(?:meta-)?llama-?3/, 'meta', 'heuristic', 8_192, 4_096, 'llama3'],
  [/^(?:meta-)?codellama|^code-llama/, 'meta', 'heuristic', 16_384, 4_096],
  [/^(?:meta-)?llama-?2/, 'meta', 'heuristic', 4_096, 4_096],
  // LLaMA 1 (`llama:7b`): 2,048.
  [/^llama(?:-?1)?(?:$|-\d)/, 'meta', 'heuristic', 2_048, 2_048],
  [/^(?:meta-)?llama/, 'meta', 'heuristic', 4_096, 4_096],
  // Qwen.
  // Qwen 2, 2.5, 3 and QwQ share one byte-level BPE vocabulary and merges (Qwen3 adds special
  // tokens such as `<think>`); the API-only qwen-max/plus/turbo and Qwen 1 stay estimated.
  [/^qwen3?-coder/, 'qwen', 'heuristic', 262_144, 65_536, 'qwen3'],
  [/^qwen-(?:max|plus|turbo)/, 'qwen', 'heuristic', 131_072, 8_192],
  [/^qwen(?:2|3)/, 'qwen', 'heuristic', 32_768, 8_192, 'qwen3'],
  [/^qwen/, 'qwen', 'heuristic', 32_768, 8_192],
  [/^qwq/, 'qwen', 'heuristic', 131_072, 8_192, 'qwen3'],
  // DeepSeek.
  // R1's distilled models (`deepseek-r1:8b`, `-distill-`) are Llama or Qwen models with
  // DeepSeek's special tokens: they stay estimated.
  [/^deepseek-r1-(?:distill|\d+(?:\.\d+)?b$)(?<!-671b)/, 'deepseek', 'heuristic', 128_000, 64_000],
  [/^deepseek-(?:reasoner|r1)/, 'deepseek', 'heuristic', 128_000, 64_000, 'deepseek_v3'],
  [/^deepseek-(?:v3|chat)/, 'deepseek', 'heuristic', 128_000, 8_192, 'deepseek_v3'],
  [/^deepseek-coder(?!-v2)/, 'deepseek', 'heuristic', 16_384, 4_096],
  [/^deepseek-llm/, 'deepseek', 'heuristic', 4_096, 4_096],
  [/^deepseek/, 'deepseek', 'heuristic', 128_000, 8_192],
  // Mistral.
  // Codestral 22B (v0.1, Ollama's `codestral:22b`): 32K; the API's Codestral 25.x: 256K.
  [/^codestral-22b|^codestral-2405/, 'mistral', 'heuristic', 32_768, 8_192],
  [/^codestral/, 'mistral', 'heuristic', 256_000, 8_192],
  [/^(?:open-)?mixtral-8x22b/, 'mistral', 'heuristic', 65_536, 8_192],
  [/^(?:open-)?mixtral/, 'mistral', 'heuristic', 32_768, 8_192],
  [/^magistral/, 'mistral', 'heuristic', 40_000, 40_000],
  // Mistral NeMo's Tekken tokenizer is public. Other Tekken models (Ministral, Pixtral, Mistral
  // Small 3) are not checked against it here: they stay estimated.
  [/^(?:open-)?mistral-nemo/, 'mistral', 'heuristic', 131_072, 8_192, 'mistral_nemo'],
  [
    /^(?:mistral-(?:large|medium|nemo)|pixtral|devstral|ministral|open-mistral-nemo)/,
    'mistral',
    'heuristic',
    131_072,
    8_192,
  ],
  [/^(?:open-)?mistral/, 'mistral', 'heuristic', 32_768, 8_192],
];

const providerHints: Record<string, string> = {
  openai: 'openai',
  azure: 'openai',
  anthropic: 'anthropic',
  google: 'google',
  vertex: 'google',
  gemini: 'google',
  'meta-llama': 'meta',
  meta: 'meta',
  qwen: 'qwen',
  alibaba: 'qwen',
  deepseek: 'deepseek',
  'deepseek-ai': 'deepseek',
  mistral: 'mistral',
  mistralai: 'mistral',
};

// Hosts and gateways that prefix ids with `name:` without telling the model's maker.
const hostPrefixes = new Set([
  'ollama',
  'openrouter',
  'groq',
  'together',
  'togetherai',
  'fireworks',
  'bedrock',
  'amazon-bedrock',
  'lmstudio',
  'vllm',
  'huggingface',
  'hf',
  'cerebras',
  'deepinfra',
  'perplexity',
  'azure-openai',
  'google-vertex',
  'xai',
  'cohere',
]);

/**
 * Normalises a model id: lower case, provider prefixes (`openai/`, `anthropic:`, Bedrock's
 * `us.anthropic.`) and version suffixes (`:0`, `@001`) removed. Internal (not in index.ts): the
 * one normalisation every model-keyed table in this package (limits, image pricing) goes through.
 */
export function normaliseModelId(modelId: string): { name: string; hint: string | undefined } {
  let id = modelId.trim().toLowerCase();
  let hint: string | undefined;
  const slash = id.lastIndexOf('/');
  if (slash >= 0) {
    const owner = id.slice(0, slash).split('/').at(-1)!;
    hint = providerHints[owner];
    id = id.slice(slash + 1);
  }
  // `provider:model` only for known provider and host names; otherwise a colon starts a tag
  // (Ollama's `family:size`, `:latest`; Bedrock's `:0`). A size tag stays as `-size` so the family
  // rules can tell `mixtral:8x22b` from `mixtral:8x7b`.
  const colon = id.match(/^([a-z][a-z0-9.-]*):(.+)$/);
  if (colon && (colon[1]! in providerHints || hostPrefixes.has(colon[1]!))) {
    hint = providerHints[colon[1]!] ?? hint;
    id = colon[2]!;
  }
  id = id.replace(/:([a-z0-9][a-z0-9._-]*)$/, (_, tag: string) =>
    tag === 'latest' || /^\d+$/.test(tag) ? '' : `-${tag}`,
  );
  id = id.replace(
    /^(?:(?:us|eu|apac|global)\.)?(?:anthropic|meta|mistral|deepseek|qwen|amazon)\./,
    (prefix) => {
      const vendor = prefix.split('.').at(-2)!;
      hint = providerHints[vendor] ?? hint;
      // Bedrock's `deepseek.r1`, `deepseek.v3`: the family name is the vendor's.
      return vendor === 'deepseek' ? 'deepseek-' : '';
    },
  );
  // A Bedrock-style `-v1` version suffix, but not a model generation (`deepseek-v3`).
  if (!/^deepseek-v\d+$/.test(id)) id = id.replace(/(?:@\d+|-v\d+(?:-\d+)?)$/, '');
  return { name: id, hint };
}

/**
 * What Baton knows of `modelId`: provider, encoding (exact tiktoken for OpenAI models, `heuristic`
 * for the rest), context window and output limit. Accepts provider-prefixed ids (`openai/gpt-4o`,
 * `anthropic:claude-sonnet-4-5`) and dated snapshots. Never throws for an unknown model: it gets
 * the heuristic and `unknownModel`'s conservative window. Throws `InvalidInputError` only when
 * `modelId` is not a string.
 */
export function resolveModel(modelId: string): ModelInfo {
  if (typeof modelId !== 'string') {
    throw new InvalidInputError({
      path: 'modelId',
      message: `expected a string, got ${modelId === null ? 'null' : typeof modelId}`,
    });
  }
  const { name, hint } = normaliseModelId(modelId);
  for (const [pattern, provider, encoding, contextWindow, maxOutputTokens, tokenizer] of rules) {
    if (pattern.test(name)) {
      const info: ModelInfo = {
        provider,
        encoding,
        exact: encoding !== 'heuristic',
        contextWindow,
        maxOutputTokens,
      };
      if (tokenizer !== undefined) info.tokenizer = tokenizer;
      return info;
    }
  }
  return hint ? { ...unknownModel, provider: hint } : { ...unknownModel };
}
