export { compactionMiddleware } from './compaction-middleware.js';
export { ContextWindowExceededError } from './context-window-exceeded-error.js';
export type { CompactionStore, CompactionStoreSession } from './create-session-tracker.js';
export type { BatonRecallMetadata, RecallLoopOptions } from './recall-loop.js';
export { type Budget, type ResolveBudgetOptions, resolveBudget } from './resolve-budget.js';
export { toModelMessages } from './to-model-messages.js';
export { toProviderPrompt } from './to-provider-prompt.js';
export type {
  BatonProviderMetadata,
  CompactionMiddlewareOptions,
  MiddlewareCompactionEvent,
} from './types.js';
