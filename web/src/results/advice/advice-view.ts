// "What would lower the risk": the `advice` metric of the core (crate/core/src/advice.rs), one
// change to the quasi-identifiers per row, ranked by the records at risk after it, then by its
// cost to utility. Each row gives the core's sentence, and a table beside it the figures.

import { el, scrollTable } from '../../ui/dom';
import { count, percent, plural } from '../../ui/format';
import { adviceOf, type Effect } from '../../shared/advice-data';
import { adviceLadder } from '../../shared/protect-data';
import { metric, type Report } from '../../shared/report';
import type { Light } from '../../shared/suite';
import { missingReason, section } from '../../ui/view-kit';

function lightBadge(light: Light): HTMLElement {
  return el('span', { class: `advice-light advice-${light}`, 'data-light': light }, light.toUpperCase());
}

function cost(e: Effect): string {
  if (e.change.kind === 'drop') return 'column lost';
  if (e.change.kind === 'suppress') return `${plural(e.records_suppressed, 'record')} suppressed`;
  return `${percent(e.values_merged)} of values merged, loss ${e.generalization_loss.toFixed(2)}`;
}

/** The section; `apply` (null: not offered) opens "Make a safe release" with a row's change. */
export function adviceView(report: Report, apply: ((e: Effect) => void) | null): HTMLElement | null {
  const m = metric(report, 'advice');
  if (!m) return null;
  const list = adviceOf(report);
  if (!list) return section('What would lower the risk', 'advice-title', el('p', {}, missingReason(report, 'advice') ?? ''));
  const applyButton = (e: Effect, i: number) => {
    if (!apply || (!adviceLadder(e) && e.change.kind !== 'suppress')) return '';
    const b = el('button', { class: 'button secondary advice-apply', type: 'button', 'aria-label': `Apply change ${i + 1}: ${e.sentence}` }, 'Apply');
    b.addEventListener('click', () => apply(e));
    return b;
  };
  const rows = list.map((e, i) => [
    String(i + 1),
    el('span', { class: 'advice-sentence', 'data-kind': e.change.kind }, e.sentence),
    count(e.after.k),
    count(e.after.uniques),
    percent(e.after.records_at_risk),
    lightBadge(e.after.verdict),
    cost(e),
    ...(apply ? [applyButton(e, i)] : []),
  ]);
  const head = ['#', 'Change', 'k', 'Uniques', 'Records at risk', 'Verdict', 'Cost', ...(apply ? ['Protect'] : [])];
  return section(
    'What would lower the risk',
    'advice-title',
    el(
      'p',
      { class: 'help' },
      'Each row changes one thing and keeps the rest: drop a quasi-identifier, coarsen one a step (numbers to bands, dates to month or year, codes to one character less, a category to the next level of its hierarchy), or suppress the records of small classes. ' +
        'Ranked by the records at risk after the change, then by what it costs: the records suppressed, or the share of the column’s values merged and its generalization loss (0 = nothing lost, 1 = the column lost). Computed from the table in memory; the file was not changed. “Apply” opens “Make a safe release” below with that change, which writes the protected file.',
    ),
    list.length ? scrollTable('What would lower the risk', head, rows, [0, 2, 3, 4]) : el('p', {}, 'No single change applies to these quasi-identifiers.'),
  );
}
