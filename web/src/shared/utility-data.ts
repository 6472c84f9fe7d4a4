// Typed readers for the utility results (spec utility.md, docs/metrics.md): loss,
// similarity and utility U per column and in total ([RUT], family utility_rut), the SDC
// measures (utility_sdc: changed cells, CTBIL, IL1s, eigenvalues, means, variances and the
// correlation matrices), query accuracy (utility_query) and the permutation model (Sec 11:
// the four headline measures, the per-attribute reverse mapping and how rows were paired).
// Every reader checks the shape and returns null or [] when something is missing. Nothing is
// computed here beyond picking values out of the report.

import { isRecord, metric, type MetricResult, type Report } from './report';
import { detailNumber, detailString, perAttribute, scopeAttribute } from './suite';

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
      value: ok
        ? { mean_d: v.mean_d as number, max_d: v.max_d as number, share_d0: v.share_d0 as number, mean_abs_e: num(v.mean_abs_e) ? v.mean_abs_e : null }
        : null,
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

// --- every utility family ------------------------------------------------------------------------

export const RUT_FAMILY = 'utility_rut';
export const SDC_FAMILY = 'utility_sdc';
export const QUERY_FAMILY = 'utility_query';

const isUtility = (m: MetricResult) => m.family.startsWith('utility_') || m.family === PERM_FAMILY;

/** The utility results that compared the release with an original table (none without one). */
export function utilityMetrics(report: Report): MetricResult[] {
  return report.metrics.filter((m) => isUtility(m) && m.reason !== 'no_original');
}

/** The table-level result of `id` (no `scope.attribute`). */
export function tableMetric(report: Report, id: string): MetricResult | undefined {
  return report.metrics.find((m) => m.id === id && scopeAttribute(m) === null);
}

/** The result of `id` for one attribute. */
export function attributeMetric(report: Report, id: string, attribute: string): MetricResult | undefined {
  return report.metrics.find((m) => m.id === id && scopeAttribute(m) === attribute);
}

/** The value of an `ok` result when it is a finite number, else null. */
export function okNumber(m: MetricResult | undefined): number | null {
  return m && m.status === 'ok' && num(m.value) ? m.value : null;
}

const numOrNull = (x: unknown): number | null => (num(x) ? x : null);
const strings = (x: unknown): string[] => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : []);

// --- loss and similarity per attribute ------------------------------------------------------------

/** One selected loss or similarity component of an attribute (`gen_loss`, `cosine_similarity`...). */
export interface Component {
  id: string;
  value: number | null;
  /** Why it has no value (a reason code), or null. */
  reason: string | null;
}

/** How many cells were blank in each table (`missing_count`). */
export interface BlankCells {
  original: number;
  released: number;
}

export interface AttributeRow {
  attribute: string;
  loss: MetricResult | undefined;
  similarity: MetricResult | undefined;
  lossComponents: Component[];
  similarityComponents: Component[];
  changedRecords: MetricResult | undefined;
  suppressedCells: MetricResult | undefined;
  blankCells: BlankCells | null;
}

/**
 * The ids under `key` in the details of an attribute's loss or similarity result: a list of
 * ids, of `{id}` objects, or an object of such lists keyed by "loss" / "similarity".
 */
function componentIds(m: MetricResult | undefined, key: 'components' | 'skipped', side: 'loss' | 'similarity'): string[] {
  const raw = m && isRecord(m.details) ? m.details[key] : null;
  const list = isRecord(raw) ? raw[side] : raw;
  if (!Array.isArray(list)) return [];
  return list.flatMap((c) => (typeof c === 'string' ? [c] : isRecord(c) && typeof c.id === 'string' ? [c.id] : []));
}

/** The selected components (`details.components`), then those without a value (`details.skipped`). */
function components(report: Report, m: MetricResult | undefined, side: 'loss' | 'similarity', attribute: string): Component[] {
  const ids = [...componentIds(m, 'components', side), ...componentIds(m, 'skipped', side)];
  return [...new Set(ids)].map((id) => {
    const c = attributeMetric(report, id, attribute);
    return { id, value: okNumber(c), reason: c ? (c.status === 'ok' ? null : c.reason) : 'not_reported' };
  });
}

function blankCells(m: MetricResult | undefined): BlankCells | null {
  if (!m || m.status !== 'ok' || !isRecord(m.value)) return null;
  const v = m.value;
  const original = numOrNull(v.original) ?? numOrNull(v.na_original) ?? numOrNull(v.na_o);
  const released = numOrNull(v.released) ?? numOrNull(v.na_released) ?? numOrNull(v.na_p);
  return original === null || released === null ? null : { original, released };
}

/** The per-attribute ids whose results name the utility attributes. */
const ATTRIBUTE_IDS = ['attribute_loss', 'attribute_similarity', 'missing_count', 'changed_records', 'suppressed_cells', 'cosine_similarity'];

/** The utility attributes, in the order the report first names them (the original's column order). */
export function utilityAttributes(report: Report): string[] {
  const names: string[] = [];
  for (const m of report.metrics) {
    const a = ATTRIBUTE_IDS.includes(m.id) ? scopeAttribute(m) : null;
    if (a !== null && !names.includes(a)) names.push(a);
  }
  return names;
}

/** Loss, similarity, their components and the changed cells of each utility attribute. */
export function attributeRows(report: Report): AttributeRow[] {
  return utilityAttributes(report).map((attribute) => {
    const loss = attributeMetric(report, 'attribute_loss', attribute);
    const similarity = attributeMetric(report, 'attribute_similarity', attribute);
    return {
      attribute,
      loss,
      similarity,
      lossComponents: components(report, loss, 'loss', attribute),
      similarityComponents: components(report, similarity, 'similarity', attribute),
      changedRecords: attributeMetric(report, 'changed_records', attribute),
      suppressedCells: attributeMetric(report, 'suppressed_cells', attribute),
      blankCells: blankCells(attributeMetric(report, 'missing_count', attribute)),
    };
  });
}

// --- distributions, means and spreads ----------------------------------------------------------

/** `{original, released, difference, rel_change_pct}` of `mean_diff` and `variance_diff`. */
export interface Change {
  original: number;
  released: number;
  difference: number;
  /** null when the original is 0. */
  rel_change_pct: number | null;
}

export interface Distribution {
  attribute: string;
  /** Bin ranges, category values, "blank", "unmatched", "other" (values of the file whole:
   * the view cuts a long one, `fileValue`). */
  labels: string[];
  /** Shares of rows per label. */
  original: number[];
  released: number[];
  /** Numeric columns: the change of the mean and of the variance, when reported. */
  mean: Change | null;
  variance: Change | null;
  /** The cosine similarity of the two distributions. */
  similarity: number | null;
}

function change(m: MetricResult | undefined): Change | null {
  if (!m || m.status !== 'ok' || !isRecord(m.value)) return null;
  const v = m.value;
  if (!num(v.original) || !num(v.released)) return null;
  return {
    original: v.original,
    released: v.released,
    difference: numOrNull(v.difference) ?? v.released - v.original,
    rel_change_pct: numOrNull(v.rel_change_pct),
  };
}

/** Most bars a distribution chart shows; adjacent bins of a numeric column are joined beyond it. */
export const MAX_BARS = 40;

/** Slots after the values or bins: they are never joined with a neighbour. */
const SPECIAL_SLOTS = new Set(['other', 'blank', 'unmatched']);

/**
 * Joins runs of adjacent bins ("25–26" + "27–28" = "25–28", shares added) until at most
 * MAX_BARS remain, for numeric and date columns reported with finer bins; the special slots
 * at the end stay as they are. Bin labels are "first–last" (en dash) or a single value.
 */
export function joinBins(d: Pick<Distribution, 'labels' | 'original' | 'released'>): Pick<Distribution, 'labels' | 'original' | 'released'> {
  let n = d.labels.length;
  while (n > 0 && SPECIAL_SLOTS.has(d.labels[n - 1]!)) n--;
  if (n <= MAX_BARS) return d;
  const k = Math.ceil(n / MAX_BARS);
  const out = { labels: [] as string[], original: [] as number[], released: [] as number[] };
  const sum = (xs: number[], i: number, j: number) => xs.slice(i, j).reduce((a, x) => a + x, 0);
  for (let i = 0; i < n; i += k) {
    const j = Math.min(n, i + k);
    const first = d.labels[i]!.split('–')[0]!;
    const last = d.labels[j - 1]!.split('–').at(-1)!;
    out.labels.push(first === last ? first : `${first}–${last}`);
    out.original.push(sum(d.original, i, j));
    out.released.push(sum(d.released, i, j));
  }
  out.labels.push(...d.labels.slice(n));
  out.original.push(...d.original.slice(n));
  out.released.push(...d.released.slice(n));
  return out;
}

/** `details.distribution` of an attribute's `cosine_similarity`: labels and both tables' shares. */
export function distributions(report: Report): Distribution[] {
  return perAttribute(report, 'cosine_similarity').flatMap(({ attribute, metric: m }) => {
    const d = isRecord(m.details) ? m.details.distribution : null;
    if (!isRecord(d) || !Array.isArray(d.labels) || !Array.isArray(d.original) || !Array.isArray(d.released)) return [];
    const n = d.labels.length;
    if (n === 0 || d.original.length !== n || d.released.length !== n) return [];
    const shares = (xs: unknown[]) => xs.map((x) => (num(x) ? x : 0));
    const slots = { labels: d.labels.map((l) => String(l)), original: shares(d.original), released: shares(d.released) };
    // Numeric and date columns (bins in order, `details.B` bins) may come finer than a chart shows.
    const binned = isRecord(m.details) && num(m.details.B);
    return [
      {
        attribute,
        ...(binned ? joinBins(slots) : slots),
        mean: change(attributeMetric(report, 'mean_diff', attribute)),
        variance: change(attributeMetric(report, 'variance_diff', attribute)),
        similarity: okNumber(m),
      },
    ];
  });
}

// --- correlation matrices -------------------------------------------------------------------------

export type Matrix = (number | null)[][];

export interface Correlations {
  attributes: string[];
  original: Matrix;
  released: Matrix;
  metric: MetricResult;
}

function matrix(x: unknown, p: number): Matrix | null {
  if (!Array.isArray(x) || x.length !== p) return null;
  const rows = x.map((row) => (Array.isArray(row) && row.length === p ? row.map((c) => (num(c) ? c : null)) : null));
  return rows.every((r) => r !== null) ? (rows as Matrix) : null;
}

/** The Pearson correlations of the numeric attributes in both tables (`cor_discrepancy` details). */
export function correlations(report: Report): Correlations | null {
  const m = tableMetric(report, 'cor_discrepancy');
  if (!m || !isRecord(m.details)) return null;
  // The documented name is `attributes`; `matrix_variables` names the matrix rows otherwise.
  const d = m.details;
  const attributes = strings(Array.isArray(d.attributes) ? d.attributes : Array.isArray(d.matrix_variables) ? d.matrix_variables : d.variables);
  const p = attributes.length;
  if (p < 2) return null;
  const original = matrix(d.original, p);
  const released = matrix(d.released, p);
  return original && released ? { attributes, original, released, metric: m } : null;
}

/** The mean absolute change of the correlations (`cor_discrepancy.value.mae`, or a plain number). */
export function discrepancy(m: MetricResult | undefined): { mae: number | null; mse: number | null } | null {
  if (!m || m.status !== 'ok') return null;
  if (num(m.value)) return { mae: m.value, mse: null };
  return isRecord(m.value) ? { mae: numOrNull(m.value.mae), mse: numOrNull(m.value.mse) } : null;
}

// --- query accuracy -------------------------------------------------------------------------------

export interface QuerySummary {
  /** Mean and largest relative error over the queries, in percent. */
  mean: number | null;
  max: number | null;
  queries: number | null;
  tiers: { good: number; moderate: number; poor: number } | null;
}

export function querySummary(report: Report): QuerySummary | null {
  const m = tableMetric(report, 'query_accuracy_summary');
  if (!m || m.status !== 'ok' || !isRecord(m.value)) return null;
  const v = m.value;
  const t = isRecord(v.tiers) ? v.tiers : v;
  const tiers = num(t.good) && num(t.moderate) && num(t.poor) ? { good: t.good, moderate: t.moderate, poor: t.poor } : null;
  const queries = numOrNull(v.queries) ?? detailNumber(m, 'queries') ?? detailNumber(m, 'evaluated');
  const mean = numOrNull(v.mean) ?? numOrNull(v.mean_relative_error);
  const max = numOrNull(v.max) ?? numOrNull(v.max_relative_error);
  return mean === null && tiers === null ? null : { mean, max, queries, tiers };
}
