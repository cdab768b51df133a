import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Properties draw from the commit's seed: see @baton/test-corpus/property-seed.
    setupFiles: ['@baton/test-corpus/property-seed'],
    include: ['src/**/*.test.ts', 'eval/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Real-model suites run llama.cpp on one thread each; files in parallel would fight for the CPU
    // and make every timing (and timeout test) meaningless.
    fileParallelism: false,
  },
});
