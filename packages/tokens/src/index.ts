export { BatonError, type BatonErrorOptions } from './baton-error.js';
export { InvalidInputError } from './invalid-input-error.js';
export type {
  CountableMessage,
  CountableTool,
  CountMessagesOptions,
  Encoding,
  ModelInfo,
  TiktokenEncoding,
  TokenCounter,
} from './types.js';
