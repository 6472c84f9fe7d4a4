// The messages between the page (app/dispatch.ts) and the worker (worker/worker.ts): one
// request union, one response union, string-literal tags. Every message carries the `id` of the
// run it belongs to, so a late message from an abandoned run can be recognised and ignored.

import type { Candidate, ChoiceParams } from './balance-data';
import type { Extracted, LadderView, NodeView, ProtectParams } from './contract';
import type { AuditConfig, MetricResult, Report, ShareableReport, ShareableVariant, WireError } from './report';

/** What to read: a user's file, or the sample bundled in the wasm module. */
/** The released table: a file (`sheet`: the sheet of an Excel workbook to read; absent or
 * null, the first) or the bundled sample. */
export type Source = { kind: 'file'; file: File; sheet?: string | null } | { kind: 'sample' };

/**
 * Profile = first pass over a new file (no quasi-identifiers); audit = the real run;
 * extract = the drill-down pass copying out the records of the riskiest groups.
 */
export type Pass = 'profile' | 'audit' | 'extract' | 'compare' | 'per_record';

/** One value per quasi-identifier (in QI order); null = a missing cell. */
export type ClassValues = (string | null)[];

export type Request =
  /**
   * Profile or audit. Audit pass only: `reference` = the population table, `original` = the
   * table before pseudonymization (utility metrics) and `control` = records not used to make the
   * release (the attacks' control), all read before the released file.
   */
  | {
      type: 'run';
      id: number;
      pass: 'profile' | 'audit';
      source: Source;
      config: AuditConfig;
      reference: File | null;
      original: File | null;
      control: File | null;
    }
  /**
   * Audit again with other settings (a change after the first audit): answered from the table
   * the worker keeps, without reading `source` again unless it could not be kept. Only the
   * latest of these is answered; one arriving while another runs supersedes it.
   */
  | { type: 'recompute'; id: number; source: Source; config: AuditConfig; reference: File | null; original: File | null; control: File | null }
  /** Copy out the rows of `classes` from the same source, read with the same config. */
  | { type: 'extract'; id: number; source: Source; config: AuditConfig; classes: ClassValues[] }
  /** Each record's values (class size, record risk...) as CSV: from the kept table, else a
   * second read of the file (spec README Sec 10). */
  | { type: 'per_record'; id: number; source: Source; config: AuditConfig }
  /**
   * Compare candidate releases: audit each of `candidates` in turn against the same original
   * (and population table), with the same config; one `compare_result` with every report.
   */
  | { type: 'compare'; id: number; candidates: File[]; config: AuditConfig; reference: File | null; original: File | null; control: File | null }
  /** The core's `choose` over candidates already audited (no file is read). */
  | { type: 'choose'; id: number; quasi_identifiers: string[]; candidates: Candidate[]; params: ChoiceParams }
  /** The core's report safe to share (`shareable`): aggregates of at least `min_count`
   * records (null: the report's k) of the report the worker holds for the message `of`
   * (`ShareableVariant.held`). No file is read, no report is sent back. (Each audit's report
   * comes with its shareable variant at the report's own k: this is for another k.) */
  | { type: 'shareable'; id: number; of: number; min_count: number | null }
  /** The column names of a side table as the core reads its header (nothing else is read). */
  | { type: 'header'; id: number; file: File }
  /** The page has drawn the profile of run `id`: the work put off so as not to slow that
   * drawing starts (the hash of a file read in parts, the first audit's memory). No answer. */
  | { type: 'shown'; id: number }
  /** To the current worker once its engine is ready (a standby only once it becomes current):
   * warm the engine up with audits of a generated table, one step at a time while no request
   * is being served, so that the first audit of a file runs optimized code. Answered by
   * `warmed`. No id of a run. */
  | { type: 'warm'; id: number }
  /** The ladder proposed for each of `quasi_identifiers` from its values (the kept table;
   * `source` read again when the worker holds none). */
  | { type: 'propose_ladders'; id: number; source: Source; config: AuditConfig; quasi_identifiers: string[] }
  /** Protect (spec protect.md): the exact search of the kept table's lattice under `params`,
   * `config` the settings the table was read with. Progress comes as `audit_progress` (phase
   * `nodes`); the protection stays in the worker for `protect_node` and `protect_release`. */
  | { type: 'protect'; id: number; source: Source; config: AuditConfig; params: ProtectParams }
  /** The figures of one node of the latest search (levels in QI order). */
  | { type: 'protect_node'; id: number; levels: number[] }
  /** The release of a node of the latest search: its CSV bytes come as `release_chunk`s, then
   * `release_written` with the audit of the release, checked against the prediction. */
  | { type: 'protect_release'; id: number; levels: number[] }
  /** The ladder of `qi` of the latest search in ARX's hierarchy CSV layout. */
  | { type: 'ladder_csv'; id: number; qi: string };

export type ChooseRequest = Extract<Request, { type: 'choose' }>;
export type ShareableRequest = Extract<Request, { type: 'shareable' }>;
export type HeaderRequest = Extract<Request, { type: 'header' }>;
export type RecomputeRequest = Extract<Request, { type: 'recompute' }>;
export type ShownRequest = Extract<Request, { type: 'shown' }>;
export type WarmRequest = Extract<Request, { type: 'warm' }>;
/** The requests of protect, answered beside the runs (worker/protect.ts). */
export type ProtectRequest = Extract<Request, { type: 'propose_ladders' | 'protect' | 'protect_node' | 'protect_release' | 'ladder_csv' }>;

/** How a report's table was read: kept in the worker, or streamed from the file. */
export interface TableRead {
  /** The table is kept in the worker: another audit reads nothing again. */
  kept: boolean;
  /** Why the file was streamed instead (UTF-16, a column not kept, a problem in a part). */
  why: string | null;
  /** How many times the released file has been read since the worker got it. */
  fileReads: number;
  /** How many workers read it in parallel (1: on one thread). */
  readers: number;
  /** Seconds the audit took, its read included when there was one. */
  seconds: number;
  /** The sheets of the released file when it is an Excel workbook, in their order (else empty). */
  sheets: string[];
}

/** Which file a message is about: the released table, the population table, the original or
 * the attacks' control table. */
export type Target = 'table' | 'population' | 'original' | 'control';

export interface Progress {
  target: Target;
  /** Data rows read so far (null for a pass that does not count them). */
  rows: number | null;
  bytes: number;
  totalBytes: number;
  mbPerSec: number;
}

/** The progress of an audit after its read (the core's `progress` module): the rows of the kept
 * table summarised into classes, then the steps of the metric families; or of protect's
 * search, the nodes of its lattice. */
export interface AuditProgress {
  phase: 'rows' | 'measures' | 'nodes';
  done: number;
  total: number;
}

/** The drill-down result: CSV text with a leading `line` column. */
export type { Extracted } from './contract';

export interface CspViolation {
  blockedURI: string;
  violatedDirective: string;
  sourceFile: string;
}

export type Response =
  /** Sent once per worker when the wasm module is loaded (or failed to load). */
  | { type: 'ready'; version: string }
  | { type: 'engine_failed'; error: WireError }
  /** The warm-up has ended: every step run, or cut short by an audit of the user's own file. The
   * worker client then starts the standby, so that the two never share the cores before. */
  | { type: 'warmed'; id: number }
  | { type: 'progress'; id: number; progress: Progress }
  | { type: 'audit_progress'; id: number; progress: AuditProgress }
  | { type: 'result'; id: number; pass: 'profile'; report: Report; read: TableRead }
  /** An audit's report, with its shareable variant at the report's own k (no second round
   * trip: what the full report holds, and the shareable download at that k). */
  | { type: 'result'; id: number; pass: 'audit'; report: Report; read: TableRead; shareable: ShareableVariant }
  /** The SHA-256 of the released file read by run `id` (computed beside the parallel read, it
   * is not waited for to show the profile, and may come before or after it); null when it
   * could not be computed. */
  | { type: 'file_hash'; id: number; sha256: string | null }
  /** The answer to the latest `recompute`, with its shareable variant as an audit's. */
  | { type: 'recomputed'; id: number; report: Report; read: TableRead; shareable: ShareableVariant }
  /** The latest `recompute` failed (the table stays kept). */
  | { type: 'recompute_error'; id: number; target: Target; error: WireError }
  | { type: 'extract_result'; id: number; extracted: Extracted }
  /** The per-record CSV; `kept`: made from the kept table (else the file was read again). */
  | { type: 'per_record_result'; id: number; csv: string; records: number; kept: boolean }
  /** A comparison starts auditing candidate `index` (0-based) of `total`. */
  | { type: 'candidate'; id: number; index: number; total: number; name: string }
  | { type: 'compare_result'; id: number; reports: Report[] }
  /** The answer to `choose`: `[rut_alpha_sweep, rut_constrained_choice]`, or the error. */
  | { type: 'choice'; id: number; metrics: MetricResult[] | null; error: WireError | null }
  /** The answer to `shareable`: the report safe to share, or the error. */
  | { type: 'shareable_report'; id: number; report: ShareableReport | null; error: WireError | null }
  /** The answer to `header`: the column names, or null when the core cannot read them there. */
  | { type: 'header'; id: number; header: string[] | null }
  | { type: 'error'; id: number; target: Target; error: WireError }
  /** A file was not UTF-8: the worker reads it again as windows-1252. */
  | { type: 'encoding_retry'; id: number; target: Target; encoding: 'windows-1252' }
  /** The answer to `propose_ladders`: `{qi: Ladder}`, or the error. */
  | { type: 'proposed'; id: number; ladders: ProtectParams['ladders'] | null; error: WireError | null }
  /** The answer to `protect`: the `protect` result (Sec 6) and the ladders, or the error. */
  | { type: 'protected'; id: number; result: MetricResult | null; ladders: LadderView[] | null; error: WireError | null }
  /** The answer to `protect_node`. */
  | { type: 'protect_node'; id: number; node: NodeView | null; error: WireError | null }
  /** The next piece of the release of `protect_release` (transferred), with the rows of the
   * table written so far and in all. */
  | { type: 'release_chunk'; id: number; bytes: Uint8Array; rows: number; total: number }
  /** The release is written: its audit (with the shareable variant, as an audit's) and
   * whether it gave the predicted figures (false: not checked, the node at the top of every
   * ladder), or the error (`release_differs` when the audit differs). */
  | { type: 'release_written'; id: number; report: Report | null; shareable: ShareableVariant | null; checked: boolean; error: WireError | null }
  /** The answer to `ladder_csv`. */
  | { type: 'ladder_csv'; id: number; csv: string | null; error: WireError | null }
  /** The worker's own CSP violations, forwarded so the page (and tests) can see them. */
  | { type: 'csp_violation'; violation: CspViolation };

/** Compile-time exhaustiveness: call in the `default` branch of a switch over a union tag. */
export function assertNever(x: never): never {
  throw new Error(`unexpected message: ${JSON.stringify(x)}`);
}

/** Minimum interval between two progress messages, in milliseconds. */
export const PROGRESS_INTERVAL_MS = 100;
