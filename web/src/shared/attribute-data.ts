// Typed readers for the attribute-disclosure metrics (spec attribute-risk.md) and the SCORR
// verdict (identity-risk.md Sec 11.2). Per sensitive attribute (SA) results carry
// `scope.sensitive` = the SA's name; the worst case over all SAs has `scope.sensitive = "*"`.
// Every reader checks the shape and returns null or [] otherwise. Nothing is computed here.

import { isRecord, type MetricResult, type Report } from './report';
import { asMinMeanMax, scopeAttribute, type MinMeanMax } from './suite';

const num = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** The QI values of one class: column -> value (null = a blank cell, "*" = suppressed). */
export type ClassMap = Record<string, string | null>;

export function asClassMap(x: unknown): ClassMap | null {
  if (!isRecord(x)) return null;
  return Object.values(x).every((v) => v === null || typeof v === 'string') ? (x as ClassMap) : null;
}

export function scopeSensitive(m: MetricResult): string | null {
  return m.scope.sensitive;
}

/** The sensitive columns of the audit, in the order the report names them; with
 * `sa_mode = combined`, the one pseudo-column of their tuples the results are reported for. */
export function sensitiveColumns(report: Report): string[] {
  if (report.params.sa_mode === 'combined' && report.params.sensitive.length > 1) {
    const combined = report.metrics.find((m) => m.family === 'attribute' && m.scope.sensitive !== null && m.scope.sensitive !== '*');
    if (combined?.scope.sensitive) return [combined.scope.sensitive];
  }
  return report.params.sensitive;
}

/** The result of `id` for the SA `sa` ("*" = all SAs), without a per-QI scope. */
export function saMetric(report: Report, id: string, sa: string): MetricResult | undefined {
  return report.metrics.find((m) => m.id === id && scopeSensitive(m) === sa && scopeAttribute(m) === null);
}

/** The value of an `ok` per-SA metric when it is a finite number, else null. */
export function saNumber(report: Report, id: string, sa: string): number | null {
  const m = saMetric(report, id, sa);
  return m && m.status === 'ok' && num(m.value) ? m.value : null;
}

export function saMinMeanMax(report: Report, id: string, sa: string): MinMeanMax | null {
  const m = saMetric(report, id, sa);
  return m && m.status === 'ok' ? asMinMeanMax(m.value) : null;
}

/** `alpha_k_anonymity`: `{alpha, k}` (the "*" row has no k). */
export function alphaK(report: Report, sa: string): { alpha: number; k: number | null } | null {
  const m = saMetric(report, 'alpha_k_anonymity', sa);
  if (!m || m.status !== 'ok' || !isRecord(m.value) || !num(m.value.alpha)) return null;
  return { alpha: m.value.alpha, k: num(m.value.k) ? m.value.k : null };
}

/** `scorr_correlation_risk_attr` of one SA, one entry per QI. */
export function correlationPerQi(report: Report, sa: string): { attribute: string; value: MinMeanMax | null }[] {
  return report.metrics.flatMap((m) => {
    const attribute = m.id === 'scorr_correlation_risk_attr' && scopeSensitive(m) === sa ? scopeAttribute(m) : null;
    return attribute === null ? [] : [{ attribute, value: m.status === 'ok' ? asMinMeanMax(m.value) : null }];
  });
}

export function detailClass(m: MetricResult | undefined, key = 'worst_class'): ClassMap | null {
  return m && isRecord(m.details) ? asClassMap(m.details[key]) : null;
}

export interface Failing {
  threshold: number | null;
  classes: number;
  listed: ClassMap[];
}

/** `details.failing` of l_distinct, t_closeness or beta_likeness_basic (present with a threshold). */
export function failing(m: MetricResult | undefined): Failing | null {
  if (!m || !isRecord(m.details) || !isRecord(m.details.failing)) return null;
  const f = m.details.failing;
  if (!num(f.classes) || !Array.isArray(f.listed)) return null;
  const listed = f.listed.map(asClassMap).filter((c): c is ClassMap => c !== null);
  return { threshold: num(m.details.threshold) ? m.details.threshold : null, classes: f.classes, listed };
}

/** One sensitive value: its share in the worst class and in the whole file. */
export interface Share {
  value: string;
  inClass: number;
  inFile: number;
}

export interface WorstClass {
  distance: 'equal' | 'ordered' | null;
  values: ClassMap | null;
  size: number | null;
  shares: Share[];
}

/** The worst class of `t_closeness` and its distribution (`details.worst_distribution`). */
export function worstClass(m: MetricResult | undefined): WorstClass | null {
  if (!m || m.status !== 'ok' || !isRecord(m.details)) return null;
  const d = m.details;
  const rows = Array.isArray(d.worst_distribution) ? d.worst_distribution : [];
  const shares = rows
    .filter((r): r is [string, number, number] => Array.isArray(r) && typeof r[0] === 'string' && num(r[1]) && num(r[2]))
    .map(([value, inClass, inFile]) => ({ value, inClass, inFile }));
  const distance = d.distance === 'equal' || d.distance === 'ordered' ? d.distance : null;
  return { distance, values: asClassMap(d.worst_class), size: num(d.worst_class_size) ? d.worst_class_size : null, shares };
}

// --- SCORR verdict ---------------------------------------------------------------------------

export type Band = 'low' | 'medium' | 'high';
export type FinalDecision = 'eligible' | 'release_with_acknowledged_risk' | 'not_approved';

/** The final decision in words, as the SCORR verdict and the section headlines show it. */
export const DECISIONS: Readonly<Record<FinalDecision, string>> = {
  eligible: 'Eligible for release',
  release_with_acknowledged_risk: 'Release with acknowledged risk',
  not_approved: 'Not approved',
};

const isBand = (x: unknown): x is Band => x === 'low' || x === 'medium' || x === 'high';

export interface ScorrVerdict {
  conventional: { compliant: boolean; k: number | null; t: Record<string, number | null>; reasons: string[]; kBasis: string | null } | null;
  extended: { rows: { id: string; value: number | null; band: Band }[]; category: Band; kHint: { medium: number | null; low: number | null } | null } | null;
  final: FinalDecision | null;
  /** The thresholds the verdict echoes in its params. */
  params: Record<string, unknown>;
}

function find(report: Report, id: string): MetricResult | undefined {
  return report.metrics.find((m) => m.id === id);
}

export function scorrVerdict(report: Report): ScorrVerdict {
  const c = find(report, 'verdict_scorr_conventional');
  const e = find(report, 'verdict_scorr_extended');
  const f = find(report, 'verdict_scorr_final');
  let conventional: ScorrVerdict['conventional'] = null;
  if (c?.status === 'ok' && isRecord(c.value) && typeof c.value.compliant === 'boolean') {
    const d = isRecord(c.details) ? c.details : {};
    const t = isRecord(c.value.t) ? c.value.t : {};
    conventional = {
      compliant: c.value.compliant,
      k: num(c.value.k) ? c.value.k : null,
      t: Object.fromEntries(Object.entries(t).map(([sa, v]) => [sa, num(v) ? v : null])),
      reasons: Array.isArray(d.reasons) ? d.reasons.filter((r): r is string => typeof r === 'string') : [],
      kBasis: typeof d.k_basis === 'string' ? d.k_basis : null,
    };
  }
  let extended: ScorrVerdict['extended'] = null;
  if (e?.status === 'ok' && isRecord(e.value) && isRecord(e.value.bands) && isBand(e.value.category)) {
    const d = isRecord(e.details) ? e.details : {};
    const values = isRecord(d.values) ? d.values : {};
    const rows = Object.entries(e.value.bands).flatMap(([id, band]) => {
      const v = values[id];
      return isBand(band) ? [{ id, band, value: num(v) ? v : null }] : [];
    });
    const h = isRecord(d.k_hint) ? d.k_hint : null;
    const kHint = h ? { medium: num(h.medium_from_k) ? h.medium_from_k : null, low: num(h.low_from_k) ? h.low_from_k : null } : null;
    extended = { rows, category: e.value.category, kHint };
  }
  const v = f?.status === 'ok' ? f.value : null;
  const final = v === 'eligible' || v === 'release_with_acknowledged_risk' || v === 'not_approved' ? v : null;
  const params = [c, e, f].map((m) => m?.params).find(isRecord) ?? {};
  return { conventional, extended, final, params };
}
