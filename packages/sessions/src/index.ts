export { CompactionConflictError } from './compaction-conflict-error.js';
export { CompactionStaleError } from './compaction-stale-error.js';
export { createSessionStore } from './create-session-store.js';
export { dataDirLockName } from './data-dir-lock.js';
export { describeSessionId } from './describe-session-id.js';
export { HistoryDivergedError } from './history-diverged-error.js';
export { LineageConflictError } from './lineage-conflict-error.js';
export { MessageValidationError } from './message-validation-error.js';
export { recallQueryMaxLength, recallRankLimit, recallScanLimit } from './recall-messages.js';
export { RecallQueryError, type RecallQueryProblem } from './recall-query-error.js';
export { RecallRangeError } from './recall-range-error.js';
export { recallRedactMargin } from './redacted-excerpt.js';
export { compactions, messages, sessions } from './schema.js';
export { SessionEndedError } from './session-ended-error.js';
export { SessionExistsError } from './session-exists-error.js';
export { SessionNotFoundError } from './session-not-found-error.js';
export { StoreClosedError } from './store-closed-error.js';
export { StoreConnectionError } from './store-connection-error.js';
export { StoreDatabaseError } from './store-database-error.js';
export type {
  AnyPgDatabase,
  AppendMessagesOptions,
  AppendMessagesResult,
  Compaction,
  CompactionResult,
  CreateSessionOptions,
  ForkOptions,
  GetMessagesOptions,
  ListSessionsOptions,
  MessageTokenCounter,
  RecallMatch,
  RecallOptions,
  RecallRedact,
  RecallResult,
  RecordCompactionOptions,
  RecordCompactionResult,
  ResumeResult,
  Session,
  SessionMessage,
  SessionOrigin,
  SessionStore,
  SessionStoreOptions,
  StoredMessage,
} from './types.js';
