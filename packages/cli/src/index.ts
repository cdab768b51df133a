export type { CliIo, CliStream } from './cli-io.js';
export {
  type CompactReport,
  type CompactTranscriptOptions,
  compactTranscript,
} from './compact-transcript.js';
export {
  type ClaudeCodeTranscript,
  type FromClaudeCodeOptions,
  fromClaudeCode,
} from './from-claude-code.js';
export { fromOpenAIChat } from './from-openai-chat.js';
export { InputFileError } from './input-file-error.js';
export { loadSummarizer, SUMMARIZER_PROVIDERS } from './load-summarizer.js';
export {
  type ParseTranscriptOptions,
  parseTranscript,
  type ReadTranscriptOptions,
  readTranscript,
  TRANSCRIPT_FORMATS,
  type Transcript,
  type TranscriptFormat,
} from './read-transcript.js';
export { EXIT_CODES, runCli } from './run-cli.js';
export { type OpenAIChatMessage, toOpenAIChat } from './to-openai-chat.js';
export { UsageError } from './usage-error.js';
