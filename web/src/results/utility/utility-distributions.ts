// Per column, the distribution of the original and of the release overlaid (the shares the
// similarity measures compare, spec utility.md Sec 6.1), with the change of the mean and of the
// spread beside it for numeric columns (Sec 8.3). The charts are drawn once the results panel
// is visible.

import { el, type Child } from '../../ui/dom';
import { decimal, fileValue, quantity, score, signed } from '../../ui/format';
import { overlayChart } from '../../charts/overlay-chart';
import type { Report } from '../../shared/report';
import { distributions, type Change, type Distribution } from '../../shared/utility-data';
import { help, type Chart, type View } from '../../ui/view-kit';

/** "38.25 → 37.92 (−0.33, −0.9%)". */
function changeText(c: { original: number; released: number; difference: number; pct: number | null }): string {
  const pct = c.pct === null ? '' : `, ${signed(c.pct, (v) => `${decimal(v, 1)}%`)}`;
  return `${quantity(c.original)} → ${quantity(c.released)} (${signed(c.difference, quantity)}${pct})`;
}

/** The spread as a standard deviation: the square root of the reported variances. */
function spread(v: Change): { original: number; released: number; difference: number; pct: number | null } | null {
  if (v.original < 0 || v.released < 0) return null;
  const [o, r] = [Math.sqrt(v.original), Math.sqrt(v.released)];
  return { original: o, released: r, difference: r - o, pct: o > 0 ? (100 * (r - o)) / o : null };
}

function stat(name: string, value: string, id: string): Child[] {
  return [el('dt', {}, name), el('dd', { 'data-metric': id }, value)];
}

function stats(d: Distribution): HTMLElement | null {
  const items: Child[] = [];
  if (d.mean) items.push(...stat('Mean', changeText({ ...d.mean, pct: d.mean.rel_change_pct }), 'mean_diff'));
  const sd = d.variance ? spread(d.variance) : null;
  if (sd) items.push(...stat('Spread (sd)', changeText(sd), 'variance_diff'));
  if (d.similarity !== null) items.push(...stat('Similarity (cosine)', score(d.similarity), 'cosine_similarity'));
  return items.length ? el('dl', { class: 'dist-stats' }, ...items) : null;
}

export function utilityDistributionsView(report: Report): View {
  const all = distributions(report);
  if (all.length === 0) return { nodes: [] };
  const hosts = all.map((d) => ({ d, host: el('div', { class: 'chart dist-overlay' }) }));
  const block = el(
    'div',
    { class: 'utility-block', id: 'utility-distributions' },
    el('h4', { id: 'utility-distributions-title' }, 'Distributions: original and released'),
    help(
      'For each column, the share of rows per value or range in the original (wide light bars) and in the release (narrow dark bars); a released range counts as spread evenly over the values it covers. ',
      'Numeric columns also show the mean and the spread (standard deviation), ranges read as their midpoints, and every column its cosine similarity: how alike the two shapes are, from 0 to 1.',
    ),
    el(
      'div',
      { class: 'dist-grid' },
      ...hosts.map(({ d, host }) =>
        el(
          'article',
          { class: 'dist-card', 'data-attribute': d.attribute, 'aria-label': `Distribution of ${d.attribute}` },
          el('h5', {}, d.attribute),
          stats(d),
          host,
        ),
      ),
    ),
  );
  return {
    nodes: [block],
    draw: (): Chart[] =>
      hosts.map(({ d, host }) => overlayChart(host, { column: d.attribute, labels: d.labels.map(fileValue), original: d.original, released: d.released })),
  };
}
