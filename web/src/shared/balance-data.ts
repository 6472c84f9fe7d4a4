// Typed readers for the balance results (spec balance.md): external linkage risk, overall risk
// R, safety and the RUT score of one report, and the two results of the wasm `choose` over
// several candidates (`rut_alpha_sweep`, `rut_constrained_choice`). Every reader checks the
// shape and returns null when a result is missing or not shaped as documented. Nothing is
// computed here: scores come from the core (the report, or `choose` run in the worker).

import { CONFIG_DEFAULTS, RUT_PRESETS, type Candidate, type RiskCombination } from './contract';
import type * as Contract from './contract';
import { isRecord, metric, type MetricResult, type Report } from './report';

/** One candidate release as `choose` takes it. */
export type { Candidate } from './contract';

/** The settings of `choose`: the RUT weight of utility and the optional thresholds. */
export type ChoiceParams = Pick<Contract.ChoiceParams, 'rut_alpha'> & Partial<Contract.ChoiceParams>;

/** Runs the core's `choose` (in the worker): `[rut_alpha_sweep, rut_constrained_choice]`. */
export type ChooseFn = (candidates: Candidate[], params: ChoiceParams) => Promise<MetricResult[]>;

/** The weight presets of [RUT] Table 4, in its order (ids and alpha from the core). */
export const PRESETS = RUT_PRESETS.map(([id]) => id);
export type Preset = (typeof RUT_PRESETS)[number][0];
const presetAlpha = (p: Preset): number => RUT_PRESETS.find(([id]) => id === p)![1];

/** The weight presets of [RUT] Table 4 (balance.md Sec 4): alpha = weight of utility. */
export const PRESET_INFO: Readonly<Record<Preset, { label: string; context: string; alpha: number }>> = {
  analytics: { label: 'Analytics', context: 'Internal analysis, model building: utility first.', alpha: presetAlpha('analytics') },
  balanced: { label: 'Balanced', context: 'Balanced decision support (the default).', alpha: presetAlpha('balanced') },
  compliance: { label: 'Compliance', context: 'Sharing with partners or other agencies.', alpha: presetAlpha('compliance') },
  public: { label: 'Public release', context: 'Public release or high-risk domains such as health care: safety first.', alpha: presetAlpha('public') },
};

export const DEFAULT_ALPHA = CONFIG_DEFAULTS.rut_alpha;

/** The preset whose alpha is `alpha`, or null (a custom weight). */
export function presetOf(alpha: number): Preset | null {
  return PRESETS.find((p) => Math.abs(PRESET_INFO[p].alpha - alpha) < 1e-9) ?? null;
}

const num = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const numOrNull = (x: unknown): number | null => (num(x) ? x : null);
const strings = (x: unknown): string[] => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : []);

/** The value of an `ok` result of `report` when it is a finite number. */
export function okNumber(report: Report, id: string): number | null {
  const m = metric(report, id);
  return m && m.status === 'ok' && num(m.value) ? m.value : null;
}

/**
 * The candidate a report stands for: its `risk_r` and `utility_u` (as the core's
 * `Report::candidate`), or the id of the one that has no value.
 */
export function candidateOf(name: string, report: Report): Candidate | { missing: 'risk_r' | 'utility_u' } {
  const risk = okNumber(report, 'risk_r');
  if (risk === null) return { missing: 'risk_r' };
  const utility = okNumber(report, 'utility_u');
  if (utility === null) return { missing: 'utility_u' };
  return { name, risk_r: risk, utility_u: utility };
}

// --- one report ------------------------------------------------------------------------------

export interface ExternalRisk {
  value: number;
  matchRate: number | null;
  matched: number | null;
  records: number | null;
  /** The QIs matched against the reference table, and those it lacks. */
  attributes: string[];
  notInExternal: string[];
  externalRows: number | null;
}

export function externalRisk(report: Report): ExternalRisk | null {
  const m = metric(report, 'r_external');
  if (!m || m.status !== 'ok' || !num(m.value)) return null;
  const d = isRecord(m.details) ? m.details : {};
  const rate = metric(report, 'r_external_match_rate');
  const rd = rate && isRecord(rate.details) ? rate.details : {};
  return {
    value: m.value,
    matchRate: rate && rate.status === 'ok' ? numOrNull(rate.value) : null,
    matched: numOrNull(rd.matched_records),
    records: numOrNull(rd.records),
    attributes: strings(d.a_ext),
    notInExternal: strings(d.not_in_external),
    externalRows: numOrNull(d.external_rows),
  };
}

/** `r_external_probability` with its per-attribute factors M_a, or `r_external_correlation`
 *  with its per-attribute correlations. */
export function matchingProbability(
  report: Report,
  id: 'r_external_probability' | 'r_external_correlation' = 'r_external_probability',
): { value: number; perAttribute: [string, number][] } | null {
  const m = metric(report, id);
  if (!m || m.status !== 'ok' || !num(m.value)) return null;
  const per = isRecord(m.details) && isRecord(m.details.per_attribute) ? m.details.per_attribute : {};
  return { value: m.value, perAttribute: Object.entries(per).filter((e): e is [string, number] => num(e[1])) };
}

export type Combination = RiskCombination;

export interface OverallRisk {
  risk: number;
  safety: number | null;
  rInternal: number | null;
  rExternal: number | null;
  /** null = no external risk, so R = R_internal. */
  combination: Combination | null;
  weightInternal: number | null;
}

export function overallRisk(report: Report): OverallRisk | null {
  const m = metric(report, 'risk_r');
  if (!m || m.status !== 'ok' || !num(m.value)) return null;
  const d = isRecord(m.details) ? m.details : {};
  const c = d.combination;
  const p = isRecord(m.params) ? m.params : {};
  return {
    risk: m.value,
    safety: okNumber(report, 'safety'),
    rInternal: numOrNull(d.r_internal),
    rExternal: numOrNull(d.r_external),
    combination: c === 'max' || c === 'weighted' || c === 'sum' ? c : null,
    weightInternal: numOrNull(p.risk_weight_internal) ?? numOrNull(report.params.risk_weight_internal),
  };
}

export interface RutResult {
  value: number;
  alpha: number;
  utility: number;
  risk: number;
  presets: Partial<Record<Preset, number>>;
}

export function rutResult(report: Report): RutResult | null {
  const m = metric(report, 'rut');
  if (!m || m.status !== 'ok' || !num(m.value) || !isRecord(m.details)) return null;
  const d = m.details;
  if (!num(d.alpha) || !num(d.utility_u) || !num(d.risk_r)) return null;
  const presets: Partial<Record<Preset, number>> = {};
  if (isRecord(d.presets)) for (const p of PRESETS) if (num(d.presets[p])) presets[p] = d.presets[p] as number;
  return { value: m.value, alpha: d.alpha, utility: d.utility_u, risk: d.risk_r, presets };
}

// --- the choice among candidates -----------------------------------------------------------------

export interface SweepRow {
  alpha: number;
  rut: number[];
  argmax: string;
}

export interface Sweep {
  rows: SweepRow[];
  stable: boolean;
}

export function sweepOf(results: MetricResult[]): Sweep | null {
  const m = results.find((r) => r.id === 'rut_alpha_sweep');
  if (!m || m.status !== 'ok' || !Array.isArray(m.value)) return null;
  const rows = m.value.flatMap((r): SweepRow[] =>
    isRecord(r) && num(r.alpha) && Array.isArray(r.rut_per_candidate) && r.rut_per_candidate.every(num) && typeof r.argmax === 'string'
      ? [{ alpha: r.alpha, rut: r.rut_per_candidate as number[], argmax: r.argmax }]
      : [],
  );
  return { rows, stable: isRecord(m.details) && m.details.stable === true };
}

/** The smallest weight meeting a threshold (balance.md Sec 5.2), or null when none does. */
export type DerivedWeight = { alpha: number; beta: number } | null;

export interface Choice {
  /** The chosen candidate, or null (`reason`: no_feasible_release, no_candidates, no_quasi_identifiers). */
  chosen: string | null;
  reason: string | null;
  alpha: number;
  tauR: number | null;
  tauU: number | null;
  /** `rut` of every candidate at `alpha`, in input order. */
  rut: number[];
  feasible: string[];
  derived: { tau_r?: DerivedWeight; tau_u?: DerivedWeight };
}

const derivedWeight = (x: unknown): DerivedWeight => (isRecord(x) && num(x.alpha) && num(x.beta) ? { alpha: x.alpha, beta: x.beta } : null);

export function choiceOf(results: MetricResult[]): Choice | null {
  const m = results.find((r) => r.id === 'rut_constrained_choice');
  if (!m || !isRecord(m.details)) return null;
  const d = m.details;
  const rut = Array.isArray(d.rut_per_candidate) ? d.rut_per_candidate.filter(num) : [];
  const weights = isRecord(d.derived_weights) ? d.derived_weights : {};
  const derived: Choice['derived'] = {};
  if ('tau_r' in weights) derived.tau_r = derivedWeight(weights.tau_r);
  if ('tau_u' in weights) derived.tau_u = derivedWeight(weights.tau_u);
  return {
    chosen: m.status === 'ok' && typeof m.value === 'string' ? m.value : null,
    reason: m.reason,
    alpha: num(d.alpha) ? d.alpha : DEFAULT_ALPHA,
    tauR: numOrNull(d.tau_r),
    tauU: numOrNull(d.tau_u),
    rut,
    feasible: strings(d.feasible),
    derived,
  };
}

/**
 * The candidates no other candidate beats on both counts (lower or equal risk and higher or
 * equal utility, one of them strictly), by risk: the Pareto frontier of the risk-utility map.
 */
export function paretoFrontier(candidates: readonly Candidate[]): Candidate[] {
  const dominated = (c: Candidate) =>
    candidates.some((d) => d !== c && d.risk_r <= c.risk_r && d.utility_u >= c.utility_u && (d.risk_r < c.risk_r || d.utility_u > c.utility_u));
  return candidates.filter((c) => !dominated(c)).sort((a, b) => a.risk_r - b.risk_r || b.utility_u - a.utility_u);
}
