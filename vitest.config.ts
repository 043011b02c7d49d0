import { defineConfig } from 'vitest/config';

// Unit and API tests (colocated *.test.ts). API tests share one real PostgreSQL prepared by the global
// setup: the embedded one, or DATABASE_URL when set. Each test makes its own data, so files run in parallel.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    globalSetup: ['tests/fixtures/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
