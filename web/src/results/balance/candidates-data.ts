// The measures of a comparison of candidate releases: which table-level results appear as rows
// of the candidates table, how each is read from a report, and in words why a candidate was
// not eligible for the choice. Reads reports only; scores come from the core.

import { candidateOf, type Candidate } from '../../shared/balance-data';
import { decimal, score } from '../../ui/format';
import { isRecord, type MetricResult, type Report } from '../../shared/report';
import { metricText } from '../../ui/view-kit';

export type Better = 'lower' | 'higher' | null;

export interface Measure {
  id: string;
  label: string;
  better: Better;
  group: 'Risk' | 'Utility' | 'Balance';
  /** Display text of an `ok` result (default: the page's display rules). */
  text?: (m: MetricResult, report: Report) => string | null;
  /** The number shown, for sorting and tests (default: a numeric value). */
  number?: (m: MetricResult) => number | null;
}

const queryMean = (m: MetricResult): number | null => (isRecord(m.value) && typeof m.value.mean === 'number' ? m.value.mean : null);

/** The rows of the candidates table, in order; a row no candidate has a value for is left out. */
export const MEASURES: readonly Measure[] = [
  { id: 'k_anonymity', label: 'k-anonymity (smallest group)', better: 'higher', group: 'Risk' },
  { id: 'sample_uniqueness', label: 'Records unique in the file', better: 'lower', group: 'Risk' },
  { id: 'r_internal', label: 'Risk inside the file (R_internal)', better: 'lower', group: 'Risk' },
  { id: 'prosecutor_highest_risk', label: 'Highest record risk', better: 'lower', group: 'Risk' },
  { id: 'r_external', label: 'Linkage risk with the reference (R_external)', better: 'lower', group: 'Risk' },
  { id: 'r_external_match_rate', label: 'Records with a look-alike in the reference', better: 'lower', group: 'Risk' },
  { id: 'r_unique', label: 'Linkage risk of unique records', better: 'lower', group: 'Risk' },
  { id: 'l_distinct', label: 'Distinct l-diversity (all sensitive columns)', better: 'higher', group: 'Risk' },
  { id: 't_closeness', label: 't-closeness (all sensitive columns)', better: 'lower', group: 'Risk' },
  { id: 'perm_cm1', label: 'Protection of the record order, strongest link (CM1)', better: 'higher', group: 'Risk' },
  { id: 'perm_cm2', label: 'Protection of the record order, every link (CM2)', better: 'higher', group: 'Risk' },
  { id: 'perm_cm3', label: 'Protection against matching by sorting (CM3)', better: 'higher', group: 'Risk' },
  { id: 'risk_r', label: 'Overall risk R', better: 'lower', group: 'Risk' },
  { id: 'safety', label: 'Safety 1 − R', better: 'higher', group: 'Risk' },
  { id: 'utility_u', label: 'Utility U', better: 'higher', group: 'Utility' },
  { id: 'l_total', label: 'Loss (L total)', better: 'lower', group: 'Utility' },
  { id: 's_total', label: 'Similarity (S total)', better: 'higher', group: 'Utility' },
  { id: 'il1s', label: 'IL1s: distance of the numbers', better: 'lower', group: 'Utility' },
  { id: 'ctbil_normalized', label: 'Cross-count difference per cell (CTBIL)', better: 'lower', group: 'Utility' },
  { id: 'eigen_diff', label: 'Change of the correlation structure', better: 'lower', group: 'Utility' },
  { id: 'perm_um', label: 'Co-variation kept (UM, permutation model)', better: 'higher', group: 'Utility' },
  {
    id: 'query_accuracy_summary',
    label: 'Query error (mean relative error)',
    better: 'lower',
    group: 'Utility',
    text: (m) => {
      const x = queryMean(m);
      return x === null ? null : `${decimal(x, 2)}%`;
    },
    number: queryMean,
  },
  {
    id: 'rut_ratio',
    label: 'Utility per unit of risk (U / R, not used to rank)',
    better: null,
    group: 'Balance',
    text: (m) => (typeof m.value === 'number' ? decimal(m.value, 4) : null),
  },
];

/**
 * The table-level result `id` of a report: no attribute, and for attribute-disclosure ids the
 * worst case over the sensitive columns (`scope.sensitive = "*"`).
 */
export function tableResult(report: Report, id: string): MetricResult | undefined {
  return report.metrics.find((m) => {
    if (m.id !== id) return false;
    const { scope } = m;
    return scope.attribute === null && scope.subset === null && (scope.sensitive === null || scope.sensitive === '*');
  });
}

export interface Cell {
  text: string;
  number: number | null;
  /** Why there is no value, in the status's words. */
  missing: string | null;
}

export function cellOf(report: Report, measure: Measure): Cell | null {
  const m = tableResult(report, measure.id);
  if (!m) return null;
  if (m.status !== 'ok') return { text: '—', number: null, missing: metricText(m, report) };
  const text = measure.text ? measure.text(m, report) : metricText(m, report);
  const number = measure.number ? measure.number(m) : typeof m.value === 'number' && Number.isFinite(m.value) ? m.value : null;
  return { text: text ?? '—', number, missing: null };
}

/** A compared file: its (unique) name, its report and what `choose` takes from it. */
export interface Entry {
  name: string;
  report: Report;
  candidate: Candidate | null;
  /** The result that is missing when `candidate` is null. */
  missing: 'risk_r' | 'utility_u' | null;
}

/** Names made unique ("a.csv", "a.csv (2)"), so the choice can name each candidate. */
export function entries(names: readonly string[], reports: readonly Report[]): Entry[] {
  const seen = new Map<string, number>();
  return reports.map((report, i) => {
    const base = names[i] ?? `candidate ${i + 1}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const name = n === 1 ? base : `${base} (${n})`;
    const c = candidateOf(name, report);
    return 'missing' in c ? { name, report, candidate: null, missing: c.missing } : { name, report, candidate: c, missing: null };
  });
}

/** Why a scored candidate is outside the limits, in words ([] when it is within them). */
export function infeasibleBecause(c: Candidate, tauR: number | null, tauU: number | null): string[] {
  const out: string[] = [];
  if (tauR !== null && c.risk_r > tauR) out.push(`its risk R ${score(c.risk_r)} is above τ_R ${Number(tauR.toFixed(4))}`);
  if (tauU !== null && c.utility_u < tauU) out.push(`its utility U ${score(c.utility_u)} is below τ_U ${Number(tauU.toFixed(4))}`);
  return out;
}
