import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The workspace packages (the sandbox) are run from their TypeScript sources (package.json exports).
  ssr: { resolve: { conditions: ['plumb-source'] } },
  test: {
    // plumb's tests, then each workspace package's own.
    include: ['tests/**/*.test.ts', 'packages/*/tests/**/*.test.ts'],
    setupFiles: ['tests/support/isolate-cache.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most test files spend their time waiting on the CLI processes and servers they start, not
    // computing: two files at once even on two cores (vitest's default there is one).
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
