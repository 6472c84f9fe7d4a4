// The messages between the page (main.ts) and the worker (worker.ts): one request union, one
// response union, string-literal tags. Every message carries the `id` of the run it belongs to,
// so a late message from an abandoned run can be recognised and ignored.

import type { AuditConfig, Report, WireError } from './report';

/** What to read: a user's file, or the sample bundled in the wasm module. */
export type Source = { kind: 'file'; file: File } | { kind: 'sample' };

/** Profile = first pass over a new file (no quasi-identifiers); audit = the real run. */
export type Pass = 'profile' | 'audit';

export type Request = { type: 'run'; id: number; pass: Pass; source: Source; config: AuditConfig };

export interface Progress {
  rows: number;
  bytes: number;
  totalBytes: number;
  mbPerSec: number;
}

export interface CspViolation {
  blockedURI: string;
  violatedDirective: string;
  sourceFile: string;
}

export type Response =
  /** Sent once per worker when the wasm module is loaded (or failed to load). */
  | { type: 'ready'; version: string }
  | { type: 'engine_failed'; error: WireError }
  | { type: 'progress'; id: number; progress: Progress }
  | { type: 'result'; id: number; pass: Pass; report: Report }
  | { type: 'error'; id: number; error: WireError }
  /** The file was not UTF-8: the worker restarts the same pass as windows-1252. */
  | { type: 'encoding_retry'; id: number; encoding: 'windows-1252' }
  /** The worker's own CSP violations, forwarded so the page (and tests) can see them. */
  | { type: 'csp_violation'; violation: CspViolation };

/** Compile-time exhaustiveness: call in the `default` branch of a switch over a union tag. */
export function assertNever(x: never): never {
  throw new Error(`unexpected message: ${JSON.stringify(x)}`);
}

/** Chunk size for reading files: 1 MiB. */
export const CHUNK_BYTES = 1 << 20;

/** Minimum interval between two progress messages, in milliseconds. */
export const PROGRESS_INTERVAL_MS = 100;
