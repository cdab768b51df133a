import { basename } from 'node:path';
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
  SharedV4Warning,
} from '@ai-sdk/provider';
import { UnsupportedFunctionalityError } from '@ai-sdk/provider';
import {
  LocalContextOverflowError,
  LocalRuntimeUnavailableError,
  ModelLoadError,
} from './local-model-errors.js';
import { promptToChatHistory } from './prompt-to-chat-history.js';
import { type ResolveModelPathOptions, resolveModelPath } from './resolve-model-path.js';

type NodeLlamaCpp = typeof import('node-llama-cpp');
type Llama = import('node-llama-cpp').Llama;
type LlamaModel = import('node-llama-cpp').LlamaModel;
type LlamaContext = import('node-llama-cpp').LlamaContext;
type LlamaContextSequence = import('node-llama-cpp').LlamaContextSequence;
type LlamaGrammar = import('node-llama-cpp').LlamaGrammar;
type Token = import('node-llama-cpp').Token;

export interface LocalModelOptions extends ResolveModelPathOptions {
  /** Id reported as `modelId` (and as `summarizerModel` in compaction events). Default: the file name without `.gguf`. */
  modelId?: string;
  /**
   * Context window, in tokens, prompt and reply together (capped at the model's trained context).
   * Memory and prompt time grow with it. Default 2,048.
   */
  contextSize?: number;
  /**
   * CPU threads. Default 1: on small shared machines two threads spin-wait on each other and run
   * many times slower than one.
   */
  threads?: number;
  /**
   * Prompt tokens evaluated between two checks of the abort signal. Smaller answers an abort sooner
   * and costs a little throughput. Default 32.
   */
  evaluationChunkTokens?: number;
}

interface Loaded {
  node: NodeLlamaCpp;
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  sequence: LlamaContextSequence;
  contextSize: number;
  render: (history: ReturnType<typeof promptToChatHistory>['history']) => Token[];
}

interface RunResult {
  text: string;
  finishReason: LanguageModelV4FinishReason;
  inputTokens: number;
  outputTokens: number;
  warnings: SharedV4Warning[];
}

function usage(run: Pick<RunResult, 'inputTokens' | 'outputTokens'>): LanguageModelV4Usage {
  return {
    inputTokens: { total: run.inputTokens, noCache: run.inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: run.outputTokens, text: run.outputTokens, reasoning: 0 },
  };
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

function commonPrefix(a: readonly Token[], b: readonly Token[]): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a[index] === b[index]) index++;
  return index;
}

/**
 * An AI SDK `LanguageModelV4` running a GGUF model on the CPU through node-llama-cpp (an optional
 * peer, imported on first use). Usable as Baton's `summarizer`, or with `generateText` /
 * `streamText`. Calls run one at a time on one context sequence; greedy decoding unless a
 * `temperature` above 0 is asked, so equal prompts give equal replies for a fixed thread count.
 */
export class LocalLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'baton.local';
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};
  /**
   * Output can be constrained to a JSON schema (node-llama-cpp's grammar). `@baton/compressor` then
   * asks for a bounded JSON handoff, which a small model has to close within its output cap.
   */
  readonly supportsStructuredOutputs = true;
  /** The GGUF file in use (resolved when the model was created). */
  readonly modelPath: string;
  /** Requested context window; the loaded model may cap it (see {@link loadedContextSize}). */
  readonly contextSize: number;
  private readonly threads: number;
  private readonly chunkTokens: number;
  private loading: Promise<Loaded> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();

  constructor(options: LocalModelOptions = {}) {
    this.modelPath = resolveModelPath(options);
    this.modelId = options.modelId ?? basename(this.modelPath).replace(/\.gguf$/i, '');
    this.contextSize = Math.max(64, Math.floor(options.contextSize ?? 2048));
    this.threads = Math.max(1, Math.floor(options.threads ?? 1));
    this.chunkTokens = Math.max(1, Math.floor(options.evaluationChunkTokens ?? 32));
  }

  /** Loads the runtime and the model now instead of on the first call. */
  async load(): Promise<void> {
    await this.loaded();
  }

  /** The context window of the loaded model (loads it). */
  async loadedContextSize(): Promise<number> {
    return (await this.loaded()).contextSize;
  }

  /** Tokens `text` takes in this model's own tokenizer (loads it). */
  async countTokens(text: string): Promise<number> {
    return (await this.loaded()).model.tokenize(text).length;
  }

  /** Frees the native model and context. A later call loads them again. */
  async dispose(): Promise<void> {
    const loading = this.loading;
    this.loading = undefined;
    this.grammars.clear();
    if (!loading) return;
    const loaded = await loading.catch(() => undefined);
    await loaded?.llama.dispose();
  }

  private loaded(): Promise<Loaded> {
    if (!this.loading) {
      this.loading = this.load_();
      // A failed load (runtime missing, unreadable file) is retried by the next call.
      this.loading.catch(() => {
        this.loading = undefined;
      });
    }
    return this.loading;
  }

  private async load_(): Promise<Loaded> {
    let node: NodeLlamaCpp;
    try {
      node = await import('node-llama-cpp');
    } catch (cause) {
      throw new LocalRuntimeUnavailableError({
        message:
          'the local model needs the optional peer dependency "node-llama-cpp" with its prebuilt binary for this platform (e.g. @node-llama-cpp/linux-x64)',
        cause,
      });
    }
    let llama: Llama;
    try {
      // Never build llama.cpp or fetch a binary at run time: the prebuilt package or nothing.
      llama = await node.getLlama({
        gpu: false,
        build: 'never',
        logLevel: node.LlamaLogLevel.error,
      });
    } catch (cause) {
      throw new LocalRuntimeUnavailableError({
        message: 'node-llama-cpp has no prebuilt binary for this platform',
        cause,
      });
    }
    try {
      const model = await llama.loadModel({ modelPath: this.modelPath }).catch((cause: unknown) => {
        // The runtime's messages quote the file's first bytes (a wrong path may be any file).
        throw new ModelLoadError({ modelPath: this.modelPath, cause });
      });
      const contextSize = Math.min(this.contextSize, model.trainContextSize);
      const context = await model.createContext({
        contextSize,
        threads: this.threads,
        batchSize: Math.min(512, contextSize),
      });
      const sequence = context.getSequence();
      const wrapper = node.resolveChatWrapper(model);
      const render: Loaded['render'] = (history) => {
        const { contextText } = wrapper.generateContextState({
          chatHistory: [...history, { type: 'model', response: [] }],
        });
        return contextText.tokenize(model.tokenizer);
      };
      return { node, llama, model, context, sequence, contextSize, render };
    } catch (error) {
      await llama.dispose();
      throw error;
    }
  }

  private grammarFor(
    loaded: Loaded,
    format: LanguageModelV4CallOptions['responseFormat'],
  ): Promise<LlamaGrammar> | undefined {
    if (format?.type !== 'json') return undefined;
    const key = format.schema === undefined ? '' : JSON.stringify(format.schema);
    let grammar = this.grammars.get(key);
    if (!grammar) {
      grammar = (
        format.schema === undefined
          ? loaded.llama.getGrammarFor('json')
          : // biome-ignore lint/suspicious/noExplicitAny: JSON Schema 7 is wider than the grammar's typed subset; unsupported keywords throw below
            loaded.llama.createGrammarForJsonSchema(format.schema as any)
      ).catch((cause: unknown) => {
        this.grammars.delete(key);
        throw new UnsupportedFunctionalityError({
          functionality: `JSON schema for the local model's grammar (${cause instanceof Error ? cause.message : String(cause)})`,
        });
      });
      this.grammars.set(key, grammar);
    }
    return grammar;
  }

  /**
   * Runs calls one at a time: the model has one context sequence. A call aborted while it waits for
   * its turn is rejected at once and never runs, instead of waiting out the call before it.
   */
  private exclusive<T>(work: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const start = () => {
      signal?.throwIfAborted();
      return work();
    };
    const next = this.queue.then(start, start);
    this.queue = next.catch(() => {});
    if (!signal) return next;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(abortReason(signal));
      if (signal.aborted) onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      next.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /** The chat turns and the warnings of a call, known before anything runs. */
  private prepare(options: LanguageModelV4CallOptions): ReturnType<typeof promptToChatHistory> {
    const prepared = promptToChatHistory(options.prompt);
    for (const [feature, value] of [
      ['tools', options.tools?.length ? options.tools : undefined],
      // The SDK sends a toolChoice of "auto" with no tools: only a choice among tools is unsupported.
      ['toolChoice', options.tools?.length ? options.toolChoice : undefined],
      ['presencePenalty', options.presencePenalty],
      ['frequencyPenalty', options.frequencyPenalty],
      ['reasoning', options.reasoning],
    ] as const) {
      if (value !== undefined) prepared.warnings.push({ type: 'unsupported', feature });
    }
    return prepared;
  }

  private async run(
    options: LanguageModelV4CallOptions,
    { history, warnings }: ReturnType<typeof promptToChatHistory>,
    signal: AbortSignal | undefined,
    onDelta: ((delta: string) => void) | undefined,
  ): Promise<RunResult> {
    signal?.throwIfAborted();
    const loaded = await this.loaded();
    const grammar = await this.grammarFor(loaded, options.responseFormat);
    return this.exclusive(async () => {
      const { node, model, sequence, contextSize } = loaded;
      const tokens = loaded.render(history);
      if (tokens.length + 1 > contextSize) {
        throw new LocalContextOverflowError({ promptTokens: tokens.length, contextSize });
      }
      const room = contextSize - tokens.length;
      const maxTokens = Math.max(1, Math.min(options.maxOutputTokens ?? room, room));

      // Reuse what the sequence already holds of this prompt (a shared system prompt, a retry).
      const held = sequence.contextTokens;
      const keep = Math.min(commonPrefix(held, tokens), tokens.length - 1);
      if (keep < sequence.nextTokenIndex) {
        try {
          if (keep === 0) await sequence.clearHistory();
          else
            await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
        } catch {
          // A state that cannot be trimmed is dropped whole: the prompt is then evaluated in full.
          await sequence.clearHistory();
        }
      }
      // Prompt in chunks so an abort or a timeout is answered within one chunk, not one prompt.
      const pending = tokens.slice(sequence.nextTokenIndex, -1);
      for (let start = 0; start < pending.length; start += this.chunkTokens) {
        signal?.throwIfAborted();
        await sequence.evaluateWithoutGeneratingNewTokens(
          pending.slice(start, start + this.chunkTokens),
        );
      }
      signal?.throwIfAborted();

      const greedy = options.temperature === undefined || options.temperature <= 0;
      const grammarEvaluationState = grammar
        ? new node.LlamaGrammarEvaluationState({ model, grammar })
        : undefined;
      const generated: Token[] = [];
      const stops = (options.stopSequences ?? []).filter((stop) => stop !== '');
      // A JSON grammar ends in a run of newlines it may repeat forever: reaching it means the
      // object is complete, i.e. the reply ended (as node-llama-cpp's own chat does with them).
      const grammarStops = (grammar?.stopGenerationTriggers ?? [])
        .map((trigger) =>
          typeof trigger === 'string'
            ? trigger
            : Array.isArray(trigger)
              ? trigger.filter((part): part is string => typeof part === 'string').join('')
              : trigger.toString(),
        )
        .filter((stop) => stop !== '');
      let text = '';
      let emitted = 0;
      let finish: LanguageModelV4FinishReason = { unified: 'length', raw: 'max-tokens' };
      const iterator = sequence.evaluate(tokens.slice(-1), {
        temperature: greedy ? 0 : options.temperature,
        ...(greedy
          ? {}
          : {
              topK: options.topK,
              topP: options.topP,
              seed: options.seed,
            }),
        grammarEvaluationState,
      });
      try {
        for await (const token of iterator) {
          if (signal?.aborted) break;
          if (model.isEogToken(token)) {
            finish = { unified: 'stop', raw: 'eog' };
            break;
          }
          generated.push(token);
          text = model.detokenize(generated);
          const stop = stops.find((candidate) => text.includes(candidate));
          if (stop !== undefined) {
            text = text.slice(0, text.indexOf(stop));
            finish = { unified: 'stop', raw: 'stop-sequence' };
            break;
          }
          const complete = grammarStops.find((candidate) => text.includes(candidate));
          if (complete !== undefined) {
            text = text.slice(0, text.indexOf(complete));
            if (grammar?.trimWhitespaceSuffix) text = text.trimEnd();
            finish = { unified: 'stop', raw: 'grammar-complete' };
            break;
          }
          // Hold back a split multi-byte character and anything that may be the start of a stop
          // sequence; emit the rest.
          let safe = text.endsWith('\uFFFD') ? text.length - 1 : text.length;
          for (const candidate of [...stops, ...grammarStops]) {
            for (let length = Math.min(candidate.length - 1, safe); length > 0; length--) {
              if (text.slice(safe - length, safe) === candidate.slice(0, length)) {
                safe -= length;
                break;
              }
            }
          }
          if (onDelta && safe > emitted) {
            onDelta(text.slice(emitted, safe));
            emitted = safe;
          }
          if (generated.length >= maxTokens) break;
        }
      } finally {
        await iterator.return();
      }
      signal?.throwIfAborted();
      if (onDelta && text.length > emitted) onDelta(text.slice(emitted));
      return {
        text,
        finishReason: finish,
        inputTokens: tokens.length,
        outputTokens: generated.length,
        warnings,
      };
    }, signal);
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const result = await this.run(options, this.prepare(options), options.abortSignal, undefined);
    return {
      content: result.text === '' ? [] : [{ type: 'text', text: result.text }],
      finishReason: result.finishReason,
      usage: usage(result),
      warnings: result.warnings,
      response: { modelId: this.modelId, timestamp: new Date() },
    };
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    // Cancelling the stream stops generation, as the caller's abort signal does.
    const cancel = new AbortController();
    const signal = options.abortSignal
      ? AbortSignal.any([options.abortSignal, cancel.signal])
      : cancel.signal;
    const model = this;
    const prepared = this.prepare(options);
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      async start(controller) {
        const id = 'text-0';
        let started = false;
        controller.enqueue({ type: 'stream-start', warnings: prepared.warnings });
        try {
          const result = await model.run(options, prepared, signal, (delta) => {
            if (!started) {
              controller.enqueue({ type: 'text-start', id });
              started = true;
            }
            controller.enqueue({ type: 'text-delta', id, delta });
          });
          if (started) controller.enqueue({ type: 'text-end', id });
          controller.enqueue({
            type: 'finish',
            finishReason: result.finishReason,
            usage: usage(result),
          });
          controller.close();
        } catch (error) {
          if (cancel.signal.aborted) return;
          controller.error(signal.aborted ? abortReason(signal) : error);
        }
      },
      cancel(reason) {
        cancel.abort(reason);
      },
    });
    return { stream };
  }
}

/**
 * Creates a local `LanguageModelV4`. Resolves the model file at once (`ModelNotFoundError` when there
 * is none: explicit `modelPath`, else the cache folder); loads node-llama-cpp and the weights on the
 * first call.
 */
export function createLocalModel(options: LocalModelOptions = {}): LocalLanguageModel {
  return new LocalLanguageModel(options);
}
