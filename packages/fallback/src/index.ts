export {
  type ClipCounter,
  type ClipMiddleOptions,
  clipMiddle,
  type ElisionUnit,
  elisionMarker,
  hasElisionMarker,
} from './clip-middle.js';
export { clipText } from './clip-text.js';
export {
  type CreateReceiptOptions,
  createReceipt,
  type Receipt,
  type ReceiptSectionStats,
  type ReceiptStats,
} from './create-receipt.js';
export {
  type AskFact,
  type ErrorFact,
  extractErrorLines,
  extractHandoffFacts,
  extractPaths,
  type FileFact,
  type HandoffFacts,
  itemKey,
  type ToolCallFact,
  type TurnFact,
} from './extract-handoff-facts.js';
export {
  HANDOFF_CURRENT_ASK_POINTER,
  HANDOFF_FOOTER,
  HANDOFF_HEADER,
  HANDOFF_SECTIONS,
  type HandoffSectionKey,
  type HandoffSections,
} from './handoff-layout.js';
export { measureRetention, type RetentionScores } from './measure-retention.js';
export { parseHandoff } from './parse-handoff.js';
export { ReceiptInputError } from './receipt-input-error.js';
export {
  type MessageSecretFinding,
  type RedactMessagesResult,
  redactMessages,
} from './redact-messages.js';
export {
  clearRedactionMemo,
  type RedactSecretsOptions,
  type RedactSecretsResult,
  redactSecrets,
  type SecretFinding,
} from './redact-secrets.js';
export { type RenderHandoffOptions, renderHandoff } from './render-handoff.js';
export type { SecretRule } from './secret-rules.js';
export { sha256 } from './sha256.js';
