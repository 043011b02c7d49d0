import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit and API tests (colocated *.test.ts), and tests of the repo itself (tests/*.test.ts: the README's
// commands, the browser the e2e tests use). API tests share one real PostgreSQL prepared by the global
// setup: the embedded one, or DATABASE_URL when set. Each test makes its own data, so files run in parallel.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'tests/**/*.test.ts'],
    globalSetup: ['tests/fixtures/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default (cores - 1) gives a 2-core CI machine one worker, though the API tests mostly wait on
    // PostgreSQL: two workers there halved the run (424 s -> 221 s). One PostgreSQL serves all workers.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
