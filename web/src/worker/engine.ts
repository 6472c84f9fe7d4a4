// The engine of the audit worker: the wasm module compiled once, instantiated here
// (`loadWasm`) and by every reader worker of the pool started with this worker
// (`ReaderPool`, parallel-read.ts): the page's first engine (which-engine.ts says which engine
// this worker's requests use).

import * as first from '../../pkg/pseudolens_wasm.js';
import wasmUrl from '../../pkg/pseudolens_wasm_bg.wasm?url';
import { compiledFrom } from './compile';
import { ReaderPool, readerCount } from './parallel-read';
import { forwardViolation } from './scope';

/**
 * The engine compiled once, here, and instantiated by this worker and every reader worker
 * (`ReaderPool`). Compiled in each worker, it was optimized by V8 in each: the functions the
 * warm-up made hot here were optimized again in the readers, during the first read and
 * audit, on the cores those needed (docs/decisions/wasm/one-compiled-engine.md).
 */
const engine: Promise<WebAssembly.Module> = compiledFrom(wasmUrl, 'The engine');

let ready: Promise<unknown> | null = null;
export function loadWasm(): Promise<unknown> {
  if (!ready) ready = engine.then((module) => first.default({ module_or_path: module }));
  return ready;
}

/** The reader workers, started with this worker; null when they could not start. */
let pool: ReaderPool | null = new ReaderPool(readerCount(navigator.hardwareConcurrency), engine, forwardViolation);
/** Settles once the reader workers have started, or could not (then there is none). */
export const poolReady = pool.ready().catch(() => {
  pool = null;
});

/** The reader workers (null once they could not start). */
export function readers(): ReaderPool | null {
  return pool;
}
