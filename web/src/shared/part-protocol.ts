// The messages between the audit worker (worker.ts, which keeps the table) and its reader
// workers (part-worker.ts): read one byte range of a file into a partial table, read a whole
// Parquet or Excel file into a table, read a Parquet file's directory or a run of its row
// groups into a partial table, or hash the whole file in order; and, during an audit of the kept
// table, compute its attribution lattice (issue 12: the readers are idle then). A part comes back
// as the bytes of the stored form, in a transferred ArrayBuffer (no copy, no SharedArrayBuffer);
// so do the lattice and its statistics.

import type { Probe } from './contract';
import type { CspViolation } from './protocol';
import type { AuditConfig, WireError } from './report';


/** One byte range of a file: records starting in [start, end) (end = Infinity: to the end). */
export interface Span {
  start: number;
  end: number;
  /** A record starts at `start` (else the reader skips to the first line end it meets). */
  exact: boolean;
}

export type PartRequest =
  | { type: 'part'; id: number; blob: Blob; config: AuditConfig; probe: Probe; span: Span }
  | { type: 'hash'; id: number; blob: Blob }
  /** A whole Parquet or Excel file (its directory is at its end) read into a table. */
  | { type: 'cells'; id: number; blob: Blob; config: AuditConfig; format: CellsFormat; sheet: string | null }
  /** A Parquet file's footer and where its row groups lie (read here, not in the audit
   * worker: a panic of the Parquet reader then stops this reader only). */
  | { type: 'groups'; id: number; blob: Blob }
  /** Row groups `first .. first + count` of a Parquet file, from its footer and the bytes
   * [start, end) that hold those groups. */
  | { type: 'parquet'; id: number; blob: Blob; config: AuditConfig; footer: Uint8Array; start: number; end: number; first: number; count: number }
  /** The statistics of every subset of an audit's attribution lattice (`PendingAudit.lattice`). */
  | { type: 'lattice'; id: number; lattice: Uint8Array };

/** The formats read as cells rather than CSV text (issue 14). */
export type CellsFormat = 'parquet' | 'xlsx';

export type PartResponse =
  /** Sent once when the reader's wasm module is loaded (or failed to load). */
  | { type: 'ready' }
  | { type: 'engine_failed'; error: WireError }
  /** Bytes of its range read so far and rows found. */
  | { type: 'progress'; id: number; bytes: number; rows: number }
  | { type: 'part'; id: number; table: ArrayBuffer }
  | { type: 'hash'; id: number; hex: string }
  /** The footer and, per row group, its rows, first byte and end byte (flat). */
  | { type: 'groups'; id: number; footer: Uint8Array; groups: number[] }
  /** The lattice's statistics, for `PendingAudit.complete`. */
  | { type: 'stats'; id: number; stats: Uint8Array }
  | { type: 'failed'; id: number; error: WireError }
  /** The reader's engine stopped (a panic in a third-party reader aborts its WebAssembly
   * instance): this reader is closed. */
  | { type: 'stopped'; id: number; error: WireError }
  | { type: 'csp_violation'; violation: CspViolation };
