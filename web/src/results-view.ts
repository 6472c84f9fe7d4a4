// Step 3 of the page: the audit results. Headline cards first (each number with one sentence),
// then the counts, percentiles, k violators, the two charts, the riskiest groups, warnings and
// every metric in a table. Reads the Report only; computes nothing but display formatting.

import { classSizeChart, riskChart, type Chart } from './charts';
import { append, el, scrollTable, type Child } from './dom';
import { explain } from './explain';
import { count, percent, score } from './format';
import {
  kViolators,
  metric,
  numberTriples,
  numberValue,
  percentiles,
  riskiestClasses,
  type Report,
} from './report';

/** Metrics whose value is a share of records (shown as a percentage). */
const SHARE_IDS = new Set([
  'sample_uniqueness',
  'rare_combination_rate',
  'prosecutor_records_at_risk',
  'prosecutor_records_affected_by_highest_risk',
  'prosecutor_records_affected_by_lowest_risk',
]);
/** Metrics whose value is a risk score in [0, 1] (4 decimals). */
const SCORE_IDS = new Set([
  'r_internal',
  'avg_risk_class_mean',
  'prosecutor_lowest_risk',
  'prosecutor_success_rate',
  'prosecutor_highest_risk',
]);

/** A metric value as text, following the display rules; structured values point elsewhere. */
function metricText(report: Report, id: string): string {
  const m = metric(report, id);
  if (!m) return 'not reported';
  if (m.status !== 'ok') return `${m.status.replace('_', ' ')}${m.reason ? `: ${m.reason}` : ''}`;
  const v = m.value;
  if (typeof v === 'number') return SHARE_IDS.has(id) ? percent(v) : SCORE_IDS.has(id) ? score(v) : count(v);
  if (v === null) return '—';
  if (id === 'record_risk' && typeof v === 'object') {
    const r = v as { min?: number; mean?: number; max?: number };
    return `min ${score(r.min)}, mean ${score(r.mean)}, max ${score(r.max)}`;
  }
  return 'see above';
}

/** Why a headline number is missing, or null when it is there. */
function missingReason(report: Report, id: string): string | null {
  const m = metric(report, id);
  if (!m) return 'Not reported by this version of the audit.';
  if (m.status === 'ok') return null;
  return `Not available (${m.status.replace('_', ' ')}${m.reason ? `: ${m.reason}` : ''}).`;
}

function card(report: Report, id: string, title: string, value: string, sub: Child = null): HTMLElement {
  const missing = missingReason(report, id);
  return el(
    'article',
    { class: 'card', 'data-metric': id },
    el('h4', { class: 'card-title' }, title),
    el('p', { class: 'card-value' }, value),
    sub ? el('p', { class: 'card-sub' }, sub) : null,
    el('p', { class: 'card-explain' }, missing ?? explain(id)),
  );
}

function headlineCards(report: Report): HTMLElement {
  const n = numberValue(report, 'n_records');
  const atRisk = numberValue(report, 'prosecutor_records_at_risk');
  const tau = report.params.threshold;
  const highestShare = numberValue(report, 'prosecutor_records_affected_by_highest_risk');
  const lowestShare = numberValue(report, 'prosecutor_records_affected_by_lowest_risk');
  return el(
    'div',
    { class: 'cards' },
    card(report, 'k_anonymity', 'k-anonymity', count(numberValue(report, 'k_anonymity'))),
    card(
      report,
      'sample_uniques',
      'Unique records',
      count(numberValue(report, 'sample_uniques')),
      `${percent(numberValue(report, 'sample_uniqueness'))} of audited records`,
    ),
    card(
      report,
      'r_internal',
      'Average risk (R_internal)',
      score(numberValue(report, 'r_internal')),
      `Prosecutor average risk: ${score(numberValue(report, 'prosecutor_success_rate'))}`,
    ),
    card(
      report,
      'prosecutor_highest_risk',
      'Highest risk',
      score(numberValue(report, 'prosecutor_highest_risk')),
      highestShare === null ? null : `${percent(highestShare)} of records carry it`,
    ),
    card(
      report,
      'prosecutor_lowest_risk',
      'Lowest risk',
      score(numberValue(report, 'prosecutor_lowest_risk')),
      lowestShare === null ? null : `${percent(lowestShare)} of records carry it`,
    ),
    card(
      report,
      'prosecutor_records_at_risk',
      `Records at risk (above τ = ${tau})`,
      percent(atRisk),
      atRisk !== null && n !== null ? `about ${count(Math.round(atRisk * n))} of ${count(n)} records` : null,
    ),
  );
}

function fact(id: string, label: string, value: string): HTMLElement {
  return el(
    'div',
    { class: 'fact', 'data-metric': id },
    el('dt', {}, label),
    el('dd', {}, el('span', { class: 'fact-value' }, value), el('span', { class: 'fact-explain' }, explain(id))),
  );
}

function counts(report: Report): HTMLElement {
  const c = (id: string) => count(numberValue(report, id));
  const p = percentiles(report);
  return el(
    'dl',
    { class: 'facts' },
    fact('n_records_total', 'Rows in the file', c('n_records_total')),
    fact('n_records', 'Records audited', c('n_records')),
    fact('n_suppressed_records', 'Suppressed rows', c('n_suppressed_records')),
    fact('n_dropped_records', 'Dropped rows', c('n_dropped_records')),
    fact('n_classes', 'Groups', c('n_classes')),
    fact('max_class_size', 'Largest group', c('max_class_size')),
    fact('ec_size_percentiles',
      'Group size percentiles',
      p ? `P5 ${count(p.p5)} · P50 ${count(p.p50)} · P95 ${count(p.p95)}` : '—',
    ),
    fact('rare_combination_rate', 'Rare combinations', percent(numberValue(report, 'rare_combination_rate'))),
  );
}

function section(title: string, id: string, ...body: Child[]): HTMLElement {
  return el('section', { class: 'result-section', 'aria-labelledby': id }, el('h3', { id }, title), ...body);
}

function warningsList(report: Report): HTMLElement | null {
  const items = [
    ...report.warnings.map((w) => `${w.message} (${w.code})`),
    ...report.metrics.flatMap((m) => m.warnings.map((w) => `${m.id}: ${w}`)),
  ];
  const unique = [...new Set(items)];
  if (unique.length === 0) return null;
  return section('Warnings', 'warnings-title', el('ul', { class: 'warnings' }, ...unique.map((w) => el('li', {}, w))));
}

function allMetrics(report: Report): HTMLElement {
  const rows = report.metrics.map((m) => [el('code', {}, m.id), metricText(report, m.id), explain(m.id)]);
  return el(
    'details',
    { class: 'all-metrics' },
    el('summary', {}, `All ${report.metrics.length} metrics`),
    scrollTable('All metrics', ['Metric', 'Value', 'Meaning'], rows),
  );
}

/** A QI value of a risky group: a missing cell is shown as such, not as an empty string. */
function cellText(v: string | null | undefined): Child {
  if (v === null) return el('span', { class: 'blank' }, '(blank)');
  if (v === undefined) return '—';
  return v === '' ? el('span', { class: 'blank' }, '(empty)') : v;
}

let charts: Chart[] = [];

export function clearResults(panel: HTMLElement): void {
  for (const c of charts) c.destroy();
  charts = [];
  panel.replaceChildren();
  panel.hidden = true;
}

export function renderResults(panel: HTMLElement, report: Report, fileLabel: string, onDownload: () => void): void {
  clearResults(panel);
  const qis = report.params.quasi_identifiers;
  const violators = kViolators(report);
  const top = riskiestClasses(report);
  const histHost = el('div', { class: 'chart', id: 'class-size-chart' });
  const riskHost = el('div', { class: 'chart', id: 'risk-chart' });
  const download = el('button', { id: 'download-json', class: 'button', type: 'button' }, 'Download JSON report');
  download.addEventListener('click', onDownload);

  append(
    panel,
    el(
      'div',
      { class: 'results-head' },
      el('h2', { id: 'results-title' }, '3. Results'),
      download,
    ),
    el(
      'p',
      { class: 'lead' },
      `${fileLabel}. Quasi-identifiers: ${qis.join(', ')}. Blank cells: ${report.params.missing_policy}. `,
      `Threshold τ = ${report.params.threshold}.`,
    ),
    headlineCards(report),
    warningsList(report),
    section('Counts', 'counts-title', counts(report)),
    section(
      'Records in small groups',
      'violators-title',
      el('p', { class: 'help' }, explain('k_violators')),
      violators.length
        ? scrollTable(
            'Records in groups smaller than k',
            ['Groups smaller than k =', 'Records', 'Share of records'],
            violators.map((v) => [count(v.k), count(v.records), percent(v.share)]),
            [0, 1, 2],
          )
        : el('p', {}, missingReason(report, 'k_violators') ?? '—'),
    ),
    el(
      'div',
      { class: 'chart-grid' },
      section('Group sizes', 'class-size-title', el('p', { class: 'help' }, explain('class_size_histogram')), histHost),
      section('Risk distribution', 'risk-title', el('p', { class: 'help' }, explain('risk_distribution')), riskHost),
    ),
    section(
      'Riskiest groups',
      'top-title',
      el('p', { class: 'help' }, explain('record_risk')),
      top.length
        ? scrollTable(
            'Riskiest groups of records',
            [...qis, 'Records in group', 'Risk'],
            top.map((t) => [...qis.map((q) => cellText(t.values[q])), count(t.size), score(t.risk)]),
            [qis.length, qis.length + 1],
          )
        : el('p', {}, missingReason(report, 'record_risk') ?? 'No groups reported.'),
    ),
    allMetrics(report),
  );
  panel.hidden = false;

  // Charts measure their container, so draw them once the panel is visible.
  const hist = numberTriples(report, 'class_size_histogram');
  const dist = numberTriples(report, 'risk_distribution');
  if (hist.length) charts.push(classSizeChart(histHost, hist));
  else histHost.append(el('p', {}, missingReason(report, 'class_size_histogram') ?? 'No data.'));
  if (dist.length) charts.push(riskChart(riskHost, dist));
  else riskHost.append(el('p', {}, missingReason(report, 'risk_distribution') ?? 'No data.'));
}
