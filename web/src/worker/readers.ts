// The readers of Parquet and Excel files: a wasm module of their own (crate/wasm, feature
// `readers`), fetched and compiled by the audit worker only when such a file is chosen (issue
// 40: they were 40 % of the page's first download), then sent to the reader workers with each
// request that reads such a file, as the engine is. The service worker keeps it with the rest
// of the deployment, so it loads offline too.

import init from '../../pkg/pseudolens_readers.js';
import readersUrl from '../../pkg/pseudolens_readers_bg.wasm?url';
import { compiledFrom } from './compile';

let compiled: Promise<WebAssembly.Module> | null = null;
let ready: Promise<unknown> | null = null;

/** The readers' module, compiled at the first call (a failed load is tried again at the next). */
export function readersModule(): Promise<WebAssembly.Module> {
  if (!compiled) {
    compiled = compiledFrom(readersUrl, 'The Parquet and Excel readers');
    compiled.catch(() => (compiled = null));
  }
  return compiled;
}

/** The readers instantiated in this worker (its imports, such as `read_cells`, work once it settles). */
export function loadReaders(): Promise<unknown> {
  if (!ready) {
    ready = readersModule().then((module) => init({ module_or_path: module }));
    ready.catch(() => (ready = null));
  }
  return ready;
}
