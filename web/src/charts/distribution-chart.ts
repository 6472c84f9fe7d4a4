// The sensitive values of the worst t-closeness class against the whole file, as grouped
// horizontal bars: for each value, its share in the class and its share in the file. Plain DOM
// (long value names stay legible at any width and zoom); the bar widths are set through the
// CSSOM, which the Content-Security-Policy allows, never through a style attribute.

import type { Share } from '../shared/attribute-data';
import { el } from '../ui/dom';
import { fileValue, percent } from '../ui/format';

/** Rows shown before the rest is folded away. */
const SHOWN = 12;

function bar(kind: 'in-class' | 'in-file', share: number, max: number): HTMLElement {
  const fill = el('span', { class: `dist-fill ${kind}` });
  const width = max > 0 ? (share / max) * 100 : 0;
  fill.style.width = `${Math.min(100, Math.max(0, width))}%`;
  if (width === 0) fill.classList.add('empty');
  return el('span', { class: 'dist-track' }, fill);
}

function row(s: Share, max: number): HTMLElement {
  return el(
    'li',
    { class: 'dist-row', 'data-value': fileValue(s.value) },
    el('span', { class: 'dist-label' }, s.value === '' ? '(blank)' : fileValue(s.value)),
    el('span', { class: 'dist-bars', 'aria-hidden': 'true' }, bar('in-class', s.inClass, max), bar('in-file', s.inFile, max)),
    el(
      'span',
      { class: 'dist-values' },
      el('span', { class: 'dist-class-value' }, el('span', { class: 'visually-hidden' }, 'in the class: '), percent(s.inClass)),
      el('span', { class: 'dist-file-value' }, el('span', { class: 'visually-hidden' }, 'in the file: '), percent(s.inFile)),
    ),
  );
}

/**
 * `shares` in report order. Nominal values (equal distance) are ranked by how much the class
 * departs from the file, largest first; ordered values keep their order.
 */
export function distributionChart(shares: Share[], ordered: boolean, id: string): HTMLElement {
  const rows = ordered ? shares : [...shares].sort((a, b) => Math.abs(b.inClass - b.inFile) - Math.abs(a.inClass - a.inFile) || b.inFile - a.inFile);
  const max = Math.max(0, ...rows.flatMap((s) => [s.inClass, s.inFile]));
  const list = (items: Share[], label: string) => el('ol', { class: 'dist-rows', 'aria-label': label }, ...items.map((s) => row(s, max)));
  const first = rows.slice(0, SHOWN);
  const rest = rows.slice(SHOWN);
  return el(
    'div',
    { class: 'dist-chart', id },
    el(
      'p',
      { class: 'chart-key', 'aria-hidden': 'true' },
      el('span', { class: 'key-swatch in-class' }),
      el('span', { class: 'key-text' }, 'Share in the worst class'),
      el('span', { class: 'key-swatch in-file' }),
      el('span', { class: 'key-text' }, 'Share in the whole file'),
    ),
    el(
      'p',
      { class: 'help' },
      ordered ? 'Values in increasing order.' : 'Values whose share differs most between the class and the file come first.',
      ' Bars are drawn to the scale of the largest share.',
    ),
    list(first, 'Share of each sensitive value in the worst class and in the whole file'),
    rest.length
      ? el(
          'details',
          { class: 'more' },
          el('summary', {}, rest.length === 1 ? 'Show the other value' : `Show the other ${rest.length} values`),
          list(rest, 'The other sensitive values'),
        )
      : null,
  );
}
