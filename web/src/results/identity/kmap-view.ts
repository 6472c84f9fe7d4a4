// k-map and δ-presence (ARX's KMap and DPresence; spec peer-measures.md Sec 3, 4): how many
// people of the population each released record hides among, the group size the file must
// reach by ARX's estimate from the population size alone, and how far membership in the file
// can be told from the population table. Shown when one of them could be computed.

import { el, scrollTable, type Child } from '../../ui/dom';
import { explain } from '../../ui/explain';
import { count, percent, score } from '../../ui/format';
import { isRecord, metric, type MetricResult, type Report } from '../../shared/report';
import { cellValue, fact, facts, help, missingReason, section } from '../../ui/view-kit';

const IDS = ['k_map', 'k_map_estimated', 'delta_presence'] as const;

function details(m: MetricResult | undefined): Record<string, unknown> {
  return m && isRecord(m.details) ? m.details : {};
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** A key's values as "age 50, sex F". */
function keyText(values: unknown): Child[] {
  if (!isRecord(values)) return ['—'];
  return Object.entries(values).flatMap(([k, v], i) => [i ? ', ' : '', `${k} `, cellValue(v)]);
}

function verdict(label: string, ok: unknown): HTMLElement | null {
  if (typeof ok !== 'boolean') return null;
  return el('p', { class: 'kmap-verdict' }, `${label}: `, el('span', { class: ok ? 'kmap-pass' : 'kmap-fail' }, ok ? 'met' : 'not met'));
}

function kMapPart(report: Report): HTMLElement[] {
  const m = metric(report, 'k_map');
  if (!m || m.status !== 'ok') return [];
  const d = details(m);
  const k = num(d.k);
  const lowest = Array.isArray(d.lowest) ? d.lowest.filter(isRecord) : [];
  const table = scrollTable(
    'Released groups with the fewest look-alike people in the population',
    ['Group (quasi-identifier values)', 'Records in the file', 'People in the population'],
    lowest.map((e) => [el('span', {}, ...keyText(e.values)), count(num(e.f)), count(num(e.F))]),
    [1, 2],
  );
  table.id = 'kmap-lowest';
  return [
    el('h4', { class: 'subhead' }, 'k-map (population table)'),
    facts(
      fact('k_map', 'k-map', count(num(m.value))),
      fact(
        'k_map',
        `k-map with k = ${count(k)}`,
        d.satisfied ? 'met' : 'not met',
        `${count(num(d.violating_classes))} groups (${count(num(d.violating_records))} records) match fewer than ${count(k)} people of the population.`,
      ),
    ),
    lowest.length ? el('details', { class: 'more' }, el('summary', {}, 'The groups with the fewest look-alikes'), table) : '',
  ].filter((n): n is HTMLElement => n instanceof HTMLElement);
}

function estimatedPart(report: Report): HTMLElement[] {
  const m = metric(report, 'k_map_estimated');
  if (!m || m.status !== 'ok') return [];
  const d = details(m);
  const estimator = d.estimator === 'zero_truncated_poisson' ? 'zero-truncated Poisson' : 'Poisson';
  return [
    el('h4', { class: 'subhead' }, 'k-map estimated from the population size'),
    facts(
      fact(
        'k_map_estimated',
        `Group size needed for k = ${count(num(d.k))}`,
        count(num(m.value)),
        `By ARX’s ${estimator} estimate for ${count(num(d.N))} people (significance ${score(num(d.alpha))}, chance of a wrong “met”: ${score(num(d.type1_error))}), every group of the file needs at least this many records; the smallest has ${count(num(d.k_anonymity))}.`,
      ),
    ),
    verdict(`Estimated k-map with k = ${count(num(d.k))}`, d.satisfied) ?? el('span', {}),
  ];
}

function deltaPart(report: Report): HTMLElement[] {
  const m = metric(report, 'delta_presence');
  if (!m || m.status !== 'ok' || !isRecord(m.value)) return [];
  const d = details(m);
  const per = Array.isArray(d.per_class) ? d.per_class.filter(isRecord) : [];
  const shown = per.slice(0, 20);
  const table = scrollTable(
    'Population groups by the share of their people in the release, highest first',
    ['Group (quasi-identifier values)', 'In the file', 'In the population', 'δ (share released)'],
    shown.map((e) => [el('span', {}, ...keyText(e.values)), count(num(e.f)), count(num(e.F)), percent(num(e.delta))]),
    [1, 2, 3],
  );
  table.id = 'delta-classes';
  const dmin = num(d.dmin);
  const dmax = num(d.dmax);
  const bounds = dmin !== null || dmax !== null ? `the bounds [${dmin === null ? '—' : score(dmin)}, ${dmax === null ? '—' : score(dmax)}]` : null;
  return [
    el(
      'h4',
      { class: 'subhead' },
      isRecord(d.form) && typeof d.form.research_subset_column === 'string'
        ? `δ-presence (population table, released rows marked in its column “${d.form.research_subset_column}”)`
        : 'δ-presence (population table)',
    ),
    facts(
      fact('delta_presence', 'δ, lowest to highest', `${percent(num(m.value.min))} – ${percent(num(m.value.max))}`),
      fact(
        'delta_presence',
        'Lowest δ among released groups',
        percent(num(d.min_released)),
        bounds
          ? `${count(num(d.violating_classes))} of ${count(num(d.n_classes))} population groups lie outside ${bounds}.`
          : 'Give δ bounds in step 2 to check every group against them.',
      ),
    ),
    verdict('δ-presence within the bounds', d.satisfied) ?? el('span', {}),
    per.length
      ? el(
          'details',
          { class: 'more' },
          el('summary', {}, `The population groups, highest δ first${per.length > shown.length ? ` (first ${shown.length} of ${count(per.length)})` : ''}`),
          table,
        )
      : el('span', {}),
  ];
}

/** The section, or null when none of the three could be computed (the table of all metrics
 * still says why). */
export function kMapView(report: Report): HTMLElement | null {
  if (!IDS.some((id) => metric(report, id)?.status === 'ok')) return null;
  const missing = IDS.map((id) => [id, missingReason(report, id)] as const).filter(([, why]) => why !== null);
  return section(
    'Population k-map and δ-presence',
    'kmap-title',
    help(
      'Measures of the ARX tool that compare the file with the population it was drawn from. ',
      'k-map: among how many people of the population each released record hides. ',
      'δ-presence: what share of each population group was released, so how sure someone can be that a person is in the file.',
    ),
    ...kMapPart(report),
    ...estimatedPart(report),
    ...deltaPart(report),
    ...missing.map(([id, why]) =>
      el('p', { class: 'note', 'data-metric': id }, `${id === 'k_map_estimated' ? 'Estimated k-map' : id === 'k_map' ? 'k-map' : 'δ-presence'}: ${why}`),
    ),
    el(
      'details',
      { class: 'more' },
      el('summary', {}, 'What each number means'),
      el('ul', { class: 'plain-list' }, ...IDS.map((id) => el('li', {}, el('code', {}, id), ': ', explain(id)))),
    ),
  );
}
