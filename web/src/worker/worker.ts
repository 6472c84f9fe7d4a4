// The only code that touches wasm (with the reader workers it starts, part-worker.ts). The
// released file is read once, in parallel (parallel-read.ts), into a table kept here: the
// profile, the audit and every later change of settings (`recompute`) are audits of that
// table, none reads the file again. A file that cannot be read in parts (UTF-16, a problem in
// a part) or kept (a column a role needs has too many values) is streamed as before: read in
// the browser's chunks (file-chunks.ts) into the streaming `Audit`. Side tables (the original,
// the population table) are streamed into an `Original` / `Reference`; the drill-down reads
// the kept table (`KeptTable.extract`), or streams the file through an `Extract` when it is
// not kept; so do the per-record values (`KeptTable.per_record_csv`, else
// `Audit.for_records`). Progress is posted at most every 100 ms. Cancel is handled by the
// page: it terminates this worker, and with it its readers (a wasm call cannot be
// interrupted). A Parquet file of several row groups (issue 14) is read in runs of row groups
// by the reader workers, an Excel file or a Parquet file of one row group whole by one reader
// worker, into the kept table (`read_cells`), never streamed: every audit of it is an audit of
// that table. A panic of the third-party reader stops that reader worker only; the page shows
// its message.

import init, {
  Audit,
  Extract,
  KeptTable,
  Original,
  OriginalTable,
  Population,
  Reference,
  choose,
  fallback_encoding,
  file_format,
  on_progress,
  read_cells,
  sample_csv,
  sheet_names,
  shareable,
  version,
  warm_up,
} from '../../pkg/pseudolens_wasm.js';
import wasmUrl from '../../pkg/pseudolens_wasm_bg.wasm?url';
import { chunksFrom, headOf } from './file-chunks';
import { ReaderPool, probeStart, readerCount } from './parallel-read';
import type { CellsFormat } from '../shared/part-protocol';
import {
  PROGRESS_INTERVAL_MS,
  assertNever,
  type AuditProgress,
  type ChooseRequest,
  type ShareableRequest,
  type HeaderRequest,
  type ClassValues,
  type CspViolation,
  type Extracted,
  type RecomputeRequest,
  type ShownRequest,
  type Request,
  type Response,
  type Source,
  type TableRead,
  type Target,
} from '../shared/protocol';
import { toWireError, type AuditConfig, type MetricResult, type Report, type ShareableReport, type WireError } from '../shared/report';

/** The parts of DedicatedWorkerGlobalScope used here (the DOM lib types `self` as Window). */
interface WorkerScope {
  postMessage(message: Response): void;
  addEventListener(type: 'message', listener: (e: MessageEvent<Request>) => void): void;
  addEventListener(type: 'securitypolicyviolation', listener: (e: SecurityPolicyViolationEvent) => void): void;
}
const scope = globalThis as unknown as WorkerScope;

const forwardViolation = (violation: CspViolation) => scope.postMessage({ type: 'csp_violation', violation });
// Forward this worker's own CSP violations (and its readers'): the page's listeners never see
// them otherwise.
scope.addEventListener('securitypolicyviolation', (e) =>
  forwardViolation({ blockedURI: e.blockedURI, violatedDirective: e.violatedDirective, sourceFile: e.sourceFile }),
);

/**
 * The engine compiled once, here, and instantiated by this worker and every reader worker
 * (`ReaderPool`). Compiled in each worker, it was optimized by V8 in each: the functions the
 * warm-up made hot here were optimized again in the readers, during the first read and
 * audit, on the cores those needed (docs/decisions/wasm/one-compiled-engine.md).
 */
const engine: Promise<WebAssembly.Module> = fetch(wasmUrl).then((response) => {
  if (!response.ok) throw new Error(`The engine could not be loaded (${response.status} ${response.statusText}).`);
  // Compiled as it downloads where the server names the type, as wasm-bindgen's loader does.
  return response.headers.get('Content-Type')?.startsWith('application/wasm')
    ? WebAssembly.compileStreaming(response)
    : response.arrayBuffer().then((bytes) => WebAssembly.compile(bytes));
});

let ready: Promise<unknown> | null = null;
function loadWasm(): Promise<unknown> {
  if (!ready) ready = engine.then((module) => init({ module_or_path: module }));
  return ready;
}

/** The reader workers, started with this worker; null when they could not start. */
let pool: ReaderPool | null = new ReaderPool(readerCount(navigator.hardwareConcurrency), engine, forwardViolation);
const poolReady = pool.ready().catch(() => {
  pool = null;
});

/** The format of the released file, known once its profile pass starts. */
let releasedFormat: 'csv' | CellsFormat = 'csv';
/** The sheet of the released workbook to read (null: the first), and its sheets once read. */
let releasedSheet: string | null = null;
let releasedSheets: string[] = [];

/** The released file's table, read once and kept (null: none yet, or it could not be kept);
 * `hashed()` gives its SHA-256 (null: it could not be computed) once it is in the table: read
 * in parallel, the profile is shown without it, and every other report takes it (`withHash`).
 * Its first call starts the hash of a file hashed in one piece (`FileHash`): once the page has
 * drawn the profile (`shown`), or when a report needs it first; `forget` drops a hash never
 * asked for. */
let kept: { table: KeptTable; readers: number; ragged: AuditConfig['ragged']; hashed: () => Promise<string | null>; forget: () => void } | null = null;
/** How many times the released file has been read since the last profile pass began. */
let fileReads = 0;

function forgetKept(): void {
  kept?.forget();
  kept?.table.free();
  kept = null;
}

/** The sample is read exactly like a file: as a Blob read chunk by chunk. */
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

/** The format of a file: from its first bytes and its name (the engine's rule). */
async function formatOf(blob: Blob, name: string): Promise<'csv' | CellsFormat> {
  const start = (await headOf(blob)).subarray(0, 8);
  return file_format(start, name) as 'csv' | CellsFormat;
}

/** The format of the released file (the sample is CSV). */
const sourceFormat = (source: Source): Promise<'csv' | CellsFormat> => (source.kind === 'file' ? formatOf(source.file, source.file.name) : Promise.resolve('csv'));

/** The error of an engine that stopped inside a third-party reader (its wasm instance aborted). */
function readerStopped(format: CellsFormat, e: unknown): WireError {
  const what = format === 'parquet' ? 'The Parquet reader' : 'The Excel reader';
  const detail = e instanceof Error ? ` (${e.message})` : '';
  return { kind: 'internal', code: 'reader_stopped', message: `${what} stopped on this file, which may be corrupt or cut short${detail}.`, line: null, column: null };
}

/**
 * Reads a whole Parquet or Excel file into a table kept in memory: in a reader worker, so a
 * panic of the third-party reader stops that worker only; in this one when no reader is left
 * (a panic then stops this worker, which the page restarts).
 */
async function cellsTable(id: number, blob: Blob, config: AuditConfig, format: CellsFormat): Promise<{ table: KeptTable; parts: number }> {
  await poolReady;
  const post = progressPoster(id, blob, 'table');
  post(0, null, true);
  fileReads += 1;
  const inParts = pool && format === 'parquet' ? await pool.readParquet(blob, config) : null;
  let table = inParts?.table ?? null;
  if (!table && pool) table = await pool.readCells(blob, config, format, releasedSheet);
  if (!table) {
    const bytes = new Uint8Array(await blob.arrayBuffer());
    try {
      table = KeptTable.from_bytes(read_cells(config, bytes, format, releasedSheet));
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) throw readerStopped(format, e);
      throw e;
    }
  }
  post(blob.size, null, true);
  // The workbook read without a panic: listing its sheets here cannot stop this worker.
  if (format === 'xlsx') releasedSheets = sheet_names(new Uint8Array(await blob.arrayBuffer()));
  return { table, parts: inParts?.parts ?? 1 };
}

/** Something that absorbs a file chunk by chunk: Audit, Reference, Original or Extract. */
interface Sink {
  push(chunk: Uint8Array): void;
  rows?(): number;
}

/** A gate that opens at most every 100 ms, and whenever `now` says so. */
function throttle(): (now: boolean) => boolean {
  let last = -Infinity;
  return (now) => {
    const t = performance.now();
    if (!now && t - last < PROGRESS_INTERVAL_MS) return false;
    last = t;
    return true;
  };
}

/** Posts the progress of reading `blob`, at most every 100 ms (`force`: now). */
function progressPoster(id: number, blob: Blob, target: Target): (bytes: number, rows: number | null, force?: boolean) => void {
  const started = performance.now();
  const due = throttle();
  return (bytes, rows, force = false) => {
    if (!due(force)) return;
    const seconds = (performance.now() - started) / 1000;
    const mbPerSec = seconds > 0 ? bytes / 1e6 / seconds : 0;
    scope.postMessage({ type: 'progress', id, progress: { target, rows, bytes, totalBytes: blob.size, mbPerSec } });
  };
}

/**
 * The engine's progress hook for the audit of run `id` (`on_progress`): posts the rows
 * summarised and the steps of the measures, called from inside the wasm call (a worker's
 * message leaves at once), at most every 100 ms but at each phase's start and end.
 */
function auditProgressPoster(id: number): (phase: string, done: number, total: number) => void {
  const due = throttle();
  let lastPhase = '';
  return (phase, done, total) => {
    if (!due(phase !== lastPhase || done === total)) return;
    scope.postMessage({ type: 'audit_progress', id, progress: { phase: phase as AuditProgress['phase'], done, total } });
    lastPhase = phase;
  };
}

/** Reads `blob` chunk by chunk into `sink`, posting progress at most every 100 ms. */
async function stream(id: number, blob: Blob, target: Target, sink: Sink): Promise<void> {
  const post = progressPoster(id, blob, target);
  const rows = () => (sink.rows ? sink.rows() : null);
  if (target === 'table') fileReads += 1;
  post(0, rows(), true);
  let end = 0;
  for await (const chunk of chunksFrom(blob, 0)) {
    sink.push(chunk);
    end += chunk.byteLength;
    post(end, rows());
  }
  post(blob.size, rows(), true);
}

/**
 * Reads the released file once in parallel into the kept table (replacing any other); false
 * when it is better streamed (no readers, UTF-16, a problem in a part).
 */
async function keep(id: number, blob: Blob, config: AuditConfig): Promise<boolean> {
  forgetKept();
  if (releasedFormat !== 'csv') {
    const read = await cellsTable(id, blob, config, releasedFormat);
    kept = { table: read.table, readers: read.parts, ragged: config.ragged, hashed: () => Promise.resolve(null), forget: () => undefined };
    return true;
  }
  await poolReady;
  if (!pool) return false;
  const post = progressPoster(id, blob, 'table');
  post(0, 0, true);
  let started = false; // a read of the file once the probe let the parts start
  let found = 0;
  const read = await pool.read(blob, config, (bytes, rows) => {
    if (!started) fileReads += 1;
    started = true;
    found = rows;
    post(bytes, rows);
  });
  if (!read) return false;
  post(blob.size, found, true);
  const { table } = read;
  let hash: Promise<string | null> | null = null;
  const hashed = () =>
    (hash ??= read.hash.get().then((sha256) => {
      // Only for the table still kept (another file's read may have freed this one).
      if (kept?.table !== table) return sha256;
      if (sha256 !== null) table.set_sha256(sha256);
      scope.postMessage({ type: 'file_hash', id, sha256 } satisfies Response);
      return sha256;
    }));
  kept = { table, readers: read.parts, ragged: config.ragged, hashed, forget: () => read.hash.forget() };
  return true;
}

/** Why the file is streamed when it could not be read in parts. */
const NOT_IN_PARTS = 'the file could not be read in parts (UTF-16 text, a header that was not found, or a problem in the file)';

/**
 * Runs `attempt` with the encoding detected; when the engine says the file must be read again
 * in another encoding (its `fallback_encoding`: windows-1252 when the text is not UTF-8 after
 * all), tells the page and runs it once more with that encoding forced.
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
    const fallback = forced ? undefined : fallback_encoding(toWireError(e).code);
    if (fallback !== 'windows-1252') throw e;
    scope.postMessage({ type: 'encoding_retry', id, target, encoding: fallback });
    return attempt(fallback);
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
    const format = await formatOf(file, file.name);
    if (format !== 'csv') {
      const what = format === 'parquet' ? 'a Parquet file' : 'an Excel workbook';
      throw { kind: 'input', code: 'side_table_not_csv', message: `this file is ${what}; the ${target === 'table' ? 'released' : target} table is read as CSV only: save it as CSV`, line: null, column: null } satisfies WireError;
    }
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

/** The side tables an audit uses (shared with it, not copied). */
interface Sides {
  population: Population | null;
  original: OriginalTable | null;
  /** The attacks' control table, read like the original. */
  control: OriginalTable | null;
}

/** Gives a kept table exactly these side tables (those of an earlier audit are dropped). */
function giveSides(table: KeptTable, sides: Sides): void {
  table.clear_sides();
  if (sides.original) table.set_original(sides.original);
  if (sides.population) table.set_population(sides.population);
  if (sides.control) table.set_control(sides.control);
}

/** A side table read once, kept while the same file is given with the same settings. */
interface KeptSide<T> {
  file: File;
  settings: string;
  table: T;
}

/** The side tables last read, and the targets that had to be read as windows-1252. */
const sideCache: { original: KeptSide<OriginalTable> | null; population: KeptSide<Population> | null; control: KeptSide<OriginalTable> | null } = {
  original: null,
  population: null,
  control: null,
};
const sideForced = new Set<Target>();

function forgetSides(): void {
  sideCache.original = dropSide(sideCache.original);
  sideCache.population = dropSide(sideCache.population);
  sideCache.control = dropSide(sideCache.control);
  sideForced.clear();
}

/** The same file (a File posted twice arrives as two objects) read with the same settings. */
const sameSide = <T>(side: KeptSide<T> | null, file: File, settings: string): side is KeptSide<T> =>
  side !== null && side.settings === settings && side.file.name === file.name && side.file.size === file.size && side.file.lastModified === file.lastModified;

/** Frees a kept side table. */
function dropSide<T extends { free(): void }>(side: KeptSide<T> | null): null {
  side?.table.free();
  return null;
}

/**
 * The side tables of an audit with `config`: read first, so a problem in one shows before the
 * long pass, and only once while the same files are given with the same settings (a second
 * attempt as windows-1252, every candidate of a comparison, every recompute).
 */
async function sidesFor(id: number, config: AuditConfig, original: File | null, reference: File | null, control: File | null, onTarget: (t: Target) => void): Promise<Sides> {
  const settings = JSON.stringify(config);
  if (!original || !sameSide(sideCache.original, original, settings)) sideCache.original = dropSide(sideCache.original);
  if (original && !sideCache.original) {
    onTarget('original');
    const table = await readSide(id, original, 'original', sideForced, (e) => new Original(config, e));
    sideCache.original = { file: original, settings, table };
  }
  if (!reference || !sameSide(sideCache.population, reference, settings)) sideCache.population = dropSide(sideCache.population);
  if (reference && !sideCache.population) {
    onTarget('population');
    const table = await readSide(id, reference, 'population', sideForced, (e) => new Reference(config, e));
    sideCache.population = { file: reference, settings, table };
  }
  if (!control || !sameSide(sideCache.control, control, settings)) sideCache.control = dropSide(sideCache.control);
  if (control && !sideCache.control) {
    onTarget('control');
    const table = await readSide(id, control, 'control', sideForced, (e) => new Original(config, e));
    sideCache.control = { file: control, settings, table };
  }
  onTarget('table');
  return { original: sideCache.original?.table ?? null, population: sideCache.population?.table ?? null, control: sideCache.control?.table ?? null };
}

/** The streaming audit: the file read once more, chunk by chunk. */
async function streamAudit(id: number, blob: Blob, config: AuditConfig, sides: Sides): Promise<Report> {
  const audit = new Audit(config);
  try {
    if (sides.original) audit.set_original(sides.original); // before the first push
    if (sides.control) audit.set_control(sides.control);
    await stream(id, blob, 'table', audit);
    if (sides.population) audit.set_population(sides.population);
    return audit.finish() as Report;
  } finally {
    audit.free(); // finish() empties the audit but leaves its handle to be freed
  }
}

/** Why the released file is not kept (null: it is, or it has not been read yet). */
let notKept: string | null = null;

/**
 * The report of `config` on the released file: an audit of the kept table (read now, in
 * parallel, when `mayRead` and it is not kept yet), else a streaming read of the file.
 */
async function auditTable(id: number, blob: Blob, config: AuditConfig, sides: Sides, mayRead: boolean, hashed: boolean): Promise<{ report: Report; read: Omit<TableRead, 'seconds' | 'fileReads' | 'sheets'> }> {
  if (kept && kept.ragged !== config.ragged && releasedFormat === 'csv') forgetKept();
  if (!kept && (mayRead || releasedFormat !== 'csv') && notKept === null && !(await keep(id, blob, config))) notKept = NOT_IN_PARTS;
  let why = notKept ?? 'the table was not kept in this worker';
  // The hash may still be under way (it starts once the profile is drawn): the audit runs
  // beside it, and the report takes it once both are done.
  const hash = kept && hashed ? kept.hashed() : null;
  if (kept) {
    const table = kept.table;
    const readers = kept.readers;
    giveSides(table, sides);
    try {
      return { report: await withHash(await auditKept(table, config), hash), read: { kept: true, why: null, readers } };
    } catch (e) {
      const error = toWireError(e);
      if (error.code !== 'not_retained') throw e;
      why = error.message;
    }
    if (releasedFormat !== 'csv') {
      // Not streamed: read again, keeping every value of the columns these roles need.
      await keep(id, blob, config);
      const again = kept!.table;
      giveSides(again, sides);
      return { report: await auditKept(again, config), read: { kept: true, why: null, readers: 1 } };
    }
  }
  return { report: await streamAudit(id, blob, config, sides), read: { kept: false, why, readers: 1 } };
}

/** `report` with the file's SHA-256 from `hash` when the table had none yet at its start. */
async function withHash(report: Report, hash: Promise<string | null> | null): Promise<Report> {
  const sha256 = hash && (await hash);
  if (sha256 && report.input.sha256 === null) report.input.sha256 = sha256;
  return report;
}

/**
 * The audit of the kept table, in steps: its attribution lattice (the largest piece of an
 * audit of the classes) goes to an idle reader worker, which computes it while this worker
 * computes the other metrics; here when no reader is left or it failed. The same report
 * either way. The pending audit holds nothing of the table, which another request may free
 * meanwhile.
 */
async function auditKept(table: KeptTable, config: AuditConfig): Promise<Report> {
  const audit = table.start_audit(config);
  try {
    const lattice = audit.lattice();
    const remote = lattice && pool ? pool.attributionStats(lattice) : null;
    audit.finish_others();
    return audit.complete((remote && (await remote)) ?? undefined) as Report;
  } finally {
    audit.free();
  }
}

/** The drill-down from the kept table (no read of the file); null when there is none or a
 * column it needs was not kept (then the file is streamed). */
function keptExtract(config: AuditConfig, classes: ClassValues[]): Extracted | null {
  if (!kept || kept.ragged !== config.ragged) return null;
  try {
    return kept.table.extract(config, classes) as Extracted;
  } catch (e) {
    if (toWireError(e).code !== 'not_retained') throw e;
    return null;
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

/** The per-record CSV from the kept table; null when there is none or a column it needs was
 * not kept (then the file is read again). */
function keptPerRecord(config: AuditConfig): string | null {
  if (!kept || kept.ragged !== config.ragged) return null;
  try {
    return kept.table.per_record_csv(config);
  } catch (e) {
    if (toWireError(e).code !== 'not_retained') throw e;
    return null;
  }
}

/** The per-record CSV from a second read of the file. */
async function streamPerRecord(id: number, blob: Blob, config: AuditConfig): Promise<string> {
  const audit = Audit.for_records(config);
  try {
    await stream(id, blob, 'table', audit);
    return audit.finish_per_record();
  } finally {
    audit.free();
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

/** The core's report safe to share: no file is read, nothing is kept. */
async function runShareable(request: ShareableRequest): Promise<void> {
  const { id } = request;
  try {
    await loadWasm();
    const report = shareable(request.report, request.min_count) as ShareableReport;
    scope.postMessage({ type: 'shareable_report', id, report, error: null });
  } catch (e) {
    scope.postMessage({ type: 'shareable_report', id, report: null, error: toWireError(e) });
  }
}

/**
 * Audits the released file `blob` against the side tables, with the encoding the engine
 * settles on; `mayRead`: the file may be read in parallel to keep its table; `hashed`: the
 * report needs the file's SHA-256 (every report but the profile's). Returns the report with
 * how it was read and how long it took.
 */
async function auditRelease(
  id: number,
  blob: Blob,
  config: AuditConfig,
  original: File | null,
  reference: File | null,
  control: File | null,
  mayRead: boolean,
  hashed: boolean,
  onTarget: (t: Target) => void,
): Promise<{ report: Report; read: TableRead }> {
  const started = performance.now();
  const { report, read } = await withAuditProgress(id, () =>
    withEncodingRetry(id, 'table', config.encoding === 'windows-1252', async (encoding) => {
      // Read as windows-1252 after all: the parts may have failed for the encoding alone.
      if (encoding !== (config.encoding ?? null)) notKept = null;
      const sides = await sidesFor(id, config, original, reference, control, onTarget);
      return auditTable(id, blob, withEncoding(config, encoding), sides, mayRead, hashed);
    }),
  );
  return { report, read: { ...read, fileReads, seconds: (performance.now() - started) / 1000, sheets: releasedSheets } };
}

/** Runs `work` with the engine's audit progress posted for run `id`. */
async function withAuditProgress<T>(id: number, work: () => Promise<T>): Promise<T> {
  on_progress(auditProgressPoster(id));
  try {
    return await work();
  } finally {
    on_progress(undefined);
  }
}

/** The column names of a side table, read by the core as it will read them in the audit. */
async function runHeader(request: HeaderRequest): Promise<void> {
  let header: string[] | null = null;
  try {
    await loadWasm();
    header = (await probeStart(request.file, { quasi_identifiers: [] }))?.header ?? null;
  } catch {
    // Not readable as a table: the audit will say why when it reads the file.
  }
  scope.postMessage({ type: 'header', id: request.id, header });
}

async function run(request: Exclude<Request, ChooseRequest | ShareableRequest | HeaderRequest | RecomputeRequest | ShownRequest>): Promise<void> {
  const { id, config } = request;
  let target: Target = 'table';
  const onTarget = (t: Target) => {
    target = t;
  };
  try {
    await loadWasm();
    switch (request.type) {
      case 'run': {
        if (request.pass === 'profile') {
          // A new file: nothing of the last one is kept.
          forgetKept();
          forgetSides();
          notKept = null;
          fileReads = 0;
          releasedFormat = await sourceFormat(request.source);
          releasedSheet = request.source.kind === 'file' ? (request.source.sheet ?? null) : null;
          releasedSheets = [];
        }
        const { original, reference, control } = request.pass === 'audit' ? request : { original: null, reference: null, control: null };
        const { report, read } = await auditRelease(id, asBlob(request.source), config, original, reference, control, true, request.pass !== 'profile', onTarget);
        scope.postMessage({ type: 'result', id, pass: request.pass, report, read });
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
          const format = await formatOf(file, file.name);
          const { report } = await withAuditProgress(id, () =>
            withEncodingRetry(id, 'table', own.encoding === 'windows-1252', async (encoding) => {
              const sides = await sidesFor(id, config, request.original, request.reference, request.control, onTarget);
              if (format === 'csv') return { report: await streamAudit(id, file, withEncoding(own, encoding), sides) };
              const { table } = await cellsTable(id, file, config, format);
              try {
                giveSides(table, sides);
                return { report: table.audit(config) as Report };
              } finally {
                table.free();
              }
            }),
          );
          reports.push(report);
        }
        scope.postMessage({ type: 'compare_result', id, reports });
        break;
      }
      case 'extract': {
        const blob = asBlob(request.source);
        const fromKept = keptExtract(config, request.classes);
        if (!fromKept && releasedFormat !== 'csv') {
          throw { kind: 'input', code: 'not_retained', message: 'the records of this class cannot be listed: the table was not kept in memory', line: null, column: null } satisfies WireError;
        }
        const extracted =
          fromKept ??
          (await withEncodingRetry(id, 'table', config.encoding === 'windows-1252', (encoding) =>
            extract(id, blob, withEncoding(config, encoding), request.classes),
          ));
        scope.postMessage({ type: 'extract_result', id, extracted });
        break;
      }
      case 'per_record': {
        const blob = asBlob(request.source);
        const fromKept = keptPerRecord(config);
        if (fromKept === null && releasedFormat !== 'csv') {
          throw { kind: 'input', code: 'not_retained', message: 'the per-record values cannot be listed: the table was not kept in memory', line: null, column: null } satisfies WireError;
        }
        const csv =
          fromKept ??
          (await withEncodingRetry(id, 'table', config.encoding === 'windows-1252', (encoding) => streamPerRecord(id, blob, withEncoding(config, encoding))));
        const lines = csv.split('\n').length - 2; // the header, and the last line end
        scope.postMessage({ type: 'per_record_result', id, csv, records: Math.max(lines, 0), kept: fromKept !== null });
        break;
      }
      default:
        assertNever(request);
    }
  } catch (e) {
    scope.postMessage({ type: 'error', id, target, error: toWireError(e) });
  }
}

/** The latest recompute not yet started (older ones are dropped unanswered). */
let latestRecompute: RecomputeRequest | null = null;
let recomputing = false;

/** Lets the messages that arrived during a wasm call in: a newer recompute supersedes. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Answers the latest recompute from the kept table, one at a time: a request arriving while
 * one runs waits, replacing any other waiting; a result is posted only if no newer request
 * came in meanwhile (a wasm call cannot be interrupted, and the table must not be lost).
 */
async function recompute(request: RecomputeRequest): Promise<void> {
  latestRecompute = request;
  if (recomputing) return;
  recomputing = true;
  try {
    await loadWasm();
    for (await nextTask(); latestRecompute; await nextTask()) {
      const { id, source, config, original, reference, control } = latestRecompute;
      latestRecompute = null;
      let target: Target = 'table';
      try {
        const answer = await auditRelease(id, asBlob(source), config, original, reference, control, false, true, (t) => {
          target = t;
        });
        if (!latestRecompute) scope.postMessage({ type: 'recomputed', id, ...answer });
      } catch (e) {
        if (!latestRecompute) scope.postMessage({ type: 'recompute_error', id, target, error: toWireError(e) });
      }
    }
  } finally {
    recomputing = false;
  }
}

scope.addEventListener('message', (e) => {
  const request = e.data;
  if (request.type === 'choose') void runChoose(request);
  else if (request.type === 'shareable') void runShareable(request);
  else if (request.type === 'header') void runHeader(request);
  else if (request.type === 'recompute') void recompute(request);
  else if (request.type === 'shown') {
    // The profile is on screen: the file's hash starts, and the memory of the first audit is
    // taken while the user picks the roles.
    void kept?.hashed();
    kept?.table.prepare_audit();
  }
  else void run(request);
});

// Load the engine and start the readers as soon as the worker starts, so the first run does
// not wait for them and no fetch happens once the user has picked a file; the engine audits a
// small generated table once first, so the first audit of a file runs optimized code.
Promise.all([loadWasm().then(() => warm_up()), poolReady]).then(
  () => scope.postMessage({ type: 'ready', version: version() }),
  (e: unknown) => scope.postMessage({ type: 'engine_failed', error: toWireError(e) }),
);
