// The Report contract of the wasm core (docs/architecture.md), as TypeScript types, and the
// small typed look-ups the page needs. The page only reads a Report; it never computes one.

export type Role = 'direct_identifier' | 'quasi_identifier' | 'sensitive' | 'insensitive';
export type MissingPolicy = 'ordinary' | 'wildcard' | 'drop';
/** The encodings a read can be forced to (UTF-16 needs no setting: its byte order mark decides). */
export type Encoding = 'utf-8' | 'windows-1252';

/** The configuration passed to `new Audit(config)`. */
export interface AuditConfig {
  quasi_identifiers: string[];
  sensitive?: string[];
  missing_policy?: MissingPolicy;
  wildcard_alpha?: number;
  exclude_suppressed_rows?: boolean;
  threshold?: number;
  missing_tokens?: string[];
  delimiter?: string | null;
  encoding?: Encoding | null;
  /** Lenient reading (`pad_or_truncate`): ragged rows are padded or cut, a record with an
   * unclosed quote or a field over 10 MiB is skipped; each is counted and warned. */
  ragged?: 'error' | 'pad_or_truncate';
  /** Event-level data: the column naming the person (several rows per person). */
  person_id?: string | null;
  /** The sampling-weight column (sdcMicro individual risk). */
  weight?: string | null;
  /** Population size N; give at most one of size, fraction and region. */
  population_size?: number | null;
  sampling_fraction?: number | null;
  population_region?: string | null;
  /** ARX verdict thresholds (highest risk = `threshold`). */
  records_at_risk_threshold?: number;
  success_rate_threshold?: number;
  /** Attribute disclosure: the classes failing these are listed (null = not checked). */
  l_threshold?: number | null;
  t_threshold?: number | null;
  beta_threshold?: number | null;
  /** `l` of recursive (c,l)-diversity's c, and `c` of its l (defaults 2 and 2). */
  recursive_l?: number;
  recursive_c?: number;
  /** SCORR verdict: compliant iff k > scorr_k_min and t <= scorr_t_max for every SA. */
  scorr_k_min?: number;
  scorr_t_max?: number;
  scorr_k_basis?: KBasis;
  /** Balance (spec balance.md): how risk_r combines R_internal and R_external (default max),
   * w_int of `weighted` (default 0.5) and the weight of utility alpha in rut (default 0.5). */
  risk_combination?: 'max' | 'weighted' | 'sum';
  risk_weight_internal?: number;
  rut_alpha?: number;
  /** Pairs the rows of the original table with the released ones (null = row order). */
  record_id?: string | null;
  /** Narrows the utility attributes to these columns of the original ([] = all of them). */
  utility_columns?: string[];
  /** Columns left out of every computation (roles "ignored" and "direct identifier"). */
  ignored?: string[];
  reference_columns?: Record<string, string>;
  /** What the user declares about a utility attribute, by column name. */
  attributes?: Record<string, UtilityAttributeSettings>;
  /** The attributes of the permutation model ([] = every numeric and date one). */
  permutation_columns?: string[];
  // Utility settings (spec utility.md), flattened into the configuration.
  /** Proximity loss 1 = replacing every value by the mean (baseline, default), [RUT]'s rule, or a fixed value. */
  lmax_mode?: 'baseline' | 'rule' | 'fixed';
  lmax_value?: number | null;
  rounding_mode?: 'nearest' | 'floor' | 'ceiling';
  proximity_norm?: 'manhattan' | 'euclidean';
  /** At most this many bins per numeric histogram (default 100). */
  similarity_bins?: number;
  component_aggregation?: 'mean' | 'max';
  total_aggregation?: 'mean' | 'max';
  /** w_S of utility U (w_L = 1 - w_S), default 0.5. */
  similarity_weight?: number;
  /** CTBIL's variables ([] = the quasi-identifiers) and largest table dimension (default 2). */
  ctbil_variables?: string[];
  ctbil_max_dimension?: number;
  ctbil_blank?: 'category' | 'exclude';
  /** Queries added to the default workload of query accuracy. */
  queries?: UtilityQuery[];
  /** Seed of CM3's random subsamples (default 42). */
  seed?: number;
  /** Ask for the `advice` metric: single changes that would lower the risk; `suppress_below`
   * is the k of its suppression change. */
  advice?: { suppress_below: number } | null;
}

/** Declared facts about one utility attribute (spec README Sec 4; utility.md Sec 2, 3, 7). */
export interface UtilityAttributeSettings {
  kind?: 'numeric' | 'date' | 'categorical';
  resolution?: number;
  domain?: [number, number];
  rounding_unit?: number;
  /** w_a in L_total and S_total, default 1. */
  weight?: number;
  /** ARX layout: one row per leaf, the leaf first, then its ancestors from the lowest level up. */
  hierarchy?: string[][];
}

/** A query of the workload (utility.md Sec 10). */
export type UtilityQuery = { group_by: string[] } & (
  | { aggregate: 'count' }
  | { aggregate: 'mean'; column: string }
  | { aggregate: 'share'; column: string; value: string }
);

/** Which k the SCORR compliance rule uses: rows, or different persons (event-level data). */
export type KBasis = 'records' | 'persons';

export interface ColumnProfile {
  name: string;
  index: number;
  kind: 'numeric' | 'date' | 'categorical';
  forms: { exact: number; range: number; mask: number; missing: number; suppressed: number; invalid: number };
  shape: string;
  distinct: number;
  distinct_exact: boolean;
  min: string | null;
  max: string | null;
  top: [string, number][];
  proposed_role: Role;
  role_reason: string;
}

export type MetricStatus = 'ok' | 'not_applicable' | 'error' | 'empty_input';

export interface MetricResult {
  id: string;
  family: string;
  scope: unknown;
  value: unknown;
  status: MetricStatus;
  reason: string | null;
  params: unknown;
  details: unknown;
  warnings: string[];
}

/**
 * How the core read one file (`Report.input`, `original_input`, `reference_input`): every byte
 * and every record. `records = header_records + rows_total + blank_records + error_records`;
 * a quoted field may span lines, so records are not lines.
 */
export interface InputFacts {
  /** Bytes read: the file's size once it is read whole. */
  bytes: number;
  /** Lines of the file (CRLF, LF or a lone CR end one). */
  lines: number;
  records: number;
  /** The header record (1). */
  header_records: number;
  /** Data rows read and audited. */
  rows_total: number;
  /** Empty records and records of white space, skipped. */
  blank_records: number;
  /** Records that could not be read (lenient reading only), left out with a warning. */
  error_records: number;
  /** Rows padded or cut by lenient reading (among `rows_total`). */
  ragged_rows: number;
  /** `utf-8`, `windows-1252`, `utf-16le` or `utf-16be`. */
  encoding: string;
  delimiter: string;
  columns: number;
  /** SHA-256 of the bytes read, lower-case hex (null for a table merged from parts). */
  sha256: string | null;
}

export interface Report {
  input: InputFacts;
  /** How the original table and the population table were read, when given. */
  original_input?: InputFacts | null;
  reference_input?: InputFacts | null;
  columns: ColumnProfile[];
  /** Every setting used, as the engine resolved it (QIs in column order). */
  params: Omit<AuditConfig, 'missing_tokens' | 'delimiter' | 'encoding' | 'ragged'> & {
    quasi_identifiers: string[];
    missing_policy: string;
    exclude_suppressed_rows: boolean;
    threshold: number;
    wildcard_alpha: number;
    scorr_low_max?: number;
    scorr_medium_max?: number;
  };
  metrics: MetricResult[];
  warnings: { code: string; message: string }[];
}

/** The core's report safe to share (`shareable`, issue 13): only aggregates of at least
 * `min_count` records; `removed` counts what was left out, by kind (empty: the full report
 * held no record-level value). */
export interface ShareableReport extends Report {
  shareable: { min_count: number; removed: Record<string, number> };
}

/** The entries the shareable variant leaves out of a report (0: it holds no record-level value). */
export function removedCount(s: ShareableReport): number {
  return Object.values(s.shareable.removed).reduce((a, b) => a + b, 0);
}

/** The error object the binding throws (plain data, survives postMessage). */
export interface WireError {
  kind: 'input' | 'config' | 'encoding' | 'internal';
  code: string;
  message: string;
  line: number | null;
  column: string | null;
}

/** A riskiest class from `record_risk.details.top`. */
export interface RiskyClass {
  /** QI column -> value; null for a missing (blank) cell. */
  values: Record<string, string | null>;
  size: number;
  risk: number;
}

export function metric(report: Report, id: string): MetricResult | undefined {
  return report.metrics.find((m) => m.id === id);
}

/** The value of an `ok` metric when it is a finite number, else null. */
export function numberValue(report: Report, id: string): number | null {
  const m = metric(report, id);
  return m && m.status === 'ok' && typeof m.value === 'number' && Number.isFinite(m.value)
    ? m.value
    : null;
}

/** The value of an `ok` metric, unchecked beyond "present". Callers validate the shape. */
export function okValue(report: Report, id: string): unknown {
  const m = metric(report, id);
  return m && m.status === 'ok' ? m.value : null;
}

export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** `[[a, b, c], ...]` with numeric cells, or [] when the metric is missing or not ok. */
export function numberTriples(report: Report, id: string): [number, number, number][] {
  const v = okValue(report, id);
  if (!Array.isArray(v)) return [];
  return v.filter(
    (row): row is [number, number, number] =>
      Array.isArray(row) && row.length >= 3 && row.slice(0, 3).every((x) => typeof x === 'number'),
  );
}

export function percentiles(report: Report): { p5: number; p50: number; p95: number } | null {
  const v = okValue(report, 'ec_size_percentiles');
  if (!isRecord(v)) return null;
  const { p5, p50, p95 } = v;
  return typeof p5 === 'number' && typeof p50 === 'number' && typeof p95 === 'number'
    ? { p5, p50, p95 }
    : null;
}

export function kViolators(report: Report): { k: number; records: number; share: number }[] {
  const v = okValue(report, 'k_violators');
  if (!Array.isArray(v)) return [];
  return v.filter(
    (x): x is { k: number; records: number; share: number } =>
      isRecord(x) && typeof x.k === 'number' && typeof x.records === 'number' && typeof x.share === 'number',
  );
}

export function riskiestClasses(report: Report): RiskyClass[] {
  const m = metric(report, 'record_risk');
  if (!m || !isRecord(m.details) || !Array.isArray(m.details.top)) return [];
  return m.details.top.filter(
    (x): x is RiskyClass =>
      isRecord(x) && isRecord(x.values) && typeof x.size === 'number' && typeof x.risk === 'number',
  );
}

/** Recognises a WireError thrown by the binding; anything else becomes an `internal` one. */
export function toWireError(e: unknown): WireError {
  if (isRecord(e) && typeof e.code === 'string' && typeof e.message === 'string') {
    const kind = e.kind;
    return {
      kind: kind === 'input' || kind === 'config' || kind === 'encoding' ? kind : 'internal',
      code: e.code,
      message: e.message,
      line: typeof e.line === 'number' ? e.line : null,
      column: typeof e.column === 'string' ? e.column : null,
    };
  }
  const message = e instanceof Error ? e.message : String(e);
  return { kind: 'internal', code: 'internal', message, line: null, column: null };
}
