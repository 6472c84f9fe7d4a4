// Playwright configuration of the browser benchmark (not a test suite: `scripts/bench.sh`).
import { defineConfig } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import base from '../../playwright.config';

const config = defineConfig({
  ...base,
  testDir: '.',
  testMatch: 'browser.bench.ts',
  outputDir: '../../test-results/bench',
  workers: 1,
  timeout: 900_000,
  // The preview server must start at the repository root, where vite.config.ts is.
  webServer: { ...(base.webServer as object), cwd: fileURLToPath(new URL('../..', import.meta.url)) },
});
export default config;

/**
 * The configuration of a bench that serves this checkout's built page (dist/) on a port of its
 * own (BENCH_PORT, else `port`), so that a preview server of another checkout is never reused.
 */
export function servedBench(testMatch: string, name: string, port: number) {
  const PORT = Number(process.env.BENCH_PORT ?? port);
  return defineConfig({
    ...config,
    testMatch,
    outputDir: `../../test-results/${name}`,
    timeout: 0,
    use: { ...config.use, baseURL: `http://localhost:${PORT}` },
    webServer: {
      ...(config.webServer as object),
      command: `npx vite preview --port ${PORT} --strictPort`,
      url: `http://localhost:${PORT}/`,
      reuseExistingServer: false,
    },
  });
}
