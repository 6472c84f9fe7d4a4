// Attribute disclosure: what the table gives away about a patient's sensitive value (such as a
// diagnosis) without singling out their record. Per sensitive column: the worst value of each
// measure with one sentence, the class farthest from the whole file with a chart of its
// values, and the classes failing the user's l, t and beta. With several sensitive columns, an
// overview with the worst case over all of them comes first.

import { failingClasses, worstClassView } from './attribute-classes';
import { alphaK, correlationPerQi, saMetric, saMinMeanMax, saNumber, sensitiveColumns } from '../../shared/attribute-data';
import { el, type Child } from '../../ui/dom';
import { explain, reasonText } from '../../ui/explain';
import { count, score } from '../../ui/format';
import { isRecord, metric, type Report } from '../../shared/report';
import { detailNumber, type MinMeanMax } from '../../shared/suite';
import { help, section } from '../../ui/view-kit';

const NO_SENSITIVE =
  'Attribute disclosure (what the table reveals about a patient’s diagnosis or other confidential value) needs a sensitive column: in step 2, set that column’s role to "Sensitive" and run the audit again.';

interface Measure {
  id: string;
  name: string;
  value: Child;
  sub?: Child;
  sentence?: string;
}

/** "—" and the reason when the metric has no value. */
function missing(report: Report, id: string, sa: string): { value: string; sub: string } {
  const m = saMetric(report, id, sa);
  const why = m ? reasonText(m.reason) : 'not reported by this version of the audit';
  return { value: '—', sub: `${why.charAt(0).toUpperCase()}${why.slice(1)}.` };
}

const spread = (v: MinMeanMax) => `mean ${score(v.mean)} · lowest ${score(v.min)}`;

function tMeasure(report: Report, sa: string): Measure {
  const m = saMetric(report, 't_closeness', sa);
  const t = saNumber(report, 't_closeness', sa);
  if (t === null) return { id: 't_closeness', name: 't-closeness', ...missing(report, 't_closeness', sa) };
  const distance = isRecord(m?.details) && typeof m.details.distance === 'string' ? m.details.distance : null;
  const equal = saNumber(report, 't_closeness_equal', sa);
  const generalized = m?.warnings.includes('sa_generalized_treated_as_categorical') ?? false;
  const reference = isRecord(m?.details) && m.details.reference === 'original' ? ', against the original file' : '';
  const convention =
    distance === 'ordered'
      ? `ordered distance (numeric or ordinal column)${reference}`
      : distance === 'hierarchical'
        ? `hierarchical distance (declared hierarchy)${reference}`
        : distance === 'equal'
          ? generalized
            ? `equal distance (numbers with ranges, compared as text)${reference}`
            : `equal distance (text column)${reference}`
          : 'distance not stated';
  return {
    id: 't_closeness',
    name: 't-closeness',
    value: score(t),
    sub: el(
      'span',
      {},
      el('span', { class: 'distance', 'data-distance': distance ?? '' }, convention),
      distance !== 'equal' && equal !== null ? `; equal distance would give ${score(equal)}` : null,
    ),
  };
}

function measures(report: Report, sa: string): Measure[] {
  const n = (id: string) => saNumber(report, id, sa);
  const or = (id: string, name: string, make: (x: number) => Omit<Measure, 'id' | 'name'>): Measure => {
    const x = n(id);
    return x === null ? { id, name, ...missing(report, id, sa) } : { id, name, ...make(x) };
  };
  const cMetric = saMetric(report, 'recursive_cl_c', sa);
  const recL = detailNumber(cMetric, 'l') ?? report.params.recursive_l ?? 2;
  const recC = detailNumber(saMetric(report, 'recursive_cl_l', sa), 'c') ?? report.params.recursive_c ?? 2;
  const lMax = n('l_distinct_max');
  const floor = n('l_entropy_floor');
  const enhanced = saMetric(report, 'beta_likeness_enhanced', sa);
  const violations = detailNumber(enhanced, 'violations');
  const log2 = n('delta_disclosure_log2');
  const ak = alphaK(report, sa);
  const co = saMinMeanMax(report, 'scorr_correlation_risk_qi', sa);
  const perQi = correlationPerQi(report, sa);
  const markov = saMinMeanMax(report, 'scorr_markov_risk', sa);
  return [
    or('l_distinct', 'l-diversity (distinct values)', (x) => ({ value: count(x), sub: lMax === null ? null : `at most ${count(lMax)} possible` })),
    or('l_entropy', 'Entropy l-diversity', (x) => ({ value: score(x), sub: floor === null ? null : `holds for l = ${count(floor)}` })),
    cMetric?.reason === 'l_exceeds_distinct'
      ? { id: 'recursive_cl_c', name: `Recursive (c,l)-diversity, l = ${recL}`, value: 'no c works', sub: 'Some class has fewer than l different values.' }
      : or('recursive_cl_c', `Recursive (c,l)-diversity, l = ${recL}`, (x) => ({
          value: `c above ${score(x)}`,
          sub: `smallest whole c: ${count(detailNumber(cMetric, 'c_int'))}`,
        })),
    or('recursive_cl_l', `Recursive (c,l)-diversity, c = ${recC}`, (x) => ({ value: `l = ${count(x)}` })),
    tMeasure(report, sa),
    // With a declared hierarchy only (otherwise its reason is no_hierarchy and the row is left out).
    ...(saMetric(report, 't_closeness_hierarchical', sa)?.reason === 'no_hierarchy' || !saMetric(report, 't_closeness_hierarchical', sa)
      ? []
      : [or('t_closeness_hierarchical', 't-closeness, hierarchical distance', (x) => ({ value: score(x) }))]),
    or('beta_likeness_basic', 'β-likeness', (x) => ({ value: score(x) })),
    enhanced?.reason === 'unsatisfiable'
      ? {
          id: 'beta_likeness_enhanced',
          name: 'Enhanced β-likeness (ARX)',
          value: 'cannot be satisfied',
          sub: violations === null ? null : `${count(violations)} class–value ${violations === 1 ? 'pair breaks' : 'pairs break'} the −ln limit`,
        }
      : or('beta_likeness_enhanced', 'Enhanced β-likeness (ARX)', (x) => ({ value: score(x) })),
    or('delta_disclosure', 'δ-disclosure', (x) => ({
      value: `${score(x)} (natural log)`,
      sub: log2 === null ? null : `${score(log2)} in log base 2`,
    })),
    ak
      ? { id: 'alpha_k_anonymity', name: '(α,k)-anonymity', value: `α ${score(ak.alpha)}`, sub: ak.k === null ? null : `k = ${count(ak.k)}` }
      : { id: 'alpha_k_anonymity', name: '(α,k)-anonymity', ...missing(report, 'alpha_k_anonymity', sa) },
    co
      ? { id: 'scorr_correlation_risk_qi', name: 'SCORR correlation risk', value: `highest ${score(co.max)}`, sub: spread(co) }
      : { id: 'scorr_correlation_risk_qi', name: 'SCORR correlation risk', ...missing(report, 'scorr_correlation_risk_qi', sa) },
    {
      id: 'scorr_correlation_risk_attr',
      name: 'Correlation risk of each quasi-identifier',
      value: perQi.length
        ? el(
            'span',
            { class: 'qi-lines' },
            ...perQi.map((p) => el('span', { class: 'qi-line' }, el('span', { class: 'qi-name' }, p.attribute), ` ${score(p.value?.max)}`)),
          )
        : '—',
      sub: perQi.length ? 'the highest value on each column alone' : null,
    },
    markov
      ? { id: 'scorr_markov_risk', name: 'SCORR Markov risk (information only)', value: `highest ${score(markov.max)}`, sub: spread(markov) }
      : { id: 'scorr_markov_risk', name: 'SCORR Markov risk (information only)', ...missing(report, 'scorr_markov_risk', sa) },
  ];
}

function measureTable(report: Report, sa: string, index: number): HTMLElement {
  const rows = measures(report, sa).map((m) =>
    el(
      'tr',
      { 'data-metric': m.id },
      el('th', { scope: 'row', class: 'measure-name' }, m.name),
      el('td', { class: 'measure-cell' }, el('span', { class: 'measure-value' }, m.value), m.sub ? el('span', { class: 'measure-sub' }, m.sub) : null),
      el('td', { class: 'measure-explain' }, m.sentence ?? explain(m.id)),
    ),
  );
  const caption = `Attribute disclosure measures for ${sa}`;
  return el(
    'div',
    { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': caption, id: `attribute-table-${index}` },
    el(
      'table',
      { class: 'measure-table' },
      el('caption', { class: 'visually-hidden' }, caption),
      el('thead', {}, el('tr', {}, ...['Measure', 'Worst value', 'What it means'].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, ...rows),
    ),
  );
}

/** Several SAs: one row per SA and the worst case over all of them ("*"). */
function overview(report: Report, sas: string[]): HTMLElement {
  const cols: [string, (sa: string) => string][] = [
    ['l (distinct)', (sa) => count(saNumber(report, 'l_distinct', sa))],
    ['Entropy l', (sa) => score(saNumber(report, 'l_entropy', sa))],
    ['t', (sa) => score(saNumber(report, 't_closeness', sa))],
    ['β', (sa) => score(saNumber(report, 'beta_likeness_basic', sa))],
    [
      'Enhanced β',
      (sa) =>
        saMetric(report, 'beta_likeness_enhanced', sa)?.reason === 'unsatisfiable'
          ? 'cannot be satisfied'
          : score(saNumber(report, 'beta_likeness_enhanced', sa)),
    ],
    ['δ (natural log)', (sa) => score(saNumber(report, 'delta_disclosure', sa))],
    ['α', (sa) => score(alphaK(report, sa)?.alpha)],
  ];
  const row = (sa: string) =>
    el(
      'tr',
      { 'data-sensitive': sa, class: sa === '*' ? 'aggregate' : null },
      el('th', { scope: 'row' }, sa === '*' ? 'All sensitive columns (worst case)' : sa),
      ...cols.map(([, f]) => el('td', { class: 'num' }, f(sa))),
    );
  return el(
    'div',
    { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Worst values per sensitive column', id: 'attribute-overview' },
    el(
      'table',
      {},
      el('caption', { class: 'visually-hidden' }, 'Worst values per sensitive column'),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Sensitive column'), ...cols.map(([h]) => el('th', { scope: 'col', class: 'num' }, h)))),
      el('tbody', {}, ...sas.map(row), row('*')),
    ),
  );
}

function thresholdsText(report: Report): string {
  const p = report.params;
  const fmt = (x: number | null | undefined) => (x === null || x === undefined ? 'not checked' : String(x));
  return `Thresholds used: l ${fmt(p.l_threshold)}, t ${fmt(p.t_threshold)}, β ${fmt(p.beta_threshold)}.`;
}

export function attributeView(report: Report): HTMLElement {
  const sas = sensitiveColumns(report);
  const none = sas.length === 0 || metric(report, 'l_distinct')?.reason === 'no_sensitive_attribute';
  if (none) {
    const node = section('Attribute disclosure', 'attribute-title', el('p', { class: 'note', id: 'attribute-none' }, NO_SENSITIVE));
    node.id = 'attribute-section';
    return node;
  }
  const node = section(
    'Attribute disclosure',
    'attribute-title',
    help(
      'Even in a large class, an attacker learns a patient’s sensitive value when the class’s values are all alike or unusual compared with the whole file. ',
      'Each number is the worst over all classes.',
    ),
    el('p', { class: 'attribute-thresholds' }, thresholdsText(report)),
    sas.length > 1 ? el('h4', { class: 'subhead' }, 'All sensitive columns') : null,
    sas.length > 1 ? overview(report, sas) : null,
    ...sas.map((sa, i) =>
      el(
        'div',
        { class: 'sa-block', 'data-sensitive': sa },
        el('h4', { class: 'subhead' }, 'Sensitive column: ', el('span', { class: 'col-name' }, sa)),
        measureTable(report, sa, i),
        el('div', { class: 'sa-grid' }, worstClassView(report, sa, i), failingClasses(report, sa)),
      ),
    ),
  );
  node.id = 'attribute-section';
  return node;
}
