// The kept table: the released file read once (in parallel by the reader workers, or a
// Parquet or Excel file whole) into a table kept in this worker, which the profile, the audit,
// every recompute, the drill-down and the per-record values read instead of the file.

import { bootstrap_part } from '../../pkg/pseudolens_wasm.js';
import type { Audited, KeptTable } from '../../pkg/pseudolens_full.js';
import type { CellsFormat } from '../shared/part-protocol';
import type { ClassValues, Extracted, Response } from '../shared/protocol';
import { toWireError, type AuditConfig, type WireError } from '../shared/report';
import { poolReady, readers } from './engine';
import { wasm } from './which-engine';
import { progressPoster } from './progress';
import { loadReaders } from './readers';
import { released } from './released';
import { post } from './scope';

/** The released file's table, read once and kept (null: none yet, or it could not be kept);
 * `hashed()` gives its SHA-256 (null: it could not be computed) once it is in the table: read
 * in parallel, the profile is shown without it, and every other report takes it (`withHash`).
 * Its first call starts the hash of a file hashed in one piece (`FileHash`): once the page has
 * drawn the profile (`shown`), or when a report needs it first; `forget` drops a hash never
 * asked for. */
export let kept: { table: KeptTable; readers: number; ragged: AuditConfig['ragged']; hashed: () => Promise<string | null>; forget: () => void } | null = null;

export function forgetKept(): void {
  kept?.forget();
  kept?.table.free();
  kept = null;
}

/** The error of an engine that stopped inside a third-party reader (its wasm instance aborted). */
function readerStopped(format: CellsFormat, e: unknown): WireError {
  const what = format === 'parquet' ? 'The Parquet reader' : 'The Excel reader';
  const detail = e instanceof Error ? ` (${e.message})` : '';
  return {
    kind: 'internal',
    code: 'reader_stopped',
    message: `${what} stopped on this file, which may be corrupt or cut short${detail}.`,
    line: null,
    column: null,
  };
}

/**
 * Reads a whole Parquet or Excel file into a table kept in memory: in a reader worker, so a
 * panic of the third-party reader stops that worker only; in this one when no reader is left
 * (a panic then stops this worker, which the page restarts).
 */
export async function cellsTable(id: number, blob: Blob, config: AuditConfig, format: CellsFormat): Promise<{ table: KeptTable; parts: number }> {
  await poolReady;
  const pool = readers();
  const progress = progressPoster(id, blob, 'table');
  progress(0, null, true);
  released.fileReads += 1;
  const inParts = pool && format === 'parquet' ? await pool.readParquet(blob, config) : null;
  let table = inParts?.table ?? null;
  if (!table && pool) table = await pool.readCells(blob, config, format, released.sheet);
  if (!table) {
    const { read_cells } = await loadReaders();
    const bytes = new Uint8Array(await blob.arrayBuffer());
    try {
      table = wasm().KeptTable.from_bytes(read_cells(config, bytes, format, released.sheet));
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) throw readerStopped(format, e);
      throw e;
    }
  }
  progress(blob.size, null, true);
  // The workbook read without a panic: listing its sheets here cannot stop this worker.
  if (format === 'xlsx') {
    const { sheet_names } = await loadReaders();
    released.sheets = sheet_names(new Uint8Array(await blob.arrayBuffer()));
  }
  return { table, parts: inParts?.parts ?? 1 };
}

/**
 * Reads the released file once in parallel into the kept table (replacing any other); false
 * when it is better streamed (no readers, UTF-16, a problem in a part).
 */
export async function keep(id: number, blob: Blob, config: AuditConfig): Promise<boolean> {
  forgetKept();
  if (released.format !== 'csv') {
    const read = await cellsTable(id, blob, config, released.format);
    kept = { table: read.table, readers: read.parts, ragged: config.ragged, hashed: () => Promise.resolve(null), forget: () => undefined };
    return true;
  }
  await poolReady;
  const pool = readers();
  if (!pool) return false;
  const progress = progressPoster(id, blob, 'table');
  progress(0, 0, true);
  let started = false; // a read of the file once the probe let the parts start
  let found = 0;
  const read = await pool.read(blob, config, (bytes, rows) => {
    if (!started) released.fileReads += 1;
    started = true;
    found = rows;
    progress(bytes, rows);
  });
  if (!read) return false;
  progress(blob.size, found, true);
  let hash: Promise<string | null> | null = null;
  const entry: NonNullable<typeof kept> = {
    table: read.table,
    readers: read.parts,
    ragged: config.ragged,
    hashed: () =>
      (hash ??= read.hash.get().then((sha256) => {
        // Only for the table still kept (another file's read may have freed this one); into
        // the engine it is in now (the full engine's, once it moved there).
        if (kept !== entry) return sha256;
        if (sha256 !== null) entry.table.set_sha256(sha256);
        post({ type: 'file_hash', id, sha256 } satisfies Response);
        return sha256;
      })),
    forget: () => read.hash.forget(),
  };
  kept = entry;
  return true;
}

/** The report `audited` with the file's SHA-256 from `hash` when the table had none yet at its
 * start. */
export async function withHash(audited: Audited, hash: Promise<string | null> | null): Promise<Audited> {
  const sha256 = hash && (await hash);
  if (sha256) audited.set_sha256(sha256);
  return audited;
}

/**
 * The audit of the kept table, in steps: its attribution lattice (the largest piece of an
 * audit of the classes) goes to an idle reader worker, which computes it while this worker
 * computes the other metrics; here when no reader is left or it failed. The parts of its
 * bootstrap (most of the other metrics when the classes are many and small) are taken one by
 * one by that reader once the lattice is done and by this worker once the other metrics are,
 * so that no more workers compute than there are cores; a part no one computed, `complete`
 * computes. The same report either way. The pending audit holds nothing of the table, which
 * another request may free meanwhile.
 */
export async function auditKept(table: KeptTable, config: AuditConfig): Promise<Audited> {
  const audit = table.start_audit(config);
  try {
    const lattice = audit.lattice();
    const bootstrap = audit.bootstrap();
    const parts = audit.bootstrap_parts();
    let next = 0;
    const take = () => (next < parts ? next++ : null);
    const pool = readers();
    const remote = lattice && pool ? pool.attributionStats(lattice) : null;
    const replicates = bootstrap && pool ? pool.bootstrapParts(bootstrap, take) : null;
    audit.finish_others();
    if (bootstrap && replicates) {
      for (let part = take(); part !== null; part = take()) {
        audit.add_replicates(bootstrap_part(bootstrap, part));
        // The readers' answers come in between: one that is done takes the next part.
        await nextTask();
      }
      for (const part of await replicates) audit.add_replicates(part);
    }
    return audit.complete((remote && (await remote)) ?? undefined);
  } finally {
    audit.free();
  }
}

/** Resolves at the next task, once the messages already waiting have been handled (a
 * `setTimeout` would wait 4 ms once nested). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

/** The drill-down from the kept table (no read of the file); null when there is none or a
 * column it needs was not kept (then the file is streamed). */
export function keptExtract(config: AuditConfig, classes: ClassValues[]): Extracted | null {
  if (!kept || kept.ragged !== config.ragged) return null;
  try {
    return kept.table.extract(config, classes) as Extracted;
  } catch (e) {
    if (toWireError(e).code !== 'not_retained') throw e;
    return null;
  }
}

/** The per-record CSV from the kept table; null when there is none or a column it needs was
 * not kept (then the file is read again). */
export function keptPerRecord(config: AuditConfig): string | null {
  if (!kept || kept.ragged !== config.ragged) return null;
  try {
    return kept.table.per_record_csv(config);
  } catch (e) {
    if (toWireError(e).code !== 'not_retained') throw e;
    return null;
  }
}
