import type { PieceCounter } from './create-piece-counter.js';
import { GenerationalCache } from './generational-cache.js';
import type { OpenWeightTokenizer, PretrainedTokenizer } from './load-open-weight-tokenizer.js';
import { TokenizerError } from './tokenizer-error.js';

type Stage = (input: unknown, options?: unknown) => unknown;

interface Pipeline {
  split(text: string): string[];
  addedTokens: Map<string, { lstrip?: boolean; rstrip?: boolean }>;
  normalizer: Stage | null;
  preTokenizer: Stage | null;
  /**
   * When the pre-tokenizer is regex splits followed by a whole-piece byte-level mapping (Llama 3,
   * Qwen, DeepSeek): the splits alone, and the mapping, applied only to pieces not seen before.
   */
  splitOnly?: Stage;
  byteLevel?: (piece: string) => string[];
  model: Stage;
}

interface PreTokenizerStage {
  config?: { type?: string; add_prefix_space?: boolean; use_regex?: boolean };
  pre_tokenize(input: string[], options?: unknown): string[];
  pre_tokenize_text(text: string, options?: unknown): string[];
}

/** Splits the byte-level mapping (the costly, per-character part) off a `Sequence` pre-tokenizer. */
function splitByteLevel(
  preTokenizer: unknown,
): Pick<Pipeline, 'splitOnly' | 'byteLevel'> | undefined {
  const stages = (preTokenizer as { tokenizers?: unknown }).tokenizers;
  if (!Array.isArray(stages) || stages.length < 2) return undefined;
  const last = stages.at(-1) as PreTokenizerStage;
  const config = last?.config;
  // With `use_regex: false` and no prefix space, the mapping turns one piece into exactly one
  // piece, its bytes as characters: a pure function of the piece, so it can run after the memo.
  if (config?.type !== 'ByteLevel' || config.use_regex !== false || config.add_prefix_space)
    return undefined;
  const splits = stages.slice(0, -1) as PreTokenizerStage[];
  if (
    !splits.every(
      (stage) => stage?.config?.type === 'Split' && typeof stage.pre_tokenize === 'function',
    )
  )
    return undefined;
  return {
    splitOnly: (input, options) =>
      splits.reduce((pieces, stage) => stage.pre_tokenize(pieces, options), [input as string]),
    byteLevel: (piece) => last.pre_tokenize_text(piece),
  };
}

const pieceCacheGeneration = 65_536;
const longestShortPiece = 128;
const longPieceGeneration = 4_096;
const longPieceCharacters = 4_000_000;

/**
 * The tokenizer's own pipeline stages when it runs the standard one (added-token split, normalizer,
 * pre-tokenizer, model per piece); `undefined` when a stage is missing or the class overrides the
 * text encoding (a non-legacy `LlamaTokenizer` prepends `▁` to the whole text), so pieces are not
 * independent and only whole texts may be memoised.
 */
function pipelineOf(tokenizer: PretrainedTokenizer): Pipeline | undefined {
  const t = tokenizer as Record<string, unknown>;
  const splitter = t.added_tokens_splitter as { split?: unknown } | undefined;
  const addedTokens = t.added_tokens_map;
  const model = t.model;
  if (typeof splitter?.split !== 'function' || !(addedTokens instanceof Map)) return undefined;
  if (typeof model !== 'function') return undefined;
  if (t.remove_space === true || t.do_lowercase_and_remove_accent === true) return undefined;
  // The class that defines `_encode_text` must be the base tokenizer, or a Llama one in legacy mode
  // (which calls the base unchanged).
  let prototype = Object.getPrototypeOf(tokenizer);
  while (prototype && !Object.hasOwn(prototype, '_encode_text'))
    prototype = Object.getPrototypeOf(prototype);
  const owner = prototype?.constructor?.name;
  if (!prototype) return undefined;
  const isBase = !('_encode_text' in (Object.getPrototypeOf(prototype) ?? {}));
  if (!(isBase || (owner === 'LlamaTokenizer' && t.legacy === true))) return undefined;
  const normalizer = (t.normalizer ?? null) as Stage | null;
  const preTokenizer = (t.pre_tokenizer ?? null) as Stage | null;
  if (normalizer !== null && typeof normalizer !== 'function') return undefined;
  if (preTokenizer !== null && typeof preTokenizer !== 'function') return undefined;
  return {
    split: (text) => (splitter.split as (text: string) => string[]).call(splitter, text),
    addedTokens: addedTokens as Pipeline['addedTokens'],
    normalizer,
    preTokenizer,
    ...(preTokenizer === null ? {} : splitByteLevel(preTokenizer)),
    model: model as Stage,
  };
}

/**
 * Exact counts with an open-weight tokenizer, memoised per pre-tokenisation piece: Hugging Face
 * tokenizers run the model (BPE) on each piece of the pre-tokenizer's split independently, so a
 * piece's count never depends on its neighbours. The text goes through the same stages as the
 * tokenizer's `encode` (added tokens split out first, with their `lstrip`/`rstrip`; then the
 * normaliser and the pre-tokenizer per section); only pieces not seen before reach the model.
 * Gemma's pre-tokenizer keeps a whole section as one piece, so there the memo is per section.
 */
export function createOpenWeightPieceCounter(
  tokenizer: PretrainedTokenizer,
  name: OpenWeightTokenizer,
): PieceCounter {
  const pipeline = pipelineOf(tokenizer);
  const fail = (length: number, error: unknown): never => {
    throw new TokenizerError({
      message: `the ${name} tokenizer failed on a text of ${length} characters`,
      cause: error,
    });
  };
  if (pipeline === undefined) {
    return {
      count(text) {
        try {
          return tokenizer.encode(text, { add_special_tokens: false }).length;
        } catch (error) {
          return fail(text.length, error);
        }
      },
    };
  }
  const { split, addedTokens, normalizer, preTokenizer, splitOnly, byteLevel, model } = pipeline;
  const pieceTokens = byteLevel
    ? (piece: string) => (model(byteLevel(piece)) as unknown[]).length
    : (piece: string) => (model([piece]) as unknown[]).length;
  const preTokenize = splitOnly ?? preTokenizer;
  const cache = new GenerationalCache<string, number>(pieceCacheGeneration);
  const longCache = new GenerationalCache<string, number>(longPieceGeneration, longPieceCharacters);

  const countPiece = (piece: string): number => {
    const short = piece.length <= longestShortPiece;
    let tokens = short ? cache.get(piece) : longCache.get(piece, piece.length);
    if (tokens === undefined) {
      tokens = pieceTokens(piece);
      if (short) cache.set(piece, tokens);
      else longCache.set(piece, tokens, piece.length);
    }
    return tokens;
  };

  const countUnchecked = (text: string): number => {
    const sections = split(text);
    for (let i = 0; i < sections.length; i++) {
      const added = addedTokens.get(sections[i]!);
      if (!added) continue;
      if (added.lstrip && i > 0) sections[i - 1] = sections[i - 1]!.trimEnd();
      if (added.rstrip && i < sections.length - 1) sections[i + 1] = sections[i + 1]!.trimStart();
    }
    let total = 0;
    for (let index = 0; index < sections.length; index++) {
      let section = sections[index]!;
      if (section.length === 0) continue;
      if (addedTokens.has(section)) {
        total += 1;
        continue;
      }
      if (normalizer !== null) section = normalizer(section) as string;
      if (section.length === 0) continue;
      const pieces =
        preTokenize === null
          ? [section]
          : (preTokenize(section, { section_index: index }) as string[]);
      for (const piece of pieces) total += countPiece(piece);
    }
    return total;
  };

  return {
    count(text) {
      try {
        return countUnchecked(text);
      } catch (error) {
        return fail(text.length, error);
      }
    },
  };
}
