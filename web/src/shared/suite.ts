// Typed readers for the metrics of the full identity suite (docs/metrics.md, spec
// identity-risk.md Sec 6-11): attacker models, population uniqueness, weights, SCORR,
// attribution and the ARX verdict. Every reader checks the shape and returns null or [] when
// the metric is missing, not `ok` or not shaped as documented. Nothing is computed here.

import { isRecord, metric, type MetricResult, type Report } from './report';

export interface MinMeanMax {
  min: number;
  mean: number;
  max: number;
}

const num = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

export function asMinMeanMax(v: unknown): MinMeanMax | null {
  return isRecord(v) && num(v.min) && num(v.mean) && num(v.max) ? { min: v.min, mean: v.mean, max: v.max } : null;
}

/** `{min, mean, max}` of an `ok` metric. */
export function minMeanMax(report: Report, id: string): MinMeanMax | null {
  const m = metric(report, id);
  return m && m.status === 'ok' ? asMinMeanMax(m.value) : null;
}

/** A confidence interval (`details.ci`, issue 15; docs/ci.md). */
export interface Interval {
  level: number;
  low: number;
  high: number;
  method: string;
  seed: number | null;
}

/** An interval object as the core writes it, or null (absent, or without ends). */
export function asInterval(v: unknown): Interval | null {
  if (!isRecord(v) || !num(v.level) || !num(v.low) || !num(v.high) || typeof v.method !== 'string') return null;
  return { level: v.level, low: v.low, high: v.high, method: v.method, seed: num(v.seed) ? v.seed : null };
}

/** The confidence interval of a metric's value (`details.ci`), or null. */
export function metricInterval(m: MetricResult | undefined): Interval | null {
  return m && m.status === 'ok' && isRecord(m.details) ? asInterval(m.details.ci) : null;
}

/** A number from a metric's `details`, or null. */
export function detailNumber(m: MetricResult | undefined, key: string): number | null {
  if (!m || !isRecord(m.details)) return null;
  const v = m.details[key];
  return num(v) ? v : null;
}

/** A string from a metric's `details`, or null. */
export function detailString(m: MetricResult | undefined, key: string): string | null {
  if (!m || !isRecord(m.details)) return null;
  const v = m.details[key];
  return typeof v === 'string' ? v : null;
}

/** The `scope.attribute` of a per-QI metric. */
export function scopeAttribute(m: MetricResult): string | null {
  return m.scope.attribute;
}

/** The `scope.subset` of a per-subset metric. */
export function scopeSubset(m: MetricResult): string[] | null {
  return m.scope.subset;
}

/** Every result of a per-QI metric id, in report order, with its attribute. */
export function perAttribute(report: Report, id: string): { attribute: string; metric: MetricResult }[] {
  return report.metrics.flatMap((m) => {
    const attribute = m.id === id ? scopeAttribute(m) : null;
    return attribute === null ? [] : [{ attribute, metric: m }];
  });
}

// --- ARX verdict -------------------------------------------------------------------------------

export interface ThreeChecks {
  records_at_risk: boolean;
  highest_risk: boolean;
  success_rate: boolean;
}

export interface ArxVerdict {
  prosecutor: ThreeChecks;
  journalist: ThreeChecks;
  marketer: { success_rate: boolean };
  all_pass: boolean;
  reasons: string[];
  thresholds: { highest_risk: number; records_at_risk: number; success_rate: number } | null;
  /** The traffic light, as the core decides it. */
  light: Light;
}

function threeChecks(x: unknown): ThreeChecks | null {
  if (!isRecord(x)) return null;
  const { records_at_risk, highest_risk, success_rate } = x;
  return typeof records_at_risk === 'boolean' && typeof highest_risk === 'boolean' && typeof success_rate === 'boolean'
    ? { records_at_risk, highest_risk, success_rate }
    : null;
}

export function arxVerdict(report: Report): ArxVerdict | null {
  const m = metric(report, 'verdict_arx_thresholds');
  if (!m || m.status !== 'ok' || !isRecord(m.value)) return null;
  const v = m.value;
  const prosecutor = threeChecks(v.prosecutor);
  const journalist = threeChecks(v.journalist);
  const marketer = isRecord(v.marketer) && typeof v.marketer.success_rate === 'boolean' ? { success_rate: v.marketer.success_rate } : null;
  if (!prosecutor || !journalist || !marketer || typeof v.all_pass !== 'boolean') return null;
  const d = isRecord(m.details) ? m.details : {};
  const reasons = Array.isArray(d.reasons) ? d.reasons.filter((r): r is string => typeof r === 'string') : [];
  const t = d.thresholds;
  const thresholds =
    isRecord(t) && num(t.highest_risk) && num(t.records_at_risk) && num(t.success_rate)
      ? { highest_risk: t.highest_risk, records_at_risk: t.records_at_risk, success_rate: t.success_rate }
      : null;
  const light = d.light;
  if (light !== 'green' && light !== 'amber' && light !== 'red') return null;
  return { prosecutor, journalist, marketer, all_pass: v.all_pass, reasons, thresholds, light };
}

/** ARX's traffic light: green when every check passes, amber when only the success-rate
 * (average risk) checks fail, red otherwise (decided by the core: `details.light`). */
export type Light = 'green' | 'amber' | 'red';

// --- population uniqueness -----------------------------------------------------------------------

export const ESTIMATORS = ['dankar', 'zayatz', 'pitman', 'snb'] as const;
export type Estimator = (typeof ESTIMATORS)[number];

export interface CurvePoint {
  pi: number;
  n_population: number;
  zayatz: number | null;
  pitman: number | null;
  snb: number | null;
  dankar: number | null;
  dankar_model: string | null;
  /** Each estimator's confidence interval at this point (`details.ci` of the curve), or null. */
  ci: Record<Estimator, Interval | null>;
}

const numOrNull = (x: unknown): number | null => (num(x) ? x : null);

export function uniquenessCurve(report: Report): CurvePoint[] {
  const m = metric(report, 'population_uniqueness_curve');
  if (!m || m.status !== 'ok' || !Array.isArray(m.value)) return [];
  const intervals = isRecord(m.details) && Array.isArray(m.details.ci) ? m.details.ci.filter(isRecord) : [];
  const ciAt = (pi: number): Record<Estimator, Interval | null> => {
    const point = intervals.find((c) => c.pi === pi);
    return { dankar: asInterval(point?.dankar), zayatz: asInterval(point?.zayatz), pitman: asInterval(point?.pitman), snb: asInterval(point?.snb) };
  };
  return m.value
    .filter((p): p is Record<string, unknown> => isRecord(p) && num(p.pi) && p.pi > 0 && num(p.n_population))
    .map((p) => ({
      ci: ciAt(p.pi as number),
      pi: p.pi as number,
      n_population: p.n_population as number,
      zayatz: numOrNull(p.zayatz),
      pitman: numOrNull(p.pitman),
      snb: numOrNull(p.snb),
      dankar: numOrNull(p.dankar),
      dankar_model: typeof p.dankar_model === 'string' ? p.dankar_model : null,
    }))
    .sort((a, b) => a.pi - b.pi);
}

// --- attribution ---------------------------------------------------------------------------------

export interface Contribution {
  attribute: string;
  delta_uniqueness: number | null;
  delta_r_internal: number | null;
  share: number | null;
}

export function contributions(report: Report): Contribution[] {
  return perAttribute(report, 'qi_contribution').flatMap(({ attribute, metric: m }) => {
    if (m.status !== 'ok' || !isRecord(m.value)) return [];
    const v = m.value;
    return [{ attribute, delta_uniqueness: numOrNull(v.delta_uniqueness), delta_r_internal: numOrNull(v.delta_r_internal), share: numOrNull(v.share) }];
  });
}

export interface SinglingOut {
  subset: string[];
  uniques: number;
  share: number;
}

export function singlingOut(report: Report): SinglingOut[] | null {
  const m = metric(report, 'qi_singling_out');
  if (!m || m.status !== 'ok' || !Array.isArray(m.value)) return null;
  return m.value.filter(
    (x): x is SinglingOut => isRecord(x) && Array.isArray(x.subset) && x.subset.every((s) => typeof s === 'string') && num(x.uniques) && num(x.share),
  );
}

export interface SubsetRow {
  subset: string[];
  distinction: number | null;
  separation: number | null;
}

/** `qi_distinction` and `qi_separation` joined per subset, in report order. */
export function subsetRows(report: Report): SubsetRow[] {
  const rows = new Map<string, SubsetRow>();
  for (const m of report.metrics) {
    if (m.id !== 'qi_distinction' && m.id !== 'qi_separation') continue;
    const subset = scopeSubset(m);
    if (!subset) continue;
    const key = JSON.stringify(subset);
    const row = rows.get(key) ?? { subset, distinction: null, separation: null };
    const v = m.status === 'ok' ? numOrNull(m.value) : null;
    if (m.id === 'qi_distinction') row.distinction = v;
    else row.separation = v;
    rows.set(key, row);
  }
  return [...rows.values()];
}
