// A reader worker of the parallel read, started by the audit worker (worker.ts): it reads one
// byte range of a file into a partial table (`TableReader`) and transfers the table's bytes
// back, reads a whole Parquet or Excel file into a table (`read_cells`), or hashes the whole
// file in order (`Hasher`). It keeps nothing between requests. A panic of a third-party reader
// aborts its WebAssembly instance (a `WebAssembly.RuntimeError`): it says so and closes.

import init, { Hasher, TableReader, read_cells } from '../../pkg/pseudolens_wasm.js';
import wasmUrl from '../../pkg/pseudolens_wasm_bg.wasm?url';
import type { PartRequest, PartResponse } from '../shared/part-protocol';
import { CHUNK_BYTES, PROGRESS_INTERVAL_MS } from '../shared/protocol';
import { toWireError } from '../shared/report';

/** The parts of DedicatedWorkerGlobalScope used here (the DOM lib types `self` as Window). */
interface WorkerScope {
  postMessage(message: PartResponse, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: MessageEvent<PartRequest>) => void): void;
  addEventListener(type: 'securitypolicyviolation', listener: (e: SecurityPolicyViolationEvent) => void): void;
}
const scope = globalThis as unknown as WorkerScope;

scope.addEventListener('securitypolicyviolation', (e) => {
  scope.postMessage({
    type: 'csp_violation',
    violation: { blockedURI: e.blockedURI, violatedDirective: e.violatedDirective, sourceFile: e.sourceFile },
  });
});

/**
 * Reads `blob` from `start` in 1 MiB slices into `push` while `more()` holds, posting the
 * bytes read and `rows()` at most every 100 ms.
 */
async function readFrom(id: number, blob: Blob, start: number, push: (chunk: Uint8Array) => void, more: () => boolean, rows: () => number): Promise<void> {
  let lastPost = performance.now();
  let at = start;
  while (at < blob.size && more()) {
    const end = Math.min(at + CHUNK_BYTES, blob.size);
    push(new Uint8Array(await blob.slice(at, end).arrayBuffer()));
    at = end;
    if (performance.now() - lastPost >= PROGRESS_INTERVAL_MS) {
      scope.postMessage({ type: 'progress', id, bytes: at - start, rows: rows() });
      lastPost = performance.now();
    }
  }
}

function serve(request: PartRequest): Promise<void> {
  const { id } = request;
  switch (request.type) {
    case 'part': {
      const { start, end, exact } = request.span;
      const reader = new TableReader(request.config, request.probe, start, end, exact);
      return readFrom(id, request.blob, start, (c) => reader.push(c), () => !reader.done(), () => reader.rows())
        .then(() => {
          const table = reader.finish().buffer as ArrayBuffer;
          scope.postMessage({ type: 'part', id, table }, [table]);
        })
        .finally(() => reader.free());
    }
    case 'cells':
      return request.blob.arrayBuffer().then((buffer) => {
        const table = read_cells(request.config, new Uint8Array(buffer), request.format, request.sheet).buffer as ArrayBuffer;
        scope.postMessage({ type: 'part', id, table }, [table]);
      });
    case 'hash': {
      const hasher = new Hasher();
      return readFrom(id, request.blob, 0, (c) => hasher.update(c), () => true, () => 0)
        .then(() => scope.postMessage({ type: 'hash', id, hex: hasher.hex() }))
        .finally(() => hasher.free());
    }
  }
}

const ready = Promise.resolve(init({ module_or_path: wasmUrl }));
scope.addEventListener('message', (e) => {
  const request = e.data;
  ready
    .then(() => serve(request))
    .catch((error: unknown) => {
      if (error instanceof WebAssembly.RuntimeError) {
        // The engine of this worker is unusable now: say why, and stop taking requests.
        const what = request.type === 'cells' ? (request.format === 'parquet' ? 'The Parquet reader' : 'The Excel reader') : 'The reader';
        const message = `${what} stopped on this file, which may be corrupt or cut short (${error.message}).`;
        scope.postMessage({ type: 'stopped', id: request.id, error: { kind: 'input', code: 'reader_stopped', message, line: null, column: null } });
        self.close();
        return;
      }
      scope.postMessage({ type: 'failed', id: request.id, error: toWireError(error) });
    });
});
ready.then(
  () => scope.postMessage({ type: 'ready' }),
  (e: unknown) => scope.postMessage({ type: 'engine_failed', error: toWireError(e) }),
);
