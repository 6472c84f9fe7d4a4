// The row-order leak (issue 16): whether the released rows still follow the original's order,
// measured when the tables were paired by a record id (paired by row order, the question has
// no answer and the section says why).

import { el } from '../../ui/dom';
import { explain } from '../../ui/explain';
import { count, score } from '../../ui/format';
import { isRecord, metric, type Report } from '../../shared/report';
import { fact, facts, help, missingReason, section } from '../../ui/view-kit';

export function rowOrderView(report: Report): HTMLElement | null {
  const m = metric(report, 'row_order_correlation');
  if (!m) return null;
  const d = isRecord(m.details) ? m.details : {};
  const rho = typeof m.value === 'number' ? m.value : null;
  const threshold = typeof d.threshold === 'number' ? d.threshold : null;
  const body =
    rho === null
      ? [el('p', { class: 'note', id: 'row-order-missing' }, missingReason(report, m.id) ?? '')]
      : [
          facts(fact(m.id, 'Rank correlation of row positions', score(rho))),
          d.leak === true
            ? el(
                'p',
                { class: 'alert', id: 'row-order-leak' },
                `The released rows still follow the original’s order (|ρ| ≥ ${score(threshold)} over ${count(typeof d.n_pairs === 'number' ? d.n_pairs : null)} records): shuffle the rows before release, or someone who knows the original order can match records by their position.`,
              )
            : el(
                'p',
                { class: 'note', id: 'row-order-ok' },
                `Below the warning level |ρ| ≥ ${score(threshold)}: the release’s order tells little about the original’s.`,
              ),
        ];
  return section('Row order', 'row-order-title', help(explain(m.id)), ...body);
}
