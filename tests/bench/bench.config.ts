// Playwright configuration of the browser benchmark (not a test suite: `scripts/bench.sh`).
import { defineConfig } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import base from '../../playwright.config';

export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: 'browser.bench.ts',
  outputDir: '../../test-results/bench',
  workers: 1,
  timeout: 900_000,
  // The preview server must start at the repository root, where vite.config.ts is.
  webServer: { ...(base.webServer as object), cwd: fileURLToPath(new URL('../..', import.meta.url)) },
});
