// The Report contract of the wasm core (docs/architecture.md), as TypeScript types generated
// from the Rust ones, and the small typed look-ups the page needs. The page only reads a
// Report; it never computes one.

import type * as Contract from './contract';
import type { WireError } from './contract';

// The wire types, generated from the Rust types (contract.ts); the aliases below only narrow
// them to what the page sends or reads.
export type { ColumnProfile, InputFacts, KBasis, MissingPolicy, Role, WireError } from './contract';
export type MetricStatus = Contract.Status;
/** The encodings a read can be forced to (UTF-16 needs no setting: its byte order mark decides). */
export type Encoding = Extract<Contract.Encoding, 'utf-8' | 'windows-1252'>;

/**
 * The configuration the page passes to the engine: any setting left out takes the core's
 * default (`CONFIG_DEFAULTS`); the quasi-identifiers are always given ([] = profile only).
 */
export type AuditConfig = Partial<Contract.AuditConfig> & Pick<Contract.AuditConfig, 'quasi_identifiers'>;
/** What the user declares about a utility attribute (any field left out: not declared). */
export type UtilityAttributeSettings = Partial<Contract.AttributeSettings>;
/** A query of the workload (utility.md Sec 10). */
export type UtilityQuery = Contract.Query;

/**
 * One metric result. Its value, params and details differ per metric id: they are read as
 * `unknown` and each reader checks the shape it needs.
 */
export type MetricResult = Omit<Contract.MetricResult, 'value' | 'params' | 'details'> & {
  value: unknown;
  params: unknown;
  details: unknown;
};

/** The report of an audit, its metric results read as above. */
export type Report = Omit<Contract.Report, 'metrics'> & { metrics: MetricResult[] };

/** The core's report safe to share (`shareable`, issue 13): only aggregates of at least
 * `min_count` records; `removed` counts what was left out, by kind (empty: the full report
 * held no record-level value). */
export interface ShareableReport extends Report {
  shareable: { min_count: number; removed: Record<string, number> };
}

/** The core's shareable variant of an audit's report at the report's own k, which the worker
 * makes right after the audit and sends with it (or why it could not be made); `held`: the
 * id under which the worker holds the typed report, to ask it for the variant at another k
 * (the `shareable` request's `of`). */
export type ShareableVariant = ({ report: ShareableReport; error: null } | { report: null; error: WireError }) & { held: number };

/** The entries the shareable variant leaves out of a report (0: it holds no record-level value). */
export function removedCount(s: ShareableReport): number {
  return Object.values(s.shareable.removed).reduce((a, b) => a + b, 0);
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
  return m && m.status === 'ok' && typeof m.value === 'number' && Number.isFinite(m.value) ? m.value : null;
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
  return v.filter((row): row is [number, number, number] => Array.isArray(row) && row.length >= 3 && row.slice(0, 3).every((x) => typeof x === 'number'));
}

export function percentiles(report: Report): { p5: number; p50: number; p95: number } | null {
  const v = okValue(report, 'ec_size_percentiles');
  if (!isRecord(v)) return null;
  const { p5, p50, p95 } = v;
  return typeof p5 === 'number' && typeof p50 === 'number' && typeof p95 === 'number' ? { p5, p50, p95 } : null;
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
  return m.details.top.filter((x): x is RiskyClass => isRecord(x) && isRecord(x.values) && typeof x.size === 'number' && typeof x.risk === 'number');
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
