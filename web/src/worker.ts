// The only code that touches wasm. It reads the input in 1 MiB slices, pushes each slice into
// the streaming `Audit` (after reading the population table, if any, into a `Reference`),
// reports progress at most every 100 ms and posts the final Report; the drill-down pass streams
// the same file through an `Extract`.
// Cancel is handled by the page: it terminates this worker (a wasm call cannot be interrupted).

import init, { Audit, Extract, Population, Reference, sample_csv, version } from '../pkg/pseudolens_wasm.js';
import wasmUrl from '../pkg/pseudolens_wasm_bg.wasm?url';
import {
  CHUNK_BYTES,
  PROGRESS_INTERVAL_MS,
  assertNever,
  type ClassValues,
  type Extracted,
  type Request,
  type Response,
  type Source,
  type Target,
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

/** Something that absorbs a file chunk by chunk: Audit, Reference or Extract. */
interface Sink {
  push(chunk: Uint8Array): void;
  rows?(): number;
}

/** Reads `blob` in 1 MiB slices into `sink`, posting progress at most every 100 ms. */
async function stream(id: number, blob: Blob, target: Target, sink: Sink): Promise<void> {
  const started = performance.now();
  let lastPost = -Infinity;
  const post = (bytes: number) => {
    const seconds = (performance.now() - started) / 1000;
    const mbPerSec = seconds > 0 ? bytes / 1e6 / seconds : 0;
    const rows = sink.rows ? sink.rows() : null;
    scope.postMessage({ type: 'progress', id, progress: { target, rows, bytes, totalBytes: blob.size, mbPerSec } });
    lastPost = performance.now();
  };
  post(0);
  for (let start = 0; start < blob.size; start += CHUNK_BYTES) {
    const end = Math.min(start + CHUNK_BYTES, blob.size);
    const chunk = new Uint8Array(await blob.slice(start, end).arrayBuffer());
    sink.push(chunk);
    if (performance.now() - lastPost >= PROGRESS_INTERVAL_MS) post(end);
  }
  post(blob.size);
}

/**
 * Runs `attempt` with the encoding detected; when the engine finds the text is not UTF-8 after
 * all, tells the page and runs it once more with windows-1252 forced.
 */
async function withEncodingRetry<T>(
  id: number,
  target: Target,
  forced: boolean,
  attempt: (encoding: 'windows-1252' | null) => Promise<T>,
): Promise<T> {
  try {
    return await attempt(forced ? 'windows-1252' : null);
  } catch (e) {
    if (forced || toWireError(e).code !== 'encoding_mismatch') throw e;
    scope.postMessage({ type: 'encoding_retry', id, target, encoding: 'windows-1252' });
    return attempt('windows-1252');
  }
}

/** Reads the population table E into a `Population` (the caller frees it). */
function readPopulation(id: number, file: File, config: AuditConfig): Promise<Population> {
  return withEncodingRetry(id, 'population', false, async (encoding) => {
    const reference = new Reference(config, encoding);
    try {
      await stream(id, file, 'population', reference);
      return reference.finish();
    } finally {
      reference.free(); // finish() empties the reader but leaves its handle to be freed
    }
  });
}

async function audit(id: number, blob: Blob, config: AuditConfig, population: Population | null): Promise<Report> {
  const audit = new Audit(config);
  try {
    await stream(id, blob, 'table', audit);
    if (population) audit.set_population(population);
    return audit.finish() as Report;
  } finally {
    audit.free(); // finish() empties the audit but leaves its handle to be freed
  }
}

async function extract(id: number, blob: Blob, config: AuditConfig, classes: ClassValues[]): Promise<Extracted> {
  const extract = new Extract(config, classes);
  try {
    await stream(id, blob, 'table', extract);
    return extract.finish() as Extracted;
  } finally {
    extract.free();
  }
}

/** The config with the encoding the retry forces, if any. */
const withEncoding = (config: AuditConfig, encoding: 'windows-1252' | null): AuditConfig =>
  encoding ? { ...config, encoding } : config;

async function run(request: Request): Promise<void> {
  const { id, source, config } = request;
  let target: Target = 'table';
  let population: Population | null = null;
  try {
    await loadWasm();
    const blob = asBlob(source);
    const forced = config.encoding === 'windows-1252';
    switch (request.type) {
      case 'run': {
        // The population table first, so a problem in it shows before the long pass.
        if (request.pass === 'audit' && request.reference) {
          target = 'population';
          population = await readPopulation(id, request.reference, config);
          target = 'table';
        }
        const reference = request.pass === 'audit' ? request.reference : null;
        let first = true;
        const report = await withEncodingRetry(id, 'table', forced, async (encoding) => {
          // set_population empties the Population: a second attempt needs it read again.
          if (!first && population && reference) {
            population.free();
            population = null;
            target = 'population';
            population = await readPopulation(id, reference, config);
            target = 'table';
          }
          first = false;
          return audit(id, blob, withEncoding(config, encoding), population);
        });
        scope.postMessage({ type: 'result', id, pass: request.pass, report });
        break;
      }
      case 'extract': {
        const extracted = await withEncodingRetry(id, 'table', forced, (encoding) =>
          extract(id, blob, withEncoding(config, encoding), request.classes),
        );
        scope.postMessage({ type: 'extract_result', id, extracted });
        break;
      }
      default:
        assertNever(request);
    }
  } catch (e) {
    scope.postMessage({ type: 'error', id, target, error: toWireError(e) });
  } finally {
    population?.free();
  }
}

scope.addEventListener('message', (e) => {
  void run(e.data);
});

// Load the engine as soon as the worker starts, so the first run does not wait for it and no
// fetch happens once the user has picked a file.
loadWasm().then(
  () => scope.postMessage({ type: 'ready', version: version() }),
  (e: unknown) => scope.postMessage({ type: 'engine_failed', error: toWireError(e) }),
);
