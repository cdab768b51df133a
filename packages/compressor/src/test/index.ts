// Helpers for tests of code built on Baton: kept out of the main entry so that it never loads
// `node:http` or test-only code.

// The unkeyed hashes Baton computes over messages, for tests that check a store holds none of them
// where a record key seals what is stored (a short message hashed whole could be guessed offline).
export {
  contentFingerprint,
  fingerprintMessages,
  hashMessage,
  hashMessageContent,
} from '../fingerprint-messages.js';
export {
  type ChatCompletionRequest,
  createOpenAICompatibleTestServer,
  type OpenAICompatibleTestServer,
  type OpenAICompatibleTestServerOptions,
  type TestServerReply,
} from './create-openai-compatible-test-server.js';
export {
  type PairedMessage,
  type ToolPairProblemsOptions,
  toolPairProblems,
} from './tool-pair-problems.js';
