// The readers of Parquet and Excel files: a wasm module of their own (crate/wasm, feature
// `readers`), fetched and compiled by the audit worker only when such a file is chosen (issue
// 40: they were 40 % of the page's first download), then sent to the reader workers with each
// request that reads such a file, as the engine is. The service worker keeps it with the rest
// of the deployment, so it loads offline too. Its script (the wasm-bindgen glue) is imported
// only then too.

import readersUrl from '../../pkg/pseudolens_readers_bg.wasm?url';
import type { WireError } from '../shared/report';
import { compiledFrom } from './compile';

let compiled: Promise<WebAssembly.Module> | null = null;
/** The readers' exports, as the glue gives them. */
export type Readers = typeof import('../../pkg/pseudolens_readers.js');

let ready: Promise<Readers> | null = null;

/** The readers' module, compiled at the first call (a failed load is tried again at the next);
 * rejects with `readers_unavailable` when it cannot be fetched (offline, the page not installed). */
export function readersModule(): Promise<WebAssembly.Module> {
  if (!compiled) {
    compiled = compiledFrom(readersUrl, 'The Parquet and Excel readers').catch((e: unknown) => {
      compiled = null;
      throw unavailable(e);
    });
  }
  return compiled;
}

/** The error of readers that could not be loaded: the page says what to do (messages.ts). */
function unavailable(e: unknown): WireError {
  const why = e instanceof Error ? e.message : String(e);
  return {
    kind: 'input',
    code: 'readers_unavailable',
    message: `the Parquet and Excel readers could not be loaded (${why})`,
    line: null,
    column: null,
  };
}

/** The readers instantiated in this worker from `module` (default: compiled here). */
export function loadReaders(module: Promise<WebAssembly.Module> | WebAssembly.Module = readersModule()): Promise<Readers> {
  if (!ready) {
    // The glue's script is fetched too: offline, it fails as the module does.
    const script = import('../../pkg/pseudolens_readers.js').catch((e: unknown) => {
      throw unavailable(e);
    });
    ready = Promise.all([script, module]).then(([glue, compiled]) => glue.default({ module_or_path: compiled }).then(() => glue));
    ready.catch(() => (ready = null));
  }
  return ready;
}
