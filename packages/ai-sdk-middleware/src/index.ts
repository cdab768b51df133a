export {
  type Budget,
  type CompactionStore,
  type CompactionStoreSession,
  ContextWindowExceededError,
  type ResolveBudgetOptions,
  resolveBudget,
} from '@baton/compressor';
export { compactionMiddleware } from './compaction-middleware.js';
export type { BatonRecallMetadata, RecallLoopOptions } from './recall-loop.js';
export { toModelMessages } from './to-model-messages.js';
export { toProviderPrompt } from './to-provider-prompt.js';
export type {
  BatonProviderMetadata,
  CompactionMiddlewareOptions,
  MiddlewareCompactionEvent,
} from './types.js';
