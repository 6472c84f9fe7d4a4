// Population uniqueness: how many people of the whole population are unique on the
// quasi-identifiers (and so certainly identified when found in the file). The Dankar estimate
// is the headline, Zayatz / Pitman / SNB beside it, and the curve over sampling fractions.

import { uniquenessCurveChart } from '../../charts/curve-chart';
import { el } from '../../ui/dom';
import { explain, reasonText } from '../../ui/explain';
import { count, fractionPercent, smallPercent } from '../../ui/format';
import { metric, type Report } from '../../shared/report';
import { detailNumber, detailString, metricInterval, uniquenessCurve } from '../../shared/suite';
import { fact, facts, help, intervalText, missingReason, section, withInterval, type Chart, type View } from '../../ui/view-kit';

const MODEL_NAMES: Readonly<Record<string, string>> = { zayatz: 'Zayatz', pitman: 'Pitman', snb: 'SNB' };

function estimatorFact(report: Report, id: string, name: string): HTMLElement {
  const m = metric(report, id);
  if (m && m.status === 'ok' && typeof m.value === 'number' && Number.isFinite(m.value)) {
    const u = detailNumber(m, 'U');
    const node = fact(id, name, smallPercent(m.value), `${u === null ? '' : `About ${count(Math.round(u))} people. `}${explain(id)}`);
    return withInterval(node, metricInterval(m), smallPercent);
  }
  // Null values are never shown as a number: say why there is no estimate.
  const cause = detailString(m, 'cause');
  const why = m ? reasonText(m.reason) + (cause ? ` (${reasonText(cause)})` : '') : 'not reported';
  return fact(id, name, 'no valid estimate', `${why.charAt(0).toUpperCase()}${why.slice(1)}.`);
}

function headline(report: Report): HTMLElement {
  const m = metric(report, 'population_uniqueness_dankar');
  if (!m || m.status !== 'ok' || typeof m.value !== 'number') {
    const sizeMissing = m?.reason === 'population_size_missing';
    return el(
      'p',
      { class: 'note', id: 'population-invite', 'data-metric': 'population_uniqueness_dankar' },
      sizeMissing
        ? 'No population size was given. Enter the size of the population the file was drawn from (a number of people, a sampling fraction or a region) in step 2 and run the audit again to estimate how many people in the whole population are unique; meanwhile the curve below shows the estimate for every possible size.'
        : (missingReason(report, 'population_uniqueness_dankar') ?? 'No estimate.'),
    );
  }
  const u = detailNumber(m, 'U');
  const n = detailNumber(m, 'N');
  const pi = detailNumber(m, 'pi');
  const model = detailString(m, 'model');
  const ci = metricInterval(m);
  return el(
    'div',
    { class: 'headline-stat', 'data-metric': 'population_uniqueness_dankar' },
    el('p', { class: 'headline-value' }, smallPercent(m.value)),
    el(
      'div',
      {},
      el(
        'p',
        { class: 'headline-text' },
        'of the population is estimated to be unique on these quasi-identifiers',
        u !== null && n !== null ? `: about ${count(Math.round(u))} of ${count(n)} people.` : '.',
      ),
      ci
        ? el(
            'p',
            { class: 'headline-interval', id: 'population-interval', 'data-ci': `${ci.low},${ci.high}` },
            `${intervalText(ci, smallPercent)}. ${explain('confidence_interval')}`,
          )
        : null,
      el(
        'p',
        { class: 'help' },
        `Model: ${model ? (MODEL_NAMES[model] ?? model) : 'none needed'}, chosen by Dankar’s rule`,
        pi !== null ? ` for a file holding ${fractionPercent(pi)} of the population. ` : '. ',
        'Someone who finds a population-unique person in the file has identified them for certain.',
      ),
    ),
  );
}

export function populationView(report: Report): View {
  const dankar = metric(report, 'population_uniqueness_dankar');
  const withN = dankar?.reason !== 'population_size_missing';
  const points = uniquenessCurve(report);
  const currentPi = dankar && dankar.status === 'ok' ? detailNumber(dankar, 'pi') : null;
  const host = el('div', { class: 'chart', id: 'uniqueness-curve' });
  const nodes = [
    section(
      'Population uniqueness',
      'population-title',
      help(
        'A record unique in the file may still share its values with many people outside it. These estimates say how many people of the whole population are unique on the quasi-identifiers.',
      ),
      headline(report),
      withN
        ? facts(
            estimatorFact(report, 'population_uniqueness_zayatz', 'Zayatz'),
            estimatorFact(report, 'population_uniqueness_pitman', 'Pitman'),
            estimatorFact(report, 'population_uniqueness_snb', 'SNB'),
          )
        : null,
      el('h4', { class: 'subhead' }, 'Estimated population uniques by sampling fraction'),
      help(explain('population_uniqueness_curve'), ' A small file drawn from a large population (left) hides people better.'),
      host,
    ),
  ];
  const draw = (): Chart[] => {
    if (points.length) return [uniquenessCurveChart(host, points, currentPi)];
    host.append(el('p', {}, missingReason(report, 'population_uniqueness_curve') ?? 'No curve was reported.'));
    return [];
  };
  return { nodes, draw };
}
