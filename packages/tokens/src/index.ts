export { BatonError, type BatonErrorOptions } from './baton-error.js';
export { chatFormat } from './count-message-tokens.js';
export { type CreateTokenCounterOptions, createTokenCounter } from './create-token-counter.js';
export { defaultTokenCounter } from './default-token-counter.js';
export { describeValue } from './describe-value.js';
export { type EstimateTokensOptions, estimateTokens } from './estimate-tokens.js';
export { imageTokens, unknownImageTokens } from './image-tokens.js';
export { InvalidInputError } from './invalid-input-error.js';
export { isRecord } from './is-record.js';
export { loadBytePairEncoder } from './load-byte-pair-encoder.js';
export { type Encoder, type EncoderLoader, loadTiktokenEncoder } from './load-encoder.js';
export {
  loadOpenWeightTokenizer,
  type OpenWeightTokenizer,
  type PretrainedTokenizer,
  type TokenizerLoader,
  tokenizerPackages,
} from './load-open-weight-tokenizer.js';
export { type OpenWeightChatFormat, openWeightChatFormats } from './open-weight-chat-format.js';
export { resolveModel, unknownModel } from './resolve-model.js';
export { TokenizerError } from './tokenizer-error.js';
export { type ToolOutputTextOptions, toolOutputText } from './tool-output-text.js';
export type {
  CountableMessage,
  CountableTool,
  CountMessagesOptions,
  Encoding,
  ModelInfo,
  TiktokenEncoding,
  TokenCounter,
} from './types.js';
