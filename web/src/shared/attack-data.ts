// The attacks on a release (spec peer-measures.md Sec 5.8) as the page reads them from the
// Report: per attack its risk with the interval, the rates of the attack, of the control and
// of a random guess, the counts, and the singling-out queries (record-level values).

import { ATTACK_DEFAULTS, type AttackParams } from './contract';
import { isRecord, type MetricResult, type Report } from './report';

/** The core's default attack settings, as a fresh object the form may change. */
export const defaultAttacks = (): AttackParams => ({ ...ATTACK_DEFAULTS, so_columns: [], inf_aux: [], inf_secrets: [] });

export type AttackKind = 'singling_out' | 'linkability' | 'inference';

export const ATTACK_IDS: Readonly<Record<AttackKind, string>> = {
  singling_out: 'anonymeter_singling_out_risk',
  linkability: 'anonymeter_linkability_risk',
  inference: 'anonymeter_inference_risk',
};

/** One attack's result (one per secret for inference). */
export interface AttackResult {
  kind: AttackKind;
  metric: MetricResult;
  /** The secret column of an inference attack. */
  secret: string | null;
  /** null when the attack could not run (see `metric.reason`). */
  risk: { value: number; low: number; high: number; level: number } | null;
  /** Without the control table: the attack's own success, as a risk. */
  uncorrected: number | null;
  attackRate: number | null;
  controlRate: number | null;
  baselineRate: number | null;
  nAttacks: number | null;
  successes: number | null;
  controlSuccesses: number | null;
  seed: number | null;
  /** Singling out: the first kept queries, and whether each singles out an original record. */
  queries: { query: string; singlesOut: boolean }[];
  /** Singling out: how many queries singled out a released record. */
  nQueries: number | null;
}

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);

function read(kind: AttackKind, m: MetricResult): AttackResult {
  const d = isRecord(m.details) ? m.details : {};
  const ci = isRecord(d.ci) ? d.ci : {};
  const value = num(m.value);
  const low = num(ci.low);
  const high = num(ci.high);
  const uncorrected = isRecord(d.risk_without_control) ? num(d.risk_without_control.value) : null;
  const queries = Array.isArray(d.queries)
    ? d.queries.filter(isRecord).map((q) => ({ query: String(q.query ?? ''), singlesOut: q.singles_out_original === true }))
    : [];
  return {
    kind,
    metric: m,
    secret: isRecord(m.scope) && typeof m.scope.sensitive === 'string' ? m.scope.sensitive : null,
    risk: m.status === 'ok' && value !== null && low !== null && high !== null ? { value, low, high, level: num(ci.level) ?? 0.95 } : null,
    uncorrected,
    attackRate: num(d.attack_rate),
    controlRate: num(d.control_rate),
    baselineRate: num(d.baseline_risk),
    nAttacks: num(d.n_attacks),
    successes: num(d.k_att),
    controlSuccesses: num(d.k_ctl),
    seed: num(d.seed),
    queries,
    nQueries: num(d.n_queries),
  };
}

/** The attacks of the report, in the order singling out, linkability, inference; empty when
 * the attacks were not asked for. */
export function attacksOf(report: Report): AttackResult[] {
  const out: AttackResult[] = [];
  for (const kind of ['singling_out', 'linkability', 'inference'] as const) {
    for (const m of report.metrics) if (m.id === ATTACK_IDS[kind]) out.push(read(kind, m));
  }
  return out;
}

/** Whether the attacks were run against a control table. */
export const hadControl = (report: Report): boolean =>
  report.metrics.some((m) => m.family === 'attack' && isRecord(m.params) && m.params.control_given === true);
