// Typed readers for the permutation-model results (spec utility.md Sec 11, docs/architecture.md
// "Permutation ids"): the four headline measures, the per-attribute reverse mapping and the
// details shared by all of them (how rows were paired, columns skipped). Every reader checks
// the shape and returns null or [] when something is missing. Nothing is computed here.

import { isRecord, metric, type MetricResult, type Report } from './report';
import { detailNumber, detailString, perAttribute } from './suite';

export const PERM_FAMILY = 'permutation';

/** The paired measures: they need each original row matched with its released row. */
export const PAIRED_IDS = ['perm_reverse_mapping', 'perm_cm1', 'perm_cm2'] as const;

const num = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

export function permMetrics(report: Report): MetricResult[] {
  return report.metrics.filter((m) => m.family === PERM_FAMILY);
}

export type Alignment = 'record_id' | 'row_order' | 'none';

export interface Pairing {
  alignment: Alignment | null;
  /** Original records with no partner in the released file (record-id pairing only). */
  recordsRemoved: number | null;
  /** The reason the paired measures could not be computed, or null. */
  error: string | null;
  /** Rows compared per table (UM / CM3), when reported. */
  rows: { original: number; released: number } | null;
  /** Pairs compared (CM1 / CM2), when reported. */
  pairs: number | null;
  /** Columns of the original left out because they are not numeric in both tables. */
  skipped: string[];
}

/** Reads the pairing from the results: every permutation result carries the same details. */
export function pairing(report: Report): Pairing {
  const all = permMetrics(report);
  const first = all.find((m) => detailString(m, 'alignment') !== null);
  const a = detailString(first, 'alignment');
  const alignment: Alignment | null = a === 'record_id' || a === 'row_order' || a === 'none' ? a : null;
  const paired = all.find((m) => (PAIRED_IDS as readonly string[]).includes(m.id) && m.status === 'error');
  const um = metric(report, 'perm_um');
  const n = um && isRecord(um.details) ? um.details.n : null;
  const rows = isRecord(n) && num(n.original) && num(n.released) ? { original: n.original, released: n.released } : null;
  const skippedRaw = all.map((m) => (isRecord(m.details) ? m.details.non_numeric_columns_skipped : null)).find(Array.isArray);
  return {
    alignment,
    recordsRemoved: detailNumber(first, 'records_removed'),
    error: paired?.reason ?? null,
    rows,
    pairs: detailNumber(metric(report, 'perm_cm1'), 'n'),
    skipped: (skippedRaw ?? []).filter((s): s is string => typeof s === 'string'),
  };
}

export interface ReverseMapping {
  attribute: string;
  /** null when the attribute's reverse mapping has no value (see `metric.reason`). */
  value: { mean_d: number; max_d: number; share_d0: number; mean_abs_e: number | null } | null;
  metric: MetricResult;
}

export function reverseMappings(report: Report): ReverseMapping[] {
  return perAttribute(report, 'perm_reverse_mapping').map(({ attribute, metric: m }) => {
    const v = m.value;
    const ok = m.status === 'ok' && isRecord(v) && num(v.mean_d) && num(v.max_d) && num(v.share_d0);
    return {
      attribute,
      value: ok ? { mean_d: v.mean_d as number, max_d: v.max_d as number, share_d0: v.share_d0 as number, mean_abs_e: num(v.mean_abs_e) ? v.mean_abs_e : null } : null,
      metric: m,
    };
  });
}

export interface Cm3Details {
  /** The attribute whose sort lines the two tables up best (the least protective). */
  weakest: string | null;
  /** Tables of unequal size: CM3 is the mean over random subsamples. */
  draws: number | null;
  sd: number | null;
}

export function cm3Details(report: Report): Cm3Details {
  const m = metric(report, 'perm_cm3');
  const draws = m && isRecord(m.details) && Array.isArray(m.details.draws) ? m.details.draws.length : null;
  return { weakest: detailString(m, 'weakest'), draws, sd: detailNumber(m, 'sd') };
}
