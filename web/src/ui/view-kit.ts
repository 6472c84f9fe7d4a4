// Small building blocks shared by the views: a titled section, a labelled number with its
// sentence, the wording of a metric that could not be computed, a metric's value as text, a
// labelled number input; a rendered part of the results (`View`) and the charts it draws.

import { el, type Child } from './dom';
import { explain, reasonText } from './explain';
import { count, fileValue, percent, plural, score, smallPercent } from './format';
import { metric, type MetricResult, type Report } from '../shared/report';
import { asMinMeanMax, detailString, type Interval } from '../shared/suite';

export function section(title: string, id: string, ...body: Child[]): HTMLElement {
  return el('section', { class: 'result-section', 'aria-labelledby': id }, el('h3', { id }, title), ...body);
}

/** Why a metric is missing, in words, or null when it is there (`ok`). */
export function missingReason(report: Report, id: string): string | null {
  const m = metric(report, id);
  if (!m) return 'Not reported by this version of the audit.';
  if (m.status === 'ok') return null;
  const cause = detailString(m, 'cause');
  const why = reasonText(m.reason) + (cause ? ` (${reasonText(cause)})` : '');
  return `${m.status === 'error' ? 'Could not be computed' : 'Not available'}: ${why}.`;
}

/** Metrics whose value is a share of records (shown as a percentage). */
const SHARE_IDS = new Set([
  'sample_uniqueness',
  'rare_combination_rate',
  'prosecutor_records_at_risk',
  'prosecutor_records_affected_by_highest_risk',
  'prosecutor_records_affected_by_lowest_risk',
  'journalist_records_at_risk',
  'global_risk',
  'r_external_match_rate',
]);
/** Metrics whose value is a risk score in [0, 1] (4 decimals, even when it is 0 or 1). */
const SCORE_IDS =
  /^(perm_cm|perm_um|r_internal|avg_risk_class_mean|prosecutor_|journalist_|marketer_|r_internal_weighted|qi_distinction|qi_separation|t_closeness|utility_u$|l_total$|s_total$|attribute_loss$|attribute_similarity$|gen_loss|proximity_loss|entropy_loss$|consistency_loss$|cosine_similarity$|jaccard_|ctbil_normalized$|il1s$|eigen_diff$|r_external$|r_unique$|r_external_probability$|risk_r$|safety$|rut$|rut_f1$)/;

function primitiveText(x: unknown): string {
  if (typeof x === 'number') return count(x);
  if (x === null) return '—';
  return String(x);
}

/** A metric value as text, following the display rules; large structured values point to the JSON. */
export function metricText(m: MetricResult, report: Report): string {
  if (m.status !== 'ok') return missingReason(report, m.id) ?? m.status;
  const v = m.value;
  if (typeof v === 'number') {
    if (SHARE_IDS.has(m.id)) return percent(v);
    if (m.id.startsWith('population_uniqueness_')) return smallPercent(v);
    return SCORE_IDS.test(m.id) ? score(v) : count(v);
  }
  if (v === null || typeof v !== 'object') return primitiveText(v);
  const mmm = asMinMeanMax(v);
  if (mmm) return `min ${score(mmm.min)}, mean ${score(mmm.mean)}, max ${score(mmm.max)}`;
  const entries = Array.isArray(v) ? [] : Object.entries(v);
  if (entries.length > 0 && entries.length <= 6 && entries.every(([, x]) => x === null || typeof x !== 'object')) {
    return entries.map(([k, x]) => `${k.replace(/_/g, ' ')}: ${primitiveText(x)}`).join(', ');
  }
  return Array.isArray(v) ? `${plural(v.length, 'entry', 'entries')} (see the JSON report)` : 'see the JSON report';
}

/** A labelled number with its plain sentence (`data-metric` for tests and styling). */
export function fact(id: string, label: string, value: string, sentence: string = explain(id)): HTMLElement {
  return el(
    'div',
    { class: 'fact', 'data-metric': id },
    el('dt', {}, label),
    el('dd', {}, el('span', { class: 'fact-value' }, value), el('span', { class: 'fact-explain' }, sentence)),
  );
}

/** A confidence interval in words: "95% interval: 6.80% to 7.10%" (issue 15; docs/ci.md). */
export function intervalText(ci: Interval, format: (x: number) => string): string {
  return `${Number((ci.level * 100).toFixed(1))}% interval: ${format(ci.low)} to ${format(ci.high)}`;
}

/** `node` (a `fact`) with its value's confidence interval beside the value, when there is one. */
export function withInterval(node: HTMLElement, ci: Interval | null, format: (x: number) => string): HTMLElement {
  if (!ci) return node;
  const title =
    ci.method === 'class_bootstrap_percentile'
      ? `Bootstrap over the classes, ${ci.seed === null ? '' : `seed ${ci.seed}, `}covering the sampling variability of the file given the model, not the model's own error.`
      : 'From the spread of the classes (linearisation), covering the sampling variability of the file, not the model’s own error.';
  node.querySelector('.fact-value')?.after(el('span', { class: 'fact-interval', 'data-ci': `${ci.low},${ci.high}`, title }, intervalText(ci, format)));
  return node;
}

/** `fact`, or the reason the metric is missing in place of its sentence. */
export function reportFact(report: Report, id: string, label: string, value: string, sentence?: string): HTMLElement {
  const missing = missingReason(report, id);
  return missing ? fact(id, label, '—', missing) : fact(id, label, value, sentence);
}

export function facts(...items: Child[]): HTMLElement {
  return el('dl', { class: 'facts' }, ...items);
}

/** A cell value of the user's file as the results show it: a blank cell, a suppressed `*` and
 * an empty text said in words, a long value cut (fileValue), anything else a dash. */
export function cellValue(v: unknown): Child {
  if (v === null) return el('span', { class: 'blank' }, '(blank)');
  if (v === '*') return el('span', { class: 'blank' }, '* (suppressed)');
  if (typeof v !== 'string') return '—';
  return v === '' ? el('span', { class: 'blank' }, '(empty)') : fileValue(v);
}

/** A help paragraph. */
export function help(text: Child, ...more: Child[]): HTMLElement {
  return el('p', { class: 'help' }, text, ...more);
}

/** A labelled number input in [min, 1] with its help; `value` null leaves it empty ("none"). */
export function numberField(
  id: string,
  label: string,
  help: string,
  value: number | null,
  min: number,
  step: number,
): { node: HTMLElement; input: HTMLInputElement } {
  const initial = value === null ? { placeholder: 'none' } : { value };
  const input = el('input', { id, type: 'number', min, max: 1, step, ...initial, inputmode: 'decimal', 'aria-describedby': `${id}-help` });
  const node = el('div', { class: 'number-field' }, el('label', { for: id }, label), input, el('p', { class: 'help', id: `${id}-help` }, help));
  return { node, input };
}

/** A drawn chart (charts/): destroyed when its panel is cleared. */
export interface Chart {
  destroy(): void;
}

/** A rendered part of the results; `draw` adds its charts once the panel is visible. */
export interface View {
  nodes: Child[];
  draw?: () => Chart[];
}
