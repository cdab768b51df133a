import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Properties draw from the commit's seed: see @baton/test-corpus/property-seed.
    setupFiles: ['@baton/test-corpus/property-seed'],
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    // A PGlite store opened in a hook takes ~4 s cold, over 10 s on a loaded 2-core machine.
    hookTimeout: 30_000,
  },
});
