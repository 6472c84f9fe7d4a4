// The verdict at the top of the results: a traffic light from `verdict_arx_thresholds`
// (green = every check passes, amber = only the success-rate checks fail, red otherwise), the
// failed checks in words and the thresholds used; `aside` (the SCORR decision badge) sits
// next to it.

import { el } from '../../ui/dom';
import { explain } from '../../ui/explain';
import { metric, type Report } from '../../shared/report';
import { arxVerdict, type ArxVerdict, type Light } from '../../shared/suite';
import { missingReason } from '../../ui/view-kit';

const HEADLINES: Readonly<Record<Light, string>> = {
  green: 'Passes every ARX risk threshold',
  amber: 'Passes the per-record checks; the average risk (success rate) is above its threshold',
  red: 'Fails the ARX risk thresholds',
};

const SUMMARIES: Readonly<Record<Light, string>> = {
  green: 'No attacker model exceeds the thresholds below; the file is within the accepted risk.',
  amber: 'No record stands out, but an attacker would re-identify too many records on average; coarsen the quasi-identifiers or release a smaller sample.',
  red: 'Some records can be re-identified too easily; coarsen or suppress quasi-identifier values before release.',
};

/** "prosecutor highest risk is 1.0000, above ..." -> "Prosecutor highest risk is 1.0000, above ...". */
function sentence(reason: string): string {
  const s = reason.trim();
  const capital = s.charAt(0).toUpperCase() + s.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

function thresholdsText(v: ArxVerdict, report: Report): string {
  const t = v.thresholds ?? {
    highest_risk: report.params.threshold,
    records_at_risk: report.params.records_at_risk_threshold ?? NaN,
    success_rate: report.params.success_rate_threshold ?? NaN,
  };
  return `Thresholds used: highest risk ${t.highest_risk}, records at risk ${t.records_at_risk}, success rate ${t.success_rate}.`;
}

function light(which: Light): HTMLElement {
  return el(
    'div',
    { class: 'light', 'aria-hidden': 'true' },
    ...(['red', 'amber', 'green'] as const).map((c) => el('span', { class: `lamp lamp-${c}${c === which ? ' on' : ''}` })),
  );
}

/** Every quasi-identifier blank in every record: no light (docs/decisions/verdict/quasi-identifiers-all-blank.md). */
function notAssessable(report: Report, aside: HTMLElement | null): HTMLElement {
  const qis = report.params.quasi_identifiers.join(', ');
  return el(
    'section',
    { class: 'verdict verdict-none', id: 'verdict', 'data-light': 'none', 'aria-labelledby': 'verdict-title' },
    el(
      'div',
      { class: 'verdict-body' },
      el('h3', { id: 'verdict-title' }, el('span', { class: 'verdict-label' }, 'Not assessable: '), 'every quasi-identifier is blank'),
      el(
        'p',
        { class: 'verdict-summary' },
        `The quasi-identifiers (${qis}) are blank in every record, so the whole file is one group and every threshold is met, but only because there is nothing to group by. That says nothing about how re-identifiable the people in the file are. Check the roles in step 2, and whether the export emptied these columns.`,
      ),
    ),
    aside,
  );
}

export function verdictView(report: Report, aside: HTMLElement | null = null): HTMLElement {
  if (metric(report, 'verdict_arx_thresholds')?.reason === 'quasi_identifiers_all_blank') return notAssessable(report, aside);
  const v = arxVerdict(report);
  if (!v) {
    return el(
      'section',
      { class: 'verdict verdict-none', id: 'verdict', 'aria-labelledby': 'verdict-title' },
      el(
        'div',
        { class: 'verdict-body' },
        el('h3', { id: 'verdict-title' }, 'Verdict'),
        el('p', {}, missingReason(report, 'verdict_arx_thresholds') ?? 'The verdict could not be read.'),
      ),
      aside,
    );
  }
  const which = v.light;
  const label = { green: 'Green', amber: 'Amber', red: 'Red' }[which];
  return el(
    'section',
    { class: `verdict verdict-${which}`, id: 'verdict', 'data-light': which, 'aria-labelledby': 'verdict-title' },
    light(which),
    el(
      'div',
      { class: 'verdict-body' },
      el('h3', { id: 'verdict-title' }, el('span', { class: 'verdict-label' }, `${label}: `), HEADLINES[which]),
      el('p', { class: 'verdict-summary' }, SUMMARIES[which]),
      v.reasons.length
        ? el('ul', { class: 'verdict-reasons' }, ...v.reasons.map((r) => el('li', {}, sentence(r))))
        : el('p', { class: 'verdict-reasons' }, 'Every check passes.'),
      el('p', { class: 'verdict-thresholds' }, thresholdsText(v, report)),
      el('p', { class: 'help' }, explain('verdict_arx_thresholds')),
    ),
    aside,
  );
}
