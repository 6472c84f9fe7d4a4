// The messages between the audit worker (worker.ts, which keeps the table) and its reader
// workers (part-worker.ts): read one byte range of a file into a partial table, read a whole
// Parquet or Excel file into a table, read a Parquet file's directory or a run of its row
// groups into a partial table, or hash the whole file in order; and, during an audit of the kept
// table, compute its attribution lattice (issue 12: the readers are idle then) and parts of its
// bootstrap (issue 40). A part comes back as the bytes of the stored form, in a transferred
// ArrayBuffer (no copy, no SharedArrayBuffer); so do the lattice and its statistics, and a part
// of the bootstrap's replicates (the bootstrap itself is copied: it goes with each part asked).
// Each reader also has a port to the hasher (`ChunkCopy`):
// the chunks of a part go on to the hasher once pushed, so that a file hashed in one piece is
// read once, not twice.

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
  /** The engine compiled once by the audit worker (sent first): every worker instantiates
   * the same module, so V8 optimizes a function once for all of them. */
  | { type: 'engine'; id: number; module: WebAssembly.Module }
  /** `gather`: the hasher's gathering the chunks read go on to (see `ChunkCopy`), or null. */
  | { type: 'part'; id: number; blob: Blob; config: AuditConfig; probe: Probe; span: Span; gather: number | null }
  /** The file's SHA-256: read in order by the hasher (`gather` null), or put together from the
   * readers' chunks of gathering `gather` and hashed once every byte has come. */
  | { type: 'hash'; id: number; blob: Blob; gather: number | null }
  /** Gathering `gather` will not be completed (the read goes on one thread): drop its bytes
   * and fail its hash request. */
  | { type: 'forget'; id: number; gather: number }
  /** A channel from a reader to the hasher (each end sent once, when the pool starts): the
   * reader sends its chunks on it (`side` 'reader'), the hasher listens (`side` 'hasher'). */
  | { type: 'port'; id: number; port: MessagePort; side: 'reader' | 'hasher' }
  /** A whole Parquet or Excel file (its directory is at its end) read into a table. The
   * requests that read Parquet or Excel carry the readers' module (`readers`), compiled by the
   * audit worker once such a file is chosen; the reader instantiates it at the first. */
  | { type: 'cells'; id: number; readers: WebAssembly.Module; blob: Blob; config: AuditConfig; format: CellsFormat; sheet: string | null }
  /** A Parquet file's footer and where its row groups lie (read here, not in the audit
   * worker: a panic of the Parquet reader then stops this reader only). */
  | { type: 'groups'; id: number; readers: WebAssembly.Module; blob: Blob }
  /** Row groups `first .. first + count` of a Parquet file, from its footer and the bytes
   * [start, end) that hold those groups. */
  | {
      type: 'parquet';
      id: number;
      readers: WebAssembly.Module;
      blob: Blob;
      config: AuditConfig;
      footer: Uint8Array;
      start: number;
      end: number;
      first: number;
      count: number;
    }
  /** The statistics of every subset of an audit's attribution lattice (`PendingAudit.lattice`). */
  | { type: 'lattice'; id: number; lattice: Uint8Array }
  /** The replicates of one part of an audit's bootstrap (`PendingAudit.bootstrap`). */
  | { type: 'bootstrap'; id: number; bootstrap: Uint8Array; part: number };

/** Files up to this size are hashed in one piece by the browser's SHA-256 (Web Crypto: machine
 * code with the CPU's SHA instructions, about 10x the wasm hash), put together from the readers'
 * chunks; Web Crypto has no streaming digest, so larger files are hashed by the wasm `Hasher` as
 * the hasher reads them in order, and so is every file where Web Crypto is missing (a page not
 * served over HTTPS or from localhost). */
export const ONE_PIECE_HASH_BYTES = 256 * 1024 * 1024;

/** Whether a file of `size` bytes is hashed in one piece here (`ONE_PIECE_HASH_BYTES`). */
export function hashedInOnePiece(size: number): boolean {
  return !!globalThis.crypto?.subtle && size <= ONE_PIECE_HASH_BYTES;
}

/** A chunk of the file a reader pushed, sent on to the hasher (its buffer transferred). */
export interface ChunkCopy {
  gather: number;
  /** The file's size (the gathering may start with a chunk, before the hash request). */
  size: number;
  /** The chunk's first byte in the file. */
  at: number;
  bytes: ArrayBuffer;
}

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
  /** A part of the bootstrap's replicates, for `PendingAudit.add_replicates`. */
  | { type: 'replicates'; id: number; replicates: Uint8Array }
  | { type: 'failed'; id: number; error: WireError }
  /** The reader's engine stopped (a panic in a third-party reader aborts its WebAssembly
   * instance): this reader is closed. */
  | { type: 'stopped'; id: number; error: WireError }
  | { type: 'csp_violation'; violation: CspViolation };
