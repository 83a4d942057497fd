// Browser end-to-end tests: Playwright drives Debian's Chromium (never a downloaded browser)
// against the real `costscope serve --demo` binary, started once by e2e/global-setup.ts on a free
// port with a fresh data dir. Run with `make test-e2e` (builds first) or `npm run test:e2e`.
import { defineConfig } from '@playwright/test';

const chromium = process.env.COSTSCOPE_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1, // 2 cores: one browser and one server at a time
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    // Set by global-setup.ts before the workers start; e2e/fixtures.ts also provides it.
    baseURL: process.env.COSTSCOPE_E2E_BASE_URL,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
