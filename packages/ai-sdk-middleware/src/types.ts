import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { ContextManagerEvent, ContextManagerOptions, ContextReport } from '@baton/compressor';
import type { RecallLoopOptions } from './recall-loop.js';

/**
 * The context manager's options (`createContextManager` in `@baton/compressor`: window, threshold,
 * target, reserve, summariser, counter, strategy, store, `background`, ... with their defaults
 * documented there), except `model`: the wrapped model's id is used.
 */
export interface CompactionMiddlewareOptions extends Omit<ContextManagerOptions, 'model'> {
  /** Derives the session id per call (wins over `sessionId`). Default: none. */
  getSessionId?: (params: LanguageModelV4CallOptions) => string | undefined;
  /**
   * Let the model read back what compaction removed: adds a recall tool (`baton_recall`) to every
   * call and runs the model's calls to it inside the middleware, against `store` (see README,
   * "Recall for the model"). `true` takes the defaults of `RecallLoopOptions`. Needs `store`.
   * Default `false`.
   */
  recall?: boolean | RecallLoopOptions;
  /** Called (and awaited) after every compaction, before the provider call; what it throws fails the call. Default: none. */
  onCompaction?: (event: MiddlewareCompactionEvent) => void | PromiseLike<void>;
}

/** What `onCompaction` receives: the context manager's event plus the wrapped model. */
export interface MiddlewareCompactionEvent extends ContextManagerEvent {
  /** `provider` and `modelId` of the wrapped model. */
  provider: string;
  modelId: string;
}

/** `providerMetadata.baton` on every result (and the `finish` part of every stream): the manager's report. */
export interface BatonProviderMetadata extends ContextReport {
  [key: string]: string | number | boolean | null;
}
