// Playwright configuration of the protect bench (issue 38: the full search of Adult in the
// page, at most 1 s; not a test suite: `scripts/bench.sh --browser`). The bench serves the
// files itself: no preview server.
import { defineConfig } from '@playwright/test';
import base from './bench.config';

export default defineConfig({
  ...base,
  testMatch: 'protect.bench.ts',
  outputDir: '../../test-results/bench-protect',
  timeout: 0,
  webServer: undefined,
});
