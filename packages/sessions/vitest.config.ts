import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Properties draw from the commit's seed: see @baton/test-corpus/property-seed.
    setupFiles: ['@baton/test-corpus/property-seed'],
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
