// Helpers for tests of code built on Baton: kept out of the main entry so that it never loads
// `node:http` or test-only code.
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
