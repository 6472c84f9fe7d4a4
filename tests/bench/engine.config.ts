// Playwright configuration of the engine bench, wasm against native (not a test suite:
// `scripts/bench.sh --browser`). The bench serves the files itself: no preview server.
import { defineConfig } from '@playwright/test';
import base from './bench.config';

export default defineConfig({
  ...base,
  testMatch: 'engine.bench.ts',
  outputDir: '../../test-results/bench-engine',
  timeout: 0,
  webServer: undefined,
});
