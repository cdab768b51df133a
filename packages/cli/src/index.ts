export {
  type ClaudeCodeTranscript,
  type FromClaudeCodeOptions,
  fromClaudeCode,
} from './from-claude-code.js';
export { fromOpenAIChat } from './from-openai-chat.js';
export { InputFileError } from './input-file-error.js';
export {
  type ParseTranscriptOptions,
  parseTranscript,
  type ReadTranscriptOptions,
  readTranscript,
  TRANSCRIPT_FORMATS,
  type Transcript,
  type TranscriptFormat,
} from './read-transcript.js';
export { type OpenAIChatMessage, toOpenAIChat } from './to-openai-chat.js';
export { UsageError } from './usage-error.js';
