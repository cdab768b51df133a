// The OpenAI chat adapters live in @baton/compressor (one implementation); re-exported because
// they were part of this package's API.
export { fromOpenAIChat, type OpenAIChatMessage, toOpenAIChat } from '@baton/compressor';
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
export { UsageError } from './usage-error.js';
