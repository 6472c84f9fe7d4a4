// The only code that touches wasm. It reads the input in 1 MiB slices, pushes each slice into
// the streaming `Audit`, reports progress at most every 100 ms and posts the final Report.
// Cancel is handled by the page: it terminates this worker (a wasm call cannot be interrupted).

import init, { Audit, sample_csv, version } from '../pkg/pseudolens_wasm.js';
import wasmUrl from '../pkg/pseudolens_wasm_bg.wasm?url';
import {
  CHUNK_BYTES,
  PROGRESS_INTERVAL_MS,
  assertNever,
  type Request,
  type Response,
  type Source,
} from './protocol';
import { toWireError, type AuditConfig, type Report } from './report';

/** The parts of DedicatedWorkerGlobalScope used here (the DOM lib types `self` as Window). */
interface WorkerScope {
  postMessage(message: Response): void;
  addEventListener(type: 'message', listener: (e: MessageEvent<Request>) => void): void;
  addEventListener(type: 'securitypolicyviolation', listener: (e: SecurityPolicyViolationEvent) => void): void;
}
const scope = globalThis as unknown as WorkerScope;

// Forward this worker's own CSP violations: the page's listeners never see them otherwise.
scope.addEventListener('securitypolicyviolation', (e) => {
  scope.postMessage({
    type: 'csp_violation',
    violation: { blockedURI: e.blockedURI, violatedDirective: e.violatedDirective, sourceFile: e.sourceFile },
  });
});

let ready: Promise<unknown> | null = null;
function loadWasm(): Promise<unknown> {
  if (!ready) ready = Promise.resolve(init({ module_or_path: wasmUrl }));
  return ready;
}

/** The sample is streamed exactly like a file: as a Blob read slice by slice. */
function asBlob(source: Source): Blob {
  switch (source.kind) {
    case 'file':
      return source.file;
    case 'sample':
      return new Blob([sample_csv() as Uint8Array<ArrayBuffer>], { type: 'text/csv' });
    default:
      return assertNever(source);
  }
}

async function audit(id: number, blob: Blob, config: AuditConfig): Promise<Report> {
  const started = performance.now();
  let lastPost = -Infinity;
  const audit = new Audit(config);
  const post = (bytes: number) => {
    const seconds = (performance.now() - started) / 1000;
    const mbPerSec = seconds > 0 ? bytes / 1e6 / seconds : 0;
    scope.postMessage({
      type: 'progress',
      id,
      progress: { rows: audit.rows(), bytes, totalBytes: blob.size, mbPerSec },
    });
    lastPost = performance.now();
  };
  try {
    post(0);
    for (let start = 0; start < blob.size; start += CHUNK_BYTES) {
      const end = Math.min(start + CHUNK_BYTES, blob.size);
      const chunk = new Uint8Array(await blob.slice(start, end).arrayBuffer());
      audit.push(chunk);
      if (performance.now() - lastPost >= PROGRESS_INTERVAL_MS) post(end);
    }
    post(blob.size);
    return audit.finish() as Report;
  } finally {
    audit.free(); // finish() empties the audit but leaves its handle to be freed
  }
}

async function run(request: Request): Promise<void> {
  const { id, pass, source } = request;
  let config = request.config;
  try {
    await loadWasm();
    const blob = asBlob(source);
    let report: Report;
    try {
      report = await audit(id, blob, config);
    } catch (e) {
      const error = toWireError(e);
      if (error.code !== 'encoding_mismatch' || config.encoding === 'windows-1252') throw e;
      scope.postMessage({ type: 'encoding_retry', id, encoding: 'windows-1252' });
      config = { ...config, encoding: 'windows-1252' };
      report = await audit(id, blob, config);
    }
    scope.postMessage({ type: 'result', id, pass, report });
  } catch (e) {
    scope.postMessage({ type: 'error', id, error: toWireError(e) });
  }
}

scope.addEventListener('message', (e) => {
  const request = e.data;
  switch (request.type) {
    case 'run':
      void run(request);
      break;
    default:
      assertNever(request.type);
  }
});

// Load the engine as soon as the worker starts, so the first run does not wait for it and no
// fetch happens once the user has picked a file.
loadWasm().then(
  () => scope.postMessage({ type: 'ready', version: version() }),
  (e: unknown) => scope.postMessage({ type: 'engine_failed', error: toWireError(e) }),
);
