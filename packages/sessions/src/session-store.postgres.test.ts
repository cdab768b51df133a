import { afterAll } from 'vitest';
import { createSessionStore } from './index.js';
import { describeSessionStoreContract } from './test/index.js';
import { contractOptions } from './test-utils/contract-options.js';
import {
  createTestDatabase,
  describePostgres,
  type TestDatabase,
} from './test-utils/postgres-database.js';

describePostgres('PostgreSQL server', () => {
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await database?.drop();
  });
  describeSessionStoreContract(
    'PostgreSQL',
    async () => {
      database = await createTestDatabase('contract');
      return createSessionStore({ connectionString: database.connectionString });
    },
    contractOptions,
  );
});
