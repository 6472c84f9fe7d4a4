// The progress this worker posts to the page, at most every 100 ms: of a file's read (bytes
// and rows), and of an audit after its read (the engine's `on_progress` hook: the rows
// summarised into classes, then the steps of the measures).

import { PROGRESS_INTERVAL_MS, type AuditProgress, type Target } from '../shared/protocol';
import { wasm } from './which-engine';
import { post } from './scope';

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
export function progressPoster(id: number, blob: Blob, target: Target): (bytes: number, rows: number | null, force?: boolean) => void {
  const started = performance.now();
  const due = throttle();
  return (bytes, rows, force = false) => {
    if (!due(force)) return;
    const seconds = (performance.now() - started) / 1000;
    const mbPerSec = seconds > 0 ? bytes / 1e6 / seconds : 0;
    post({ type: 'progress', id, progress: { target, rows, bytes, totalBytes: blob.size, mbPerSec } });
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
    post({ type: 'audit_progress', id, progress: { phase: phase as AuditProgress['phase'], done, total } });
    lastPhase = phase;
  };
}

/** Runs `work` with the engine's audit progress posted for run `id`. */
export async function withAuditProgress<T>(id: number, work: () => Promise<T>): Promise<T> {
  const engine = wasm();
  engine.on_progress(auditProgressPoster(id));
  try {
    return await work();
  } finally {
    engine.on_progress(undefined);
  }
}
