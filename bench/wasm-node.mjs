// The wasm engine against the native CLI on one core, outside the browser: reads a CSV into a
// kept table with the page's wasm build (web/pkg, or a build with its function names kept, for
// `node --cpu-prof`), then audits it three times (the first after `warm_up`, as the page does)
// and prints each time. Compare with `pseudolens bench reaudit --threads 1` on the same file.
// `read` hashes the file with the wasm SHA-256 as it reads (the CLI does too, with the CPU's SHA
// instructions); `read as a part` reads it again as the page's readers do, told the file's size
// and without the hash (the page hashes with Web Crypto beside them), in the instance the first
// read warmed up. The measurement of record against native is tests/bench/engine.bench.ts.
// Used for docs/decisions/numeric/wasm32-arithmetic.md.
//
//   node bench/wasm-node.mjs web/pkg FILE QIS [SENSITIVE]
//   wasm-bindgen --target web --out-dir /tmp/pkg target/wasm32-unknown-unknown/wasm/pseudolens_wasm.wasm
//   node --cpu-prof bench/wasm-node.mjs /tmp/pkg FILE QIS [SENSITIVE]   (function names kept)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const [pkg, file, qis, sas = ''] = process.argv.slice(2);
if (!pkg || !file || !qis) {
  console.error('usage: node bench/wasm-node.mjs PKG_DIR FILE QIS [SENSITIVE]');
  process.exit(2);
}
const dir = resolve(pkg);
const m = await import(`${dir}/pseudolens_wasm.js`);
await m.default({ module_or_path: readFileSync(`${dir}/pseudolens_wasm_bg.wasm`) });
const config = { quasi_identifiers: qis.split(','), sensitive: sas ? sas.split(',') : [] };
const time = (label, f) => {
  const t = performance.now();
  const out = f();
  console.log(`${label} ${(performance.now() - t).toFixed(0)} ms`);
  return out;
};
time('warm-up', () => m.warm_up());
const bytes = readFileSync(file);
const kept = time('read', () => {
  const reader = new m.TableReader(config, null, 0, Infinity, true);
  for (let at = 0; at < bytes.length; at += 1 << 20) reader.push(bytes.subarray(at, Math.min(bytes.length, at + (1 << 20))));
  return m.KeptTable.from_bytes(reader.finish());
});
time('read as a part', () => {
  const reader = new m.TableReader(config, m.probe(config, bytes.subarray(0, 1 << 20), false), 0, bytes.length, true);
  reader.expect_file_bytes(bytes.length);
  for (let at = 0; at < bytes.length && !reader.done(); at += 1 << 20) reader.push(bytes.subarray(at, Math.min(bytes.length, at + (1 << 20))));
  return m.KeptTable.from_bytes(reader.finish());
});
for (let i = 0; i < 3; i++) time(`audit ${i + 1}`, () => kept.audit(config));
