// A square matrix as a heat map: a real table (row and column headers, the number in each
// cell) whose cells are tinted on a diverging blue–white–red scale. The tint is one of eleven
// CSS classes, never a style attribute, so the page's Content-Security-Policy holds.

import { el } from '../ui/dom';
import type { Matrix } from '../shared/utility-data';

/** Steps on each side of 0. */
const LEVELS = 5;

/** The tint class of `v` on a scale saturating at ±`full`. */
export function heatClass(v: number | null, full: number): string {
  if (v === null) return 'heat-na';
  const level = Math.min(LEVELS, Math.round((Math.abs(v) / full) * LEVELS));
  return level === 0 ? 'heat-0' : `heat-${v > 0 ? 'p' : 'n'}${level}`;
}

/** Two decimals with a true minus sign; `plus` adds "+" to positive values (differences). */
export function coefficient(v: number | null, plus = false): string {
  if (v === null) return '—';
  const text = Math.abs(v).toFixed(2);
  if (text === '0.00') return text;
  return `${v < 0 ? '−' : plus ? '+' : ''}${text}`;
}

export interface HeatmapSpec {
  id: string;
  caption: string;
  names: string[];
  matrix: Matrix;
  /** The value that gets the strongest tint. */
  full: number;
  /** Show "+" on positive values. */
  signed?: boolean;
}

export function heatmap(spec: HeatmapSpec): HTMLElement {
  const table = el(
    'table',
    { class: 'heatmap' },
    el('caption', {}, spec.caption),
    el('thead', {}, el('tr', {}, el('td', {}), ...spec.names.map((n) => el('th', { scope: 'col' }, n)))),
    el(
      'tbody',
      {},
      ...spec.matrix.map((row, i) =>
        el(
          'tr',
          {},
          el('th', { scope: 'row' }, spec.names[i] ?? ''),
          ...row.map((v) => el('td', { class: `heat ${heatClass(v, spec.full)}` }, coefficient(v, spec.signed))),
        ),
      ),
    ),
  );
  return el('div', { class: 'table-wrap heatmap-wrap', id: spec.id, tabindex: 0, role: 'region', 'aria-label': spec.caption }, table);
}

/** The colour scale: the eleven tints from −`full` to +`full`, between its end values. */
export function heatLegend(full: string): HTMLElement {
  const swatches = [
    ...Array.from({ length: LEVELS }, (_, i) => `heat-n${LEVELS - i}`),
    'heat-0',
    ...Array.from({ length: LEVELS }, (_, i) => `heat-p${i + 1}`),
  ];
  return el(
    'p',
    { class: 'heat-legend' },
    el('span', {}, `−${full}`),
    el('span', { class: 'heat-legend-scale', 'aria-hidden': 'true' }, ...swatches.map((c) => el('span', { class: `heat-swatch ${c}` }))),
    el('span', {}, `+${full}`),
  );
}
