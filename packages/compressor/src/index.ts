export { generateSummaryWithModel } from './call-summarizer.js';
export { clipMiddle } from './clip-middle.js';
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
export { fromOpenAIChat } from './from-openai-chat.js';
export type {
  OpenAIChatContentPart,
  OpenAIChatMessage,
  OpenAIChatToolCall,
} from './openai-chat-message.js';
export { SummarizerError, type SummarizerFailureKind } from './summarizer-error.js';
export { toOpenAIChat } from './to-openai-chat.js';
export type {
  AppliedStrategy,
  CompactionEvent,
  CompressionStrategy,
  CompressResult,
  TokenCounter,
} from './types.js';
export { validateMessages } from './validate-messages.js';
export {
  type ToolPairProblem,
  type ToolPairProblemCode,
  type ToolPairValidation,
  validateToolPairs,
} from './validate-tool-pairs.js';
