export {
  type ClaudeCodeTranscript,
  type FromClaudeCodeOptions,
  fromClaudeCode,
} from './from-claude-code.js';
export { fromOpenAIChat } from './from-openai-chat.js';
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
export { TranscriptError } from './transcript-error.js';
export { UsageError } from './usage-error.js';
