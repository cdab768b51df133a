export { generateSummaryWithModel } from './call-summarizer.js';
export { CompactionNotEffectiveError } from './compaction-not-effective-error.js';
export { ContextBudgetError } from './context-budget-error.js';
export { ContextCompressor, createContextCompressor } from './context-compressor.js';
export type {
  CompressOptions,
  ContextCompressorOptions,
  SummarizerFunction,
  SummarizerRequest,
  SummaryDetail,
} from './context-compressor-options.js';
export { type ContextManager, createContextManager } from './context-manager.js';
export {
  type ContextManagerEvent,
  type ContextManagerOptions,
  type ContextReport,
  defaultBackgroundThreshold,
  defaultSummarizerAttempts,
  defaultSummarizerTimeoutMs,
  defaultTargetRatio,
  defaultThreshold,
  type PreparedContext,
  type PrepareOptions,
} from './context-manager-options.js';
export { ContextWindowExceededError } from './context-window-exceeded-error.js';
export type { CompactionStore, CompactionStoreSession } from './create-session-tracker.js';
export { fromOpenAIChat } from './from-openai-chat.js';
export { jsonNestingDepth, valueNestingDepth } from './json-nesting-depth.js';
export type {
  OpenAIChatContentPart,
  OpenAIChatMessage,
  OpenAIChatToolCall,
} from './openai-chat-message.js';
export { clipMiddle } from './peer-api.js';
export { type Budget, type ResolveBudgetOptions, resolveBudget } from './resolve-budget.js';
export { SummarizerError, type SummarizerFailureKind } from './summarizer-error.js';
export { toJsonMessage } from './to-json-message.js';
export { toOpenAIChat } from './to-openai-chat.js';
export type {
  AppliedStrategy,
  CompactionEvent,
  CompressionStrategy,
  CompressMode,
  CompressResult,
  TokenCounter,
  UnchangedReason,
} from './types.js';
export { validateMessages } from './validate-messages.js';
export {
  type ToolPairProblem,
  type ToolPairProblemCode,
  type ToolPairValidation,
  validateToolPairs,
} from './validate-tool-pairs.js';
export {
  extractSpanFacts,
  type FactClass,
  type SpanFacts,
  type SummaryRejection,
  type SummaryVerification,
  type VerifySummaryOptions,
  verifySummary,
  wordStems,
} from './verify-summary.js';
