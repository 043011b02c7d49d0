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
    // Each worker imports the app's modules once, not once per test file: on a 2-core machine the run took
    // 122-130 s against 179 s (`npx vitest run --no-isolate`, twice, once with the files shuffled), the time
    // spent importing 12 s against 77 s. The tests share nothing through modules: each makes its own app and
    // data, and the few that fake timers, globals or TZ put them back after each test.
    isolate: false,
  },
});
