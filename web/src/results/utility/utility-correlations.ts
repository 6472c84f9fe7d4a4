// How the numeric columns move together, before and after (spec utility.md Sec 8.3): the
// Pearson correlation matrices of the original and of the release side by side, and their
// difference, as heat maps with the numbers in the cells.

import { el } from '../../ui/dom';
import { heatLegend, heatmap } from '../../charts/heatmap';
import type { Report } from '../../shared/report';
import { correlations, type Matrix } from '../../shared/utility-data';
import { help } from '../../ui/view-kit';

/** Released − original, cell by cell (null where either is undefined). */
function difference(original: Matrix, released: Matrix): Matrix {
  return original.map((row, i) =>
    row.map((o, j) => {
      const r = released[i]?.[j] ?? null;
      return o === null || r === null ? null : r - o;
    }),
  );
}

/** The change at which the difference map reaches its strongest tint. */
const DIFFERENCE_FULL = 0.5;

export function utilityCorrelationsView(report: Report): HTMLElement | null {
  const c = correlations(report);
  if (!c) return null;
  const names = c.attributes;
  const figure = (map: HTMLElement, full: string, colours: string) =>
    el('figure', { class: 'heatmap-figure' }, map, el('figcaption', {}, heatLegend(full), el('span', { class: 'visually-hidden' }, colours)));
  const correlationColours = 'Blue cells are negative correlations, red cells positive ones; the darker, the stronger.';
  return el(
    'div',
    { class: 'utility-block', id: 'utility-correlations' },
    el('h4', { id: 'utility-correlations-title' }, 'Correlations between numeric columns'),
    help(
      'How strongly each pair of numeric columns moves together (Pearson correlation, from −1 to +1; blue = negative, red = positive), in the original and in the release; ranges are read as their midpoints. ',
      `The third map shows released minus original (blue = lower in the release, red = higher; darkest from ±${DIFFERENCE_FULL}): the closer to 0, the more analyses across columns keep their answers. “—” marks a column that does not vary.`,
    ),
    el(
      'div',
      { class: 'heatmaps' },
      figure(heatmap({ id: 'heatmap-original', caption: 'Original', names, matrix: c.original, full: 1 }), '1', correlationColours),
      figure(heatmap({ id: 'heatmap-released', caption: 'Released', names, matrix: c.released, full: 1 }), '1', correlationColours),
      figure(
        heatmap({
          id: 'heatmap-difference',
          caption: 'Released − original',
          names,
          matrix: difference(c.original, c.released),
          full: DIFFERENCE_FULL,
          signed: true,
        }),
        String(DIFFERENCE_FULL),
        'Blue cells are correlations that are lower in the release, red cells higher ones; the darker, the larger the change.',
      ),
    ),
  );
}
