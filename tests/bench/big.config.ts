// Playwright configuration of the 2 GB page bench (not a test suite: `scripts/bench.sh
// --browser-big`). Serves this checkout's built page (dist/) on a port of its own (BENCH_PORT,
// default 4274), so that a preview server of another checkout is never reused.
import { defineConfig } from '@playwright/test';
import base from './bench.config';

const PORT = Number(process.env.BENCH_PORT ?? 4274);

export default defineConfig({
  ...base,
  testMatch: 'big.bench.ts',
  outputDir: '../../test-results/bench-big',
  timeout: 0,
  use: { ...base.use, baseURL: `http://localhost:${PORT}` },
  webServer: {
    ...(base.webServer as object),
    command: `npx vite preview --port ${PORT} --strictPort`,
    url: `http://localhost:${PORT}/`,
    reuseExistingServer: false,
  },
});
