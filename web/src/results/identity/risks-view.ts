// Further risk measures: sdcMicro risk with sampling weights (only when a weight column was
// chosen), the household risk (only with a household id column), k counted in persons for event-level data (only with a person id column) and the
// SCORR uniqueness and uniformity risks.

import { el, scrollTable } from '../../ui/dom';
import { explain } from '../../ui/explain';
import { count, percent, plural, score } from '../../ui/format';
import { isRecord, metric, numberValue, type Report } from '../../shared/report';
import { detailNumber, detailString, metricInterval, minMeanMax, perAttribute, asMinMeanMax, type MinMeanMax } from '../../shared/suite';
import { cellValue, facts, help, reportFact, section, withInterval } from '../../ui/view-kit';

const mmm = (v: MinMeanMax | null) => (v ? `min ${score(v.min)} · mean ${score(v.mean)} · max ${score(v.max)}` : '—');

/** Shown only when the audit ran with a weight column. */
export function weightsView(report: Report): HTMLElement | null {
  if (metric(report, 'sdc_individual_risk')?.reason === 'no_weight_column') return null;
  const v = (id: string) => numberValue(report, id);
  const er = v('global_risk_er');
  return section(
    'Risk with sampling weights',
    'weights-title',
    help('The file is treated as a sample: each row stands for as many people as its weight says (the sdcMicro method).'),
    facts(
      withInterval(reportFact(report, 'global_risk_er', 'Expected re-identifications', count(er)), metricInterval(metric(report, 'global_risk_er')), count),
      withInterval(reportFact(report, 'global_risk', 'Global risk', percent(v('global_risk'))), metricInterval(metric(report, 'global_risk')), percent),
      reportFact(report, 'sdc_individual_risk', 'Individual risk', mmm(minMeanMax(report, 'sdc_individual_risk'))),
      reportFact(report, 'risky_observations', 'Risky records', count(v('risky_observations'))),
      reportFact(report, 'r_internal_weighted', 'Weighted average risk', score(v('r_internal_weighted'))),
    ),
  );
}

/** Shown only when the audit ran with a household id column (peer-measures.md Sec 2). */
export function householdView(report: Report): HTMLElement | null {
  const m = metric(report, 'household_risk_er');
  if (!m || m.reason === 'no_household_column') return null;
  const source = detailString(m, 'individual_risk_source');
  const without = detailNumber(m, 'records_without_household');
  const node = section(
    'Households',
    'household-title',
    help(`Computed as sdcMicro does, from ${source === 'weights' ? 'the sampling weights' : '1 divided by the size of each group'}.`),
    facts(
      reportFact(report, 'household_risk_er', 'Expected re-identifications', count(numberValue(report, 'household_risk_er'))),
      reportFact(report, 'household_risk', 'Household risk', percent(numberValue(report, 'household_risk'))),
      reportFact(report, 'household_risk_er', 'Households', count(detailNumber(m, 'households')), 'Different household ids among the audited records.'),
      reportFact(
        report,
        'household_risk_er',
        'Highest household risk',
        score(detailNumber(m, 'max_h')),
        'The chance that someone in the most exposed household is re-identified.',
      ),
    ),
    without
      ? el(
          'p',
          { class: 'note' },
          `${plural(without, 'record has', 'records have')} no household id: ${without === 1 ? 'it adds' : 'they add'} nothing to the expected re-identifications, but ${without === 1 ? 'counts' : 'count'} in the share.`,
        )
      : null,
  );
  node.id = 'household-section';
  return node;
}

export interface PersonsView {
  node: HTMLElement;
  /** k in persons is smaller than k in rows: show the section near the top. */
  prominent: boolean;
}

/** Shown only when the audit ran with a person id column. */
export function personsView(report: Report): PersonsView | null {
  const m = metric(report, 'k_anonymity_person');
  if (!m || m.reason === 'person_level_data') return null;
  const kPerson = numberValue(report, 'k_anonymity_person');
  const k = numberValue(report, 'k_anonymity');
  const prominent = kPerson !== null && k !== null && kPerson < k;
  const several = detailNumber(m, 'persons_in_several_classes');
  const node = section(
    'Event-level data: k counted in persons',
    'persons-title',
    prominent
      ? el(
          'p',
          { class: 'alert', id: 'persons-alert' },
          `Counted in persons, k is only ${count(kPerson)}, against ${count(k)} counted in rows: some groups are filled by several rows of the same person, so they protect fewer people than they seem to.`,
        )
      : null,
    facts(
      reportFact(report, 'k_anonymity_person', 'k in persons', count(kPerson)),
      reportFact(report, 'k_anonymity', 'k in rows', count(k), 'The k of the headline, counting each row as if it were a different person.'),
      reportFact(report, 'k_anonymity_person', 'Persons', count(detailNumber(m, 'persons')), 'Different persons in the audited rows.'),
      reportFact(
        report,
        'k_anonymity_person',
        'Persons in several groups',
        count(several),
        'Persons whose rows fall into more than one group; linking their rows can narrow them down further.',
      ),
    ),
  );
  node.id = 'persons-section';
  node.classList.toggle('prominent', prominent);
  return { node, prominent };
}

export function scorrView(report: Report): HTMLElement {
  const attrs = perAttribute(report, 'scorr_uniformity_risk_attr');
  const rows = attrs.map(({ attribute, metric: m }) => {
    const v = m.status === 'ok' ? asMinMeanMax(m.value) : null;
    const at = isRecord(m.details) && Array.isArray(m.details.argmax_values) ? m.details.argmax_values : [];
    return [
      el('span', { class: 'col-name' }, attribute),
      score(v?.min),
      score(v?.mean),
      score(v?.max),
      el('span', {}, ...at.slice(0, 3).flatMap((x, i) => [i > 0 ? ', ' : null, cellValue(x)])),
    ];
  });
  return section(
    'SCORR uniqueness and uniformity',
    'scorr-title',
    help('Two risks from the SCORR method, each as its lowest, average and highest value over the records.'),
    facts(
      reportFact(report, 'scorr_uniqueness_risk', 'Uniqueness risk', mmm(minMeanMax(report, 'scorr_uniqueness_risk'))),
      reportFact(report, 'scorr_uniformity_risk_qi', 'Uniformity risk', mmm(minMeanMax(report, 'scorr_uniformity_risk_qi'))),
    ),
    ...(rows.length
      ? [
          el('h4', { class: 'subhead' }, 'Uniformity risk of each quasi-identifier alone'),
          help(explain('scorr_uniformity_risk_attr')),
          scrollTable(
            'Uniformity risk per quasi-identifier',
            ['Quasi-identifier', 'Lowest', 'Average', 'Highest', 'Value with the highest risk'],
            rows,
            [1, 2, 3],
          ),
        ]
      : []),
  );
}
