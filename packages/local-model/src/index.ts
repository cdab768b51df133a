export {
  createLocalModel,
  LocalLanguageModel,
  type LocalModelOptions,
} from './create-local-model.js';
export {
  createVerifiedSummarizer,
  type VerifiedSummarizerOptions,
} from './create-verified-summarizer.js';
export {
  LocalContextOverflowError,
  LocalRuntimeUnavailableError,
  ModelNotFoundError,
} from './local-model-errors.js';
export {
  defaultModelFile,
  modelCacheDir,
  type ResolveModelPathOptions,
  resolveModelPath,
} from './resolve-model-path.js';
export {
  keyLines,
  type SummarizeTextOptions,
  type SummarizeTextResult,
  summarizeText,
  type TextSummarizerRequest,
  type TextSummaryDetail,
} from './summarize-text.js';
export {
  type SummarizerInputBudgetOptions,
  summarizerInputBudget,
} from './summarizer-input-budget.js';
export {
  addedLabel,
  extractSpanFacts,
  type FactClass,
  type SpanFacts,
  type SummaryVerification,
  type VerifySummaryOptions,
  verifySummary,
} from './verify-summary.js';
