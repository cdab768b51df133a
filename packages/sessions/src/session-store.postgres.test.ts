import { afterAll, describe, it } from 'vitest';
import { createSessionStore } from './index.js';
import {
  createTestDatabase,
  postgresRequired,
  postgresUnavailableReason,
  type TestDatabase,
} from './test-utils/postgres-database.js';
import { describeSessionStoreContract } from './test-utils/session-store-contract.js';

const unavailable = await postgresUnavailableReason();

if (unavailable === undefined) {
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await database?.drop();
  });
  describeSessionStoreContract('PostgreSQL', async () => {
    database = await createTestDatabase('contract');
    return createSessionStore({ connectionString: database.connectionString });
  });
} else if (postgresRequired) {
  describe('session store contract (PostgreSQL)', () => {
    it('needs the PostgreSQL server (BATON_REQUIRE_POSTGRES=1)', () => {
      throw new Error(unavailable);
    });
  });
} else {
  describe.skip(`session store contract (PostgreSQL): ${unavailable}`, () => {
    it('skipped', () => {});
  });
}
