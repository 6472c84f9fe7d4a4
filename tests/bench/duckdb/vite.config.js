// Bundles the DuckDB-wasm harness (index.html, main.js) from the copy of @duckdb/duckdb-wasm
// that scripts/bench.sh installs into bench-out/duckdb-wasm, into bench-out/duckdb-wasm/dist,
// which the browser bench serves itself. Not part of the page's build.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('../../..', import.meta.url));
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  resolve: { alias: { '@duckdb/duckdb-wasm': `${root}bench-out/duckdb-wasm/node_modules/@duckdb/duckdb-wasm` } },
  build: { outDir: `${root}bench-out/duckdb-wasm/dist`, emptyOutDir: true, target: 'es2022', assetsInlineLimit: 0, chunkSizeWarningLimit: 100_000 },
});
