export {
  createLocalModel,
  LocalLanguageModel,
  type LocalModelOptions,
} from './create-local-model.js';
export {
  LocalContextOverflowError,
  LocalRuntimeUnavailableError,
  ModelLoadError,
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
  type WithStructuredOutputsOptions,
  withStructuredOutputs,
} from './with-structured-outputs.js';
