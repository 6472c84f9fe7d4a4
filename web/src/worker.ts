// The only code that touches wasm. It reads the input in 1 MiB slices, pushes each slice into
// the streaming `Audit` (after reading the original table, if any, into an `Original` and the
// population table, if any, into a `Reference`), reports progress at most every 100 ms and
// posts the final Report; the drill-down pass streams the same file through an `Extract`.
// Cancel is handled by the page: it terminates this worker (a wasm call cannot be interrupted).

import init, { Audit, Extract, Original, OriginalTable, Population, Reference, choose, sample_csv, version } from '../pkg/pseudolens_wasm.js';
import wasmUrl from '../pkg/pseudolens_wasm_bg.wasm?url';
import {
  CHUNK_BYTES,
  PROGRESS_INTERVAL_MS,
  assertNever,
  type ChooseRequest,
  type ClassValues,
  type Extracted,
  type Request,
  type Response,
  type Source,
  type Target,
} from './protocol';
import { toWireError, type AuditConfig, type MetricResult, type Report } from './report';

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

/** Something that absorbs a file chunk by chunk: Audit, Reference, Original or Extract. */
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

/** A reader of a table beside the released one: `Reference` (population) or `Original`. */
interface SideReader<T> extends Sink {
  finish(): T;
  free(): void;
}

/**
 * Reads a side table into its finished handle (the caller frees it). `forced` remembers, per
 * target, that a file had to be read as windows-1252, so a second read starts with it.
 */
function readSide<T>(
  id: number,
  file: File,
  target: Target,
  forced: Set<Target>,
  open: (encoding: 'windows-1252' | null) => SideReader<T>,
): Promise<T> {
  return withEncodingRetry(id, target, forced.has(target), async (encoding) => {
    if (encoding) forced.add(target);
    const reader = open(encoding);
    try {
      await stream(id, file, target, reader);
      return reader.finish();
    } finally {
      reader.free(); // finish() empties the reader but leaves its handle to be freed
    }
  });
}

/** The side tables of one request, read once; each Audit copies what it is given. */
interface Sides {
  population: Population | null;
  original: OriginalTable | null;
}

function freeSides(sides: Sides): void {
  sides.population?.free();
  sides.original?.free();
  sides.population = null;
  sides.original = null;
}

async function audit(id: number, blob: Blob, config: AuditConfig, sides: Sides): Promise<Report> {
  const audit = new Audit(config);
  try {
    if (sides.original) audit.set_original(sides.original); // before the first push
    await stream(id, blob, 'table', audit);
    if (sides.population) audit.set_population(sides.population);
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

/** The core's choice among audited candidates: no file is read, nothing is kept. */
async function runChoose(request: ChooseRequest): Promise<void> {
  const { id } = request;
  try {
    await loadWasm();
    const metrics = choose(request.quasi_identifiers, request.candidates, request.params) as MetricResult[];
    scope.postMessage({ type: 'choice', id, metrics, error: null });
  } catch (e) {
    scope.postMessage({ type: 'choice', id, metrics: null, error: toWireError(e) });
  }
}

async function run(request: Exclude<Request, ChooseRequest>): Promise<void> {
  const { id, config } = request;
  let target: Target = 'table';
  const sides: Sides = { population: null, original: null };
  const sideForced = new Set<Target>();
  /**
   * Audits `blob` against the side tables. They are read first, so a problem in one shows
   * before the long pass, and only once: a second attempt (the released file as
   * windows-1252) and every candidate of a comparison reuse them.
   */
  const auditAgainstSides = (blob: Blob, releaseConfig: AuditConfig, original: File | null, reference: File | null): Promise<Report> =>
    withEncodingRetry(id, 'table', releaseConfig.encoding === 'windows-1252', async (encoding) => {
      if (original && !sides.original) {
        target = 'original';
        sides.original = await readSide(id, original, 'original', sideForced, (e) => new Original(config, e));
      }
      if (reference && !sides.population) {
        target = 'population';
        sides.population = await readSide(id, reference, 'population', sideForced, (e) => new Reference(config, e));
      }
      target = 'table';
      return audit(id, blob, withEncoding(releaseConfig, encoding), sides);
    });
  try {
    await loadWasm();
    switch (request.type) {
      case 'run': {
        const { original, reference } = request.pass === 'audit' ? request : { original: null, reference: null };
        const report = await auditAgainstSides(asBlob(request.source), config, original, reference);
        scope.postMessage({ type: 'result', id, pass: request.pass, report });
        break;
      }
      case 'compare': {
        // Each candidate with the same roles and settings against the side tables, read once.
        // Only the first candidate was profiled, so the others detect their own encoding.
        const reports: Report[] = [];
        const total = request.candidates.length;
        for (const [index, file] of request.candidates.entries()) {
          scope.postMessage({ type: 'candidate', id, index, total, name: file.name });
          const own = index === 0 ? config : { ...config, encoding: null };
          reports.push(await auditAgainstSides(file, own, request.original, request.reference));
        }
        scope.postMessage({ type: 'compare_result', id, reports });
        break;
      }
      case 'extract': {
        const blob = asBlob(request.source);
        const extracted = await withEncodingRetry(id, 'table', config.encoding === 'windows-1252', (encoding) =>
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
    freeSides(sides);
  }
}

scope.addEventListener('message', (e) => {
  const request = e.data;
  void (request.type === 'choose' ? runChoose(request) : run(request));
});

// Load the engine as soon as the worker starts, so the first run does not wait for it and no
// fetch happens once the user has picked a file.
loadWasm().then(
  () => scope.postMessage({ type: 'ready', version: version() }),
  (e: unknown) => scope.postMessage({ type: 'engine_failed', error: toWireError(e) }),
);
