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
  },
});
