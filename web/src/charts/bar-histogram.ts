// A histogram as horizontal bars: one row per bin, its label, a bar to the scale of the
// largest bin and its count. Plain DOM, so that it reads the same with a screen reader, at any
// zoom and at 390 px; the bar widths are set through the CSSOM, which the CSP allows.

import { el } from '../ui/dom';
import { count } from '../ui/format';

/** One bin: its label and how many records it holds. */
export interface Bin {
  label: string;
  records: number;
}

export function barHistogram(bins: Bin[], id: string, label: string): HTMLElement {
  const max = Math.max(0, ...bins.map((b) => b.records));
  return el(
    'ol',
    { class: 'bars', id, 'aria-label': label },
    ...bins.map((b) => {
      const fill = el('span', { class: 'bar-fill' });
      const width = max > 0 ? (b.records / max) * 100 : 0;
      fill.style.width = `${width}%`;
      if (width === 0) fill.classList.add('empty');
      return el(
        'li',
        { class: 'bar-row', 'data-bin': b.label },
        el('span', { class: 'bar-label' }, b.label),
        el('span', { class: 'bar-track', 'aria-hidden': 'true' }, fill),
        el('span', { class: 'bar-value' }, el('strong', {}, count(b.records)), b.records === 1 ? ' record' : ' records'),
      );
    }),
  );
}
