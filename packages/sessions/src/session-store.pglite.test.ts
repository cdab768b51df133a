import { createSessionStore } from './index.js';
import { describeSessionStoreContract } from './test-utils/session-store-contract.js';

// One in-memory PGlite for the whole file: its cold open takes seconds.
describeSessionStoreContract('PGlite in memory', () => createSessionStore());
