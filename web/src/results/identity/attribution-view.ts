// What drives the risk: a ranked bar chart of each quasi-identifier's share of the risk
// (`qi_contribution`), the small combinations that already single records out
// (`qi_singling_out`) and, collapsed, distinction and separation of every combination.
// Bars are plain DOM; their widths are set through the CSSOM, which the CSP allows.

import { deferredDetails, el, scrollTable } from '../../ui/dom';
import { explain } from '../../ui/explain';
import { count, percent, score } from '../../ui/format';
import type { Report } from '../../shared/report';
import { contributions, singlingOut, subsetRows, type Contribution } from '../../shared/suite';
import { help, missingReason, section } from '../../ui/view-kit';

function bars(items: Contribution[]): HTMLElement {
  const ranked = [...items].sort((a, b) => (b.share ?? -1) - (a.share ?? -1));
  const max = Math.max(0, ...ranked.map((c) => c.share ?? 0));
  return el(
    'ol',
    { class: 'bars', id: 'attribution-chart', 'aria-label': 'Share of the risk driven by each quasi-identifier, largest first' },
    ...ranked.map((c) => {
      const fill = el('span', { class: 'bar-fill' });
      const width = max > 0 && c.share !== null ? Math.max(0, (c.share / max) * 100) : 0;
      fill.style.width = `${width}%`;
      if (width === 0) fill.classList.add('empty');
      return el(
        'li',
        { class: 'bar-row', 'data-attribute': c.attribute },
        el('span', { class: 'bar-label' }, c.attribute),
        el('span', { class: 'bar-track', 'aria-hidden': 'true' }, fill),
        el(
          'span',
          { class: 'bar-value' },
          el('strong', {}, c.share === null ? '—' : percent(c.share)),
          el(
            'span',
            { class: 'bar-detail' },
            `Without it: average risk −${score(c.delta_r_internal)}, unique records −${c.delta_uniqueness === null ? '—' : points(c.delta_uniqueness)} points`,
          ),
        ),
      );
    }),
  );
}

/** A share in percentage points, 2 decimals; a change that is not 0 never reads "0.00". */
function points(share: number): string {
  const text = (share * 100).toFixed(2);
  return share !== 0 && /^-?0\.00$/.test(text) ? '< 0.01' : text;
}

function singlingOutList(report: Report): HTMLElement {
  const list = singlingOut(report);
  if (list === null) return el('p', {}, missingReason(report, 'qi_singling_out') ?? '—');
  if (list.length === 0) return el('p', {}, 'No combination of quasi-identifiers makes any record unique.');
  return el(
    'ul',
    { class: 'singling-out', id: 'singling-out' },
    ...list.map((s) =>
      el(
        'li',
        {},
        el('strong', {}, s.subset.join(' + ')),
        ` alone ${s.subset.length === 1 ? 'singles' : 'single'} out ${count(s.uniques)} ${s.uniques === 1 ? 'record' : 'records'} (${percent(s.share)} of the file).`,
      ),
    ),
  );
}

function subsetTable(report: Report): HTMLElement | null {
  const rows = subsetRows(report);
  if (!rows.length) return null;
  return deferredDetails({ class: 'more', id: 'subset-table' }, `Distinction and separation of every combination (${rows.length})`, () => [
    help(explain('qi_distinction'), ' ', explain('qi_separation')),
    scrollTable(
      'Distinction and separation per combination of quasi-identifiers',
      ['Combination', 'Columns', 'Distinction', 'Separation'],
      rows.map((r) => [r.subset.join(' + '), count(r.subset.length), score(r.distinction), score(r.separation)]),
      [1, 2, 3],
    ),
  ]);
}

export function attributionView(report: Report): HTMLElement {
  const items = contributions(report);
  const allNull = items.length > 0 && items.every((c) => c.share === null);
  return section(
    'What drives the risk',
    'attribution-title',
    help(explain('qi_contribution')),
    items.length ? bars(items) : el('p', {}, missingReason(report, 'qi_contribution') ?? 'Not reported.'),
    allNull ? el('p', { class: 'note' }, 'Leaving out any single quasi-identifier does not change the average risk.') : null,
    el('h4', { class: 'subhead' }, 'Combinations that single out records'),
    help(explain('qi_singling_out')),
    singlingOutList(report),
    subsetTable(report),
  );
}
