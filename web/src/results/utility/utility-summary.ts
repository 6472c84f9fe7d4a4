// The utility summary: utility U with the total loss and similarity as cards ([RUT], spec
// utility.md Sec 7) and a paragraph on what each looks at and how U follows from them, then
// the table-level measures of statistical disclosure control (Sec 8: changed cells,
// contingency tables, IL1s, eigenvalues, correlations) and query accuracy (Sec 10), one plain
// sentence per number. A measure the report does not hold is left out.

import { el } from '../../ui/dom';
import { explain } from '../../ui/explain';
import { count, decimal, describeQuery, score } from '../../ui/format';
import { isRecord, type MetricResult, type Report, type UtilityQuery } from '../../shared/report';
import { detailNumber, detailString } from '../../shared/suite';
import { discrepancy, okNumber, querySummary, tableMetric } from '../../shared/utility-data';
import { fact, facts, missingReason } from '../../ui/view-kit';

function card(report: Report, m: MetricResult, title: string, direction: string): HTMLElement {
  const missing = missingReason(report, m.id);
  return el(
    'article',
    { class: 'card', 'data-metric': m.id },
    el('h5', { class: 'card-title' }, title),
    el('p', { class: 'card-value' }, missing ? '—' : score(okNumber(m))),
    el('p', { class: 'card-sub' }, direction),
    el('p', { class: 'card-explain' }, missing ?? explain(m.id)),
  );
}

/** Utility U, L_total and S_total; null when the report has none of them. */
function totals(report: Report): HTMLElement | null {
  const items = (
    [
      ['utility_u', 'Utility U', 'Higher = more useful'],
      ['l_total', 'Loss (L total)', 'Lower = less detail lost'],
      ['s_total', 'Similarity (S total)', 'Higher = closer to the original'],
    ] as const
  ).flatMap(([id, title, direction]) => {
    const m = tableMetric(report, id);
    return m ? [card(report, m, title, direction)] : [];
  });
  return items.length ? el('div', { class: 'cards utility-totals' }, ...items) : null;
}

/** A loss at least this high means no record keeps its own values (a synthetic release, noise). */
const LOSS_OF_RECORDS = 0.9;
/** A similarity or UM at least this high means the table as a whole is kept. */
const KEPT_AS_A_WHOLE = 0.8;

/**
 * What the loss, the similarity, U and UM each look at, with this report's figures, and how U
 * follows from L and S. Loss compares each record with its own original; similarity and UM
 * compare the tables as wholes, so a loss of 1 beside a UM near 1 is not a contradiction: the
 * release kept the columns' distributions and correlations but no record's values. Null
 * without a loss.
 */
function reading(report: Report): HTMLElement | null {
  const l = okNumber(tableMetric(report, 'l_total'));
  if (l === null) return null;
  const s = okNumber(tableMetric(report, 's_total'));
  const uMetric = tableMetric(report, 'utility_u');
  const u = okNumber(uMetric);
  const um = okNumber(tableMetric(report, 'perm_um'));
  const wS = detailNumber(uMetric, 'w_s');
  const wL = detailNumber(uMetric, 'w_l');
  const w = (x: number) => String(Number(x.toFixed(3)));
  const sentences = [
    `Loss (L) ${score(l)} compares each record with its own original: how much detail its released values lost (widened into ranges, blanked out, or moved away from the original value).`,
    s === null ? null : `Similarity (S) ${score(s)} compares each column’s distribution as a whole, whichever record holds each value.`,
    u === null || s === null || wS === null || wL === null
      ? null
      : `U = ${w(wS)} × S + ${w(wL)} × (1 − L) = ${w(wS)} × ${score(s)} + ${w(wL)} × (1 − ${score(l)}) = ${score(u)}.`,
    um === null ? null : `UM ${score(um)} (permutation model, below) compares how the columns vary together, again without pairing records.`,
    l >= LOSS_OF_RECORDS && Math.max(s ?? 0, um ?? 0) >= KEPT_AS_A_WHOLE
      ? `So this release keeps the distributions${um !== null && um >= KEPT_AS_A_WHOLE ? ' and how the columns vary together' : ''}, but not the values of single records, as synthetic or strongly perturbed data do: it serves analyses of the whole table, not look-ups of single records.`
      : null,
  ];
  return el('p', { class: 'utility-reading', id: 'utility-reading' }, sentences.filter((x) => x !== null).join(' '));
}

/** A fact for a table-level result: its value when `ok`, else "—" and the reason. */
function metricFact(
  report: Report,
  id: string,
  label: string,
  value: (m: MetricResult) => string | null,
  sentence?: (m: MetricResult) => string,
): HTMLElement | null {
  const m = tableMetric(report, id);
  if (!m) return null;
  const text = m.status === 'ok' ? value(m) : null;
  if (text === null) return fact(id, label, '—', missingReason(report, id) ?? 'No value.');
  return fact(id, label, text, sentence ? sentence(m) : explain(id));
}

const number4 = (m: MetricResult) => {
  const x = okNumber(m);
  return x === null ? null : decimal(x, 4);
};

/** `missing_count` as "before → after" when it is reported for the whole table. */
function blanks(m: MetricResult): string | null {
  if (!isRecord(m.value)) return typeof m.value === 'number' ? count(m.value) : null;
  const { original, released } = m.value;
  return typeof original === 'number' && typeof released === 'number' ? `${count(original)} → ${count(released)}` : null;
}

function queryFact(report: Report): HTMLElement | null {
  const m = tableMetric(report, 'query_accuracy_summary');
  if (!m) return null;
  const q = querySummary(report);
  if (!q) return fact(m.id, 'Query accuracy', '—', missingReason(report, m.id) ?? 'No query could be evaluated.');
  const value = q.mean === null ? '—' : `${decimal(q.mean, 2)}%`;
  const parts = [
    q.queries === null ? null : `${count(q.queries)} ${q.queries === 1 ? 'query' : 'queries'}`,
    q.max === null ? null : `worst ${decimal(q.max, 2)}%`,
    q.tiers ? `${count(q.tiers.good)} good, ${count(q.tiers.moderate)} moderate, ${count(q.tiers.poor)} poor` : null,
  ].filter((p): p is string => p !== null);
  return fact(m.id, 'Query accuracy (mean relative error)', value, `${parts.length ? `${parts.join('; ')}. ` : ''}${explain(m.id)}`);
}

function sdcFacts(report: Report): HTMLElement | null {
  const items = [
    metricFact(report, 'changed_records', 'Records changed', (m) => (typeof m.value === 'number' ? count(m.value) : null)),
    metricFact(report, 'suppressed_cells', 'Cells blanked out', (m) => (typeof m.value === 'number' ? count(m.value) : null)),
    metricFact(report, 'missing_count', 'Blank cells, original → released', blanks),
    metricFact(report, 'ctbil_normalized', 'Contingency-table loss (per cell)', number4),
    metricFact(report, 'il1s', 'Distance of the numbers (IL1s)', number4),
    metricFact(report, 'eigen_diff', 'Change of the correlation structure (eigenvalues)', number4, (m) => {
      const pct = detailNumber(m, 'percent');
      return `${explain(m.id)}${pct === null ? '' : ` sdcMicro prints it in percent: ${decimal(pct, 2)}.`}`;
    }),
    metricFact(report, 'cor_discrepancy', 'Change of the correlations (mean absolute)', (m) => {
      const d = discrepancy(m);
      return d?.mae === null || d === null ? null : decimal(d.mae, 4);
    }),
    queryFact(report),
  ].filter((x): x is HTMLElement => x !== null);
  return items.length ? facts(...items) : null;
}

/** `params.query` as the page names it, or null when it is not a query. */
function queryOf(m: MetricResult): UtilityQuery | null {
  const q = (m.params as Record<string, unknown> | undefined)?.query;
  if (!isRecord(q) || !Array.isArray(q.group_by) || typeof q.aggregate !== 'string') return null;
  return q as unknown as UtilityQuery;
}

const TIER_LABELS: Readonly<Record<string, string>> = { good: 'good', moderate: 'moderate', poor: 'poor' };

/** Each `query_relative_error`: the query, whose it is, its mean relative error and tier. */
function queryTable(report: Report): HTMLElement | null {
  const results = report.metrics.filter((m) => m.id === 'query_relative_error');
  if (results.length === 0) return null;
  const head = ['Query', 'Source', 'Mean relative error', 'Tier', 'Cells lost', 'Zero in the original'];
  const num = new Set([2, 4, 5]);
  const rows = results.map((m) => {
    const q = queryOf(m);
    const text = q ? describeQuery(q) : '—';
    const source = (m.params as Record<string, unknown> | undefined)?.source === 'user' ? 'user' : 'default';
    const ok = m.status === 'ok' && typeof m.value === 'number' && Number.isFinite(m.value);
    const tier = detailString(m, 'tier');
    const cells = [
      text,
      source === 'user' ? 'yours' : 'default',
      ok ? `${decimal(m.value as number, 2)}%` : (missingReason(report, m.id) ?? m.reason ?? '—'),
      tier ? (TIER_LABELS[tier] ?? tier) : '—',
      count(detailNumber(m, 'lost_cells')),
      count(detailNumber(m, 'zero_cells')),
    ];
    return el(
      'tr',
      { 'data-query': text, 'data-source': source, 'data-tier': tier, 'data-value': ok ? String(m.value) : null },
      ...cells.map((c, i) => el('td', { class: num.has(i) ? 'num' : null }, c)),
    );
  });
  return el(
    'div',
    { class: 'query-results', id: 'query-results' },
    el('h5', {}, 'Queries'),
    el(
      'p',
      { class: 'help' },
      'Each query asked of the original and of the release: the mean relative error of its answers (good below 5%, moderate up to 15%, poor above), the groups of the original the release lost and those whose original answer is zero.',
    ),
    el(
      'div',
      { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Query accuracy per query' },
      el(
        'table',
        {},
        el('caption', { class: 'visually-hidden' }, 'Query accuracy per query'),
        el('thead', {}, el('tr', {}, ...head.map((h, i) => el('th', { scope: 'col', class: num.has(i) ? 'num' : null }, h)))),
        el('tbody', {}, ...rows),
      ),
    ),
  );
}

/** The summary block, or null when the report holds none of its measures. */
export function utilitySummary(report: Report): HTMLElement | null {
  const top = totals(report);
  const sdc = sdcFacts(report);
  const queries = queryTable(report);
  if (!top && !sdc && !queries) return null;
  return el('div', { class: 'utility-block', id: 'utility-summary' }, el('h4', { id: 'utility-summary-title' }, 'Summary'), top, reading(report), sdc, queries);
}
