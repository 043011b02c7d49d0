import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, testBrowser } from './tests/fixtures/browser';

const PORT = Number(process.env.E2E_PORT ?? 3100);

// Debian's /usr/bin/chromium when the machine has it, else the one inside @sparticuz/chromium (never a
// downloaded browser). Top-level await: package.json says "type": "module".
const browser = await testBrowser();

/**
 * Browser journeys in Chromium (see tests/fixtures/browser.ts). The server is the built app on its own port
 * and, without DATABASE_URL, a fresh embedded PostgreSQL under data/test-e2e-<port>.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  // E2E_WORKERS overrides (e.g. 1 while debugging one spec); CI keeps 2 on its 2-core machine, where the server
  // and PostgreSQL share the cores with the browsers.
  workers: process.env.E2E_WORKERS ? Number(process.env.E2E_WORKERS) : process.env.CI ? 2 : undefined,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: browser.executablePath,
      env: browser.env,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: `rm -rf data/test-e2e-${PORT} && node dist/server/server.js`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: `data/test-e2e-${PORT}`,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // Journeys that wait for a mail (gifts, password reset) wait for the outbox worker: poll it often.
      MAIL_POLL_MS: '200',
      // Every journey's browser is the one address 127.0.0.1, so the per-IP budget of wrong passwords (30 in
      // 15 min) counted all journeys' deliberate wrong passwords together, and on a kept database (CI's
      // second half) also those of the API tests and of a run minutes before: a right password was then
      // refused ("Too many wrong passwords"). The per-account budget still applies; the API tests cover both.
      LOGIN_MAX_FAILURES_PER_IP: '100000',
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    },
  },
});
