// The measures of a synthetic or perturbed release (spec synthetic.md; crate/core/src/synthetic)
// as the page reads them from the report: typed views of each metric's details. Nothing is
// computed here; a field a shareable report dropped (the PCA scatter, the apparent matches)
// reads as absent.

import { SYNTHETIC_DEFAULTS, type SyntheticParams } from './contract';
import { isRecord, metric, type MetricResult, type Report } from './report';
import type { Matrix } from './utility-data';

/** The core's default settings, as a fresh object the form may change. */
export const defaultSynthetic = (): SyntheticParams => ({
  ...SYNTHETIC_DEFAULTS,
  measures: [],
  kmarg_binned: [],
  kmarg_exclude: [],
  amd_exclude: [],
  linreg_groups: [],
  cap_known: [],
  cap_sensitive: [],
  cap_continuous: [],
});

/** The metric ids of synthetic.md, in the order the page shows them. */
export const SYNTHETIC_IDS = [
  'k_marginal',
  'unique_exact_matches',
  'apparent_match',
  'pmse',
  'correlation_difference',
  'pca_comparison',
  'linear_regression',
  'dcr_baseline_protection',
  'dcr_overfitting_protection',
  'disclosure_protection',
] as const;
export type SyntheticId = (typeof SYNTHETIC_IDS)[number];

/** A detail read as a finite number, else null. */
export const finite = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
/** A detail read as a list of column names (anything else left out). */
export const labels = (x: unknown): string[] => (Array.isArray(x) ? x.filter((v): v is string => typeof v === 'string') : []);
const nums = (x: unknown): number[] => (Array.isArray(x) ? x.map((v) => finite(v) ?? 0) : []);
const matrix = (x: unknown): Matrix => (Array.isArray(x) ? x.map((row) => (Array.isArray(row) ? row.map(finite) : [])) : []);
/** Points of one or two coordinates (the second is 0 when the original has one axis). */
const points = (x: unknown): [number, number][] =>
  Array.isArray(x) ? x.filter((p): p is number[] => Array.isArray(p) && finite(p[0]) !== null).map((p) => [p[0]!, finite(p[1]) ?? 0]) : [];

/** One synthetic metric: its result, its value when ok, and its details. */
export interface SyntheticMetric {
  id: SyntheticId;
  metric: MetricResult;
  value: number | null;
  details: Record<string, unknown>;
}

/** The synthetic metrics of the report by id; empty when the measures were not asked for. */
export function syntheticOf(report: Report): Map<SyntheticId, SyntheticMetric> {
  const out = new Map<SyntheticId, SyntheticMetric>();
  for (const id of SYNTHETIC_IDS) {
    const m = metric(report, id);
    if (!m || m.family !== 'synthetic') continue;
    out.set(id, { id, metric: m, value: m.status === 'ok' ? finite(m.value) : null, details: isRecord(m.details) ? m.details : {} });
  }
  return out;
}

/** The k-marginal's sampling-equivalent (Sec 2.5): the score of each sample of the original. */
export interface SamplingEquivalent {
  percent: number | null;
  samples: { percent: number; rows: number; score: number }[];
}

export function samplingEquivalent(d: Record<string, unknown>): SamplingEquivalent | null {
  const s = d.sampling_equivalent;
  if (!isRecord(s)) return null;
  const samples = Array.isArray(s.samples)
    ? s.samples.filter(isRecord).map((x) => ({ percent: finite(x.percent) ?? 0, rows: finite(x.rows) ?? 0, score: finite(x.score) ?? 0 }))
    : [];
  return { percent: finite(s.equivalent_percent), samples };
}

/** The pair of columns whose two-way marginal differs most (the k-marginal's worst pair). */
export function worstPairs(d: Record<string, unknown>, n: number): { columns: string[]; l1: number }[] {
  const pairs = Array.isArray(d.pairs) ? d.pairs.filter(isRecord).map((p) => ({ columns: labels(p.columns), l1: finite(p.l1) ?? 0 })) : [];
  return pairs.sort((a, b) => b.l1 - a.l1 || a.columns.join().localeCompare(b.columns.join())).slice(0, n);
}

/** Two histograms over the same bins (propensities, DCRs), with their names. */
export interface PairedHistogram {
  first: number[];
  second: number[];
}

export function pairedHistogram(first: unknown, second: unknown): PairedHistogram | null {
  const a = nums(first);
  const b = nums(second);
  return a.length > 0 && a.length === b.length ? { first: a, second: b } : null;
}

/** The pMSE's propensity histogram (Sec 5.3): records of each table per bin of [0, 1]. */
export function propensityHistogram(d: Record<string, unknown>): PairedHistogram | null {
  return isRecord(d.histogram) ? pairedHistogram(d.histogram.original, d.histogram.released) : null;
}

/** The pMSE's permutation null (Sec 5.4): its mean and the ratio pMSE / mean. */
export function pmseNull(d: Record<string, unknown>): { mean: number; ratio: number | null; perms: number } | null {
  const n = d.null;
  if (!isRecord(n)) return null;
  const mean = finite(n.mean);
  return mean === null ? null : { mean, ratio: finite(n.ratio), perms: finite(n.perms) ?? 0 };
}

/** One correlation coefficient's matrices (Sec 6): original, released, released − original. */
export interface CorrelationMatrices {
  original: Matrix;
  released: Matrix;
  diff: Matrix;
  meanAbsDiff: number | null;
  worst: { pair: string[]; value: number } | null;
}

export function correlationMatrices(d: Record<string, unknown>, kind: 'pearson' | 'kendall'): CorrelationMatrices | null {
  const c = d[kind];
  if (!isRecord(c)) return null;
  const worst =
    isRecord(c.max_abs_diff) && finite(c.max_abs_diff.value) !== null ? { pair: labels(c.max_abs_diff.pair), value: finite(c.max_abs_diff.value)! } : null;
  return { original: matrix(c.original), released: matrix(c.released), diff: matrix(c.diff), meanAbsDiff: finite(c.mean_abs_diff), worst };
}

/** The PCA comparison (Sec 7): the variance each of the original's axes explains, in both tables. */
export interface PcaComparison {
  explained: number[];
  varianceOriginal: number[];
  varianceReleased: number[];
  /** The first two axes' coordinates of at most 1,000 rows per table (absent in a shareable report). */
  scatter: { original: [number, number][]; released: [number, number][] } | null;
  /** The largest loadings of each axis: column names. */
  topFeatures: string[][];
}

export function pcaComparison(d: Record<string, unknown>): PcaComparison {
  const scatter = isRecord(d.scatter) ? { original: points(d.scatter.original), released: points(d.scatter.released) } : null;
  const top = Array.isArray(d.top_features)
    ? d.top_features.map((axis) => (Array.isArray(axis) ? axis.filter(isRecord).map((f) => String(f.name ?? '')) : []))
    : [];
  return {
    explained: nums(d.explained_variance_ratio),
    varianceOriginal: nums(d.variance_original),
    varianceReleased: nums(d.variance_released),
    scatter: scatter && scatter.original.length + scatter.released.length > 0 ? scatter : null,
    topFeatures: top,
  };
}

/** The regression's total lines (Sec 8), y = slope x + intercept, in each table (null: undefined). */
export function regressionLines(d: Record<string, unknown>): Record<'original' | 'released', { slope: number; intercept: number } | null> {
  const total = isRecord(d.total) ? d.total : {};
  const line = (x: unknown) => {
    if (!isRecord(x)) return null;
    const slope = finite(x.slope);
    const intercept = finite(x.intercept);
    return slope === null || intercept === null ? null : { slope, intercept };
  };
  return { original: line(total.original), released: line(total.released) };
}
