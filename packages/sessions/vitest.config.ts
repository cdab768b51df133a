import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Properties draw from the commit's seed: see @baton/test-corpus/property-seed.
    setupFiles: ['@baton/test-corpus/property-seed'],
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    // Hooks open PGlite stores and remove their data folders: over 10 s on a loaded 2-core
    // machine (CI saw `rmSync` of a lock attack's folder time out at the 10 s default).
    hookTimeout: 60_000,
  },
});
