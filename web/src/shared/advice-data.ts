// Typed reader for the `advice` metric of the core (crate/core/src/advice.rs): one change to the
// quasi-identifiers per row, with its figures after it, best first. Returns null when the metric
// is missing, not `ok` or not a list. Nothing is computed here.

import { metric, type Report } from './report';
import type { Light } from './suite';

interface Figures {
  records: number;
  k: number;
  uniques: number;
  records_at_risk: number;
  verdict: Light;
}

/** One change (`kind` and its column, width, level...) with its figures after it. */
export interface Effect {
  change: { kind: string; column?: string; width?: number; keep?: number; level?: number; below?: number };
  after: Figures;
  records_suppressed: number;
  values_merged: number;
  generalization_loss: number;
  sentence: string;
}

/** The advice of a report, best first; null when the report has none. */
export function adviceOf(report: Report): Effect[] | null {
  const m = metric(report, 'advice');
  return m?.status === 'ok' && Array.isArray(m.value) ? (m.value as Effect[]) : null;
}
