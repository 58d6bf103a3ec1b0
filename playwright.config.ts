import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests in Debian's Chromium against a running portal. `node scripts/e2e.mjs` starts a fresh
 * server and sets BASE_URL; to reuse a running server: BASE_URL=http://localhost:3000 npx playwright test
 */
const baseURL = process.env.BASE_URL ?? 'http://localhost:3000';

export default defineConfig({
  testDir: 'e2e',
  // scripts/e2e.mjs gives every run its own folder, so parallel runs in one tree do not clear each other's.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results/playwright',
  fullyParallel: true,
  workers: 2,
  // One retry in CI: the silent renewal after an expired token (session.spec.ts) failed once in a full run under
  // load and passes alone; its cause is not found yet (docs/security.md). A retried pass is reported as 'flaky'.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  // Generous: the suite must also pass on a busy two-core CI machine.
  timeout: 90_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  use: {
    baseURL,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    // Logs every demo user in once through the real login page and keeps the session for the other tests.
    {
      name: 'login',
      testMatch: /login\.setup\.ts/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1400, height: 900 } },
    },
    {
      name: 'chromium',
      dependencies: ['login'],
      // e2e/support/*.test.ts are vitest's unit tests of the helpers.
      testIgnore: [/login\.setup\.ts/, /exclusive\//, /support\//],
      use: { ...devices['Desktop Chrome'], viewport: { width: 1400, height: 900 } },
    },
    // Specs under e2e/exclusive/ change shared demo state (e.g. einkauf@'s current business partner): they
    // run alone – after every other spec and one file at a time – and restore what they changed.
    {
      name: 'exclusive',
      dependencies: ['chromium'],
      testMatch: /exclusive\/.*\.spec\.ts/,
      fullyParallel: false,
      workers: 1,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1400, height: 900 } },
    },
  ],
});
