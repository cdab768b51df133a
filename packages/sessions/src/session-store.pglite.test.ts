import { createSessionStore } from './index.js';
import { describeSessionStoreContract } from './test/index.js';
import { contractOptions } from './test-utils/contract-options.js';

// One in-memory PGlite for the whole file: its cold open takes seconds.
describeSessionStoreContract('PGlite in memory', () => createSessionStore(), contractOptions);
