// Small building blocks shared by the result views: a titled section, a labelled number with
// its sentence, and the wording of a metric that could not be computed.

import type { Chart } from '../charts/charts';
import { el, type Child } from './dom';
import { explain, reasonText } from './explain';
import { fileValue } from './format';
import { metric, type Report } from '../shared/report';
import { detailString } from '../shared/suite';

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

/** A labelled number with its plain sentence (`data-metric` for tests and styling). */
export function fact(id: string, label: string, value: string, sentence: string = explain(id)): HTMLElement {
  return el(
    'div',
    { class: 'fact', 'data-metric': id },
    el('dt', {}, label),
    el('dd', {}, el('span', { class: 'fact-value' }, value), el('span', { class: 'fact-explain' }, sentence)),
  );
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

/** A rendered part of the results; `draw` adds its charts once the panel is visible. */
export interface View {
  nodes: Child[];
  draw?: () => Chart[];
}
