// The classes behind the attribute-disclosure numbers: the worst class of t-closeness with the
// chart of its sensitive values, and the classes failing the l, t and beta thresholds chosen in
// step 2 (their number, and the first ones listed by their quasi-identifier values).

import { detailClass, failing, saMetric, worstClass, type ClassMap } from '../../shared/attribute-data';
import { distributionChart } from '../../charts/distribution-chart';
import { el, scrollTable, type Child } from '../../ui/dom';
import { count, score } from '../../ui/format';
import type { Report } from '../../shared/report';
import { cellValue, help } from '../../ui/view-kit';

/** "age 30-39 · zip 476**", in QI order. */
export function classText(values: ClassMap, qis: string[]): Child[] {
  const names = qis.length ? qis.filter((q) => q in values) : Object.keys(values);
  return names.flatMap((q, i) => [i > 0 ? ' · ' : null, el('span', { class: 'class-part' }, `${q} `, el('strong', {}, cellValue(values[q])))]);
}

const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

interface Check {
  key: 'l' | 't' | 'beta';
  id: string;
  /** "fewer than l = 3 distinct values" */
  rule: (threshold: string) => string;
  format: (x: number) => string;
}

const CHECKS: readonly Check[] = [
  { key: 'l', id: 'l_distinct', rule: (x) => `fewer than l = ${x} different values`, format: (x) => String(x) },
  { key: 't', id: 't_closeness', rule: (x) => `t-closeness above ${x}`, format: (x) => String(x) },
  { key: 'beta', id: 'beta_likeness_basic', rule: (x) => `β-likeness above ${x}`, format: (x) => String(x) },
];

function failingBlock(report: Report, sa: string, check: Check): HTMLElement {
  const qis = report.params.quasi_identifiers;
  const f = failing(saMetric(report, check.id, sa));
  const holder = (...body: Child[]) => el('div', { class: 'failing', 'data-check': check.key }, ...body);
  if (!f) {
    const what = { l: 'l', t: 't', beta: 'β' }[check.key];
    return holder(el('p', { class: 'failing-line' }, el('strong', {}, `${what}: `), 'not checked (no threshold was given in step 2).'));
  }
  const threshold = f.threshold === null ? '?' : check.format(f.threshold);
  const line = el(
    'p',
    { class: `failing-line${f.classes > 0 ? ' fails' : ''}` },
    el('strong', {}, `${check.rule(threshold)}: `),
    f.classes > 0 ? `${plural(f.classes, 'class fails', 'classes fail')}.` : 'no class fails.',
  );
  if (f.listed.length === 0) return holder(line);
  const more = f.classes > f.listed.length ? ` (the first ${count(f.listed.length)} of ${count(f.classes)})` : '';
  return holder(
    line,
    el(
      'details',
      { class: 'more' },
      el('summary', {}, `Show the failing classes${more}`),
      scrollTable(
        `Classes with ${check.rule(threshold)} for ${sa}`,
        qis,
        f.listed.map((c) => qis.map((q) => cellValue(c[q]))),
      ),
    ),
  );
}

/** The classes failing the user's l, t and beta for one SA. */
export function failingClasses(report: Report, sa: string): HTMLElement {
  return el(
    'div',
    { class: 'failing-classes' },
    el('h5', {}, 'Classes failing your thresholds'),
    help('A class is a group of records sharing the same quasi-identifier values.'),
    ...CHECKS.map((c) => failingBlock(report, sa, c)),
  );
}

/** The worst t-closeness class of one SA and its chart. */
export function worstClassView(report: Report, sa: string, index: number): HTMLElement {
  const qis = report.params.quasi_identifiers;
  const m = saMetric(report, 't_closeness', sa);
  const worst = worstClass(m);
  const box = (...body: Child[]) => el('div', { class: 'worst-class' }, el('h5', {}, 'The class farthest from the whole file'), ...body);
  if (!worst || worst.shares.length === 0) return box(el('p', {}, 'The distribution of the worst class was not reported.'));
  const values = worst.values ?? detailClass(m);
  return box(
    el(
      'p',
      { class: 'worst-class-id' },
      ...(values ? classText(values, qis) : ['(not reported)']),
      worst.size === null ? null : ` (${plural(worst.size, 'record', 'records')})`,
      typeof m?.value === 'number' ? `: t = ${score(m.value)}` : null,
    ),
    distributionChart(worst.shares, worst.distance === 'ordered', `worst-distribution-${index}`),
  );
}
