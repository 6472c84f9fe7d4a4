// The prosecutor overview of the results: six headline cards (each number with one sentence),
// the counts, the records in small groups and the two charts (group sizes, risk distribution).

import { classSizeChart, riskChart } from '../../charts/charts';
import { el, scrollTable, type Child } from '../../ui/dom';
import { explain } from '../../ui/explain';
import { count, percent, plural, score } from '../../ui/format';
import { kViolators, numberTriples, numberValue, percentiles, type Report } from '../../shared/report';
import { fact, facts, help, missingReason, section, type Chart, type View } from '../../ui/view-kit';

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

export function headlineCards(report: Report): HTMLElement {
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
      atRisk !== null && n !== null ? `about ${count(Math.round(atRisk * n))} of ${plural(n, 'record')}` : null,
    ),
  );
}

function counts(report: Report): HTMLElement {
  const c = (id: string) => count(numberValue(report, id));
  const p = percentiles(report);
  return facts(
    fact('n_records_total', 'Rows in the file', c('n_records_total')),
    fact('n_records', 'Records audited', c('n_records')),
    fact('n_suppressed_records', 'Suppressed rows', c('n_suppressed_records')),
    fact('n_dropped_records', 'Dropped rows', c('n_dropped_records')),
    fact('n_classes', 'Groups', c('n_classes')),
    fact('max_class_size', 'Largest group', c('max_class_size')),
    fact('ec_size_percentiles', 'Group size percentiles', p ? `P5 ${count(p.p5)} · P50 ${count(p.p50)} · P95 ${count(p.p95)}` : '—'),
    fact('rare_combination_rate', 'Rare combinations', percent(numberValue(report, 'rare_combination_rate'))),
  );
}

/** Counts, records in small groups and the two charts. */
export function groupsView(report: Report): View {
  const violators = kViolators(report);
  const histHost = el('div', { class: 'chart', id: 'class-size-chart' });
  const riskHost = el('div', { class: 'chart', id: 'risk-chart' });
  const nodes = [
    section('Counts', 'counts-title', counts(report)),
    section(
      'Records in small groups',
      'violators-title',
      help(explain('k_violators')),
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
      section('Group sizes', 'class-size-title', help(explain('class_size_histogram')), histHost),
      section('Risk distribution', 'risk-title', help(explain('risk_distribution')), riskHost),
    ),
  ];
  // Charts measure their container, so they are drawn once the panel is visible.
  const draw = (): Chart[] => {
    const charts: Chart[] = [];
    const hist = numberTriples(report, 'class_size_histogram');
    const dist = numberTriples(report, 'risk_distribution');
    if (hist.length) charts.push(classSizeChart(histHost, hist));
    else histHost.append(el('p', {}, missingReason(report, 'class_size_histogram') ?? 'No data.'));
    if (dist.length) charts.push(riskChart(riskHost, dist));
    else riskHost.append(el('p', {}, missingReason(report, 'risk_distribution') ?? 'No data.'));
    return charts;
  };
  return { nodes, draw };
}
