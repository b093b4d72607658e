import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    setupFiles: ['tests/support/isolate-cache.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most test files spend their time waiting on the CLI processes and servers they start, not
    // computing: two files at once even on two cores (vitest's default there is one).
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
