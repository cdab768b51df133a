// The session store contract as a vitest suite, and the fixtures it builds on: kept out of the main
// entry, which never loads vitest or fast-check.
export { compactResult } from './compact-result.js';
export { type CuttingProxy, startCuttingProxy } from './cutting-proxy.js';
export {
  type ContractTranscript,
  describeSessionStoreContract,
  type SessionStoreContractOptions,
} from './describe-session-store-contract.js';
export {
  describePrivatePostgres,
  findPostgresBinaries,
  type PrivatePostgres,
  privatePostgresUnavailableReason,
  startPrivatePostgres,
} from './private-postgres.js';
export { userMessages } from './user-messages.js';
