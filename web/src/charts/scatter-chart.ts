// The PCA scatter of a synthetic release (spec synthetic.md Sec 7): the records of the
// original and of the release on the original's first two principal axes, each scaled to the
// original's range (0 to 1; released points may fall outside it), drawn as two layers of dots
// beside each other, with the same scales. Plain SVG; colours from CSS classes (CSP-clean).

import { el } from '../ui/dom';
import { count, decimal } from '../ui/format';
import { svg } from './svg';

const W = 320;
const H = 300;
const M = { left: 40, right: 12, top: 12, bottom: 40 };
const PW = W - M.left - M.right;
const PH = H - M.top - M.bottom;

export interface ScatterSpec {
  id: string;
  original: readonly [number, number][];
  released: readonly [number, number][];
  /** The axes' names ("PC1 (40 % of the variance)"). */
  xLabel: string;
  yLabel: string;
}

/** The scales' bounds: the original's range [0, 1] widened to every point of both tables. */
function bounds(points: readonly [number, number][], axis: 0 | 1): [number, number] {
  let lo = 0;
  let hi = 1;
  for (const p of points) {
    lo = Math.min(lo, p[axis]);
    hi = Math.max(hi, p[axis]);
  }
  return [lo, hi];
}

function panel(
  title: string,
  className: string,
  points: readonly [number, number][],
  sx: (v: number) => number,
  sy: (v: number) => number,
  spec: ScatterSpec,
  ticks: { x: number[]; y: number[] },
): SVGSVGElement {
  const summary = `Scatter plot of ${count(points.length)} ${title.toLowerCase()} records on the original's first two principal axes.`;
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': summary, class: 'scatter-svg' });
  root.append(svg('title', {}, summary));
  for (const t of ticks.x)
    root.append(
      svg('line', { class: 'grid', x1: sx(t), x2: sx(t), y1: M.top, y2: M.top + PH }),
      svg('text', { class: 'tick', x: sx(t), y: M.top + PH + 14, 'text-anchor': 'middle' }, decimal(t, 1)),
    );
  for (const t of ticks.y)
    root.append(
      svg('line', { class: 'grid', x1: M.left, x2: M.left + PW, y1: sy(t), y2: sy(t) }),
      svg('text', { class: 'tick', x: M.left - 5, y: sy(t) + 4, 'text-anchor': 'end' }, decimal(t, 1)),
    );
  root.append(
    svg('rect', { class: 'frame', x: M.left, y: M.top, width: PW, height: PH }),
    svg('text', { class: 'axis-label', x: M.left + PW / 2, y: H - 6, 'text-anchor': 'middle' }, spec.xLabel),
    svg('text', { class: 'axis-label', x: 0, y: 0, 'text-anchor': 'middle', transform: `translate(11 ${M.top + PH / 2}) rotate(-90)` }, spec.yLabel),
  );
  const dots = svg('g', { class: className });
  for (const [x, y] of points) dots.append(svg('circle', { cx: sx(x).toFixed(1), cy: sy(y).toFixed(1), r: 2 }));
  root.append(dots);
  return root;
}

/** Five ticks over [lo, hi], rounded to tenths. */
function ticksOf(lo: number, hi: number): number[] {
  const step = Math.max(0.1, Math.round(((hi - lo) / 4) * 10) / 10);
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + 1e-9; t += step) out.push(Math.round(t * 10) / 10);
  return out;
}

/** The two panels (original, released) as a figure. */
export function scatterChart(spec: ScatterSpec): HTMLElement {
  const all = [...spec.original, ...spec.released];
  const [x0, x1] = bounds(all, 0);
  const [y0, y1] = bounds(all, 1);
  const sx = (v: number) => M.left + ((v - x0) / (x1 - x0)) * PW;
  const sy = (v: number) => M.top + (1 - (v - y0) / (y1 - y0)) * PH;
  const ticks = { x: ticksOf(x0, x1), y: ticksOf(y0, y1) };
  const figure = (title: string, className: string, points: readonly [number, number][]) =>
    el(
      'figure',
      { class: 'scatter-panel' },
      panel(title, className, points, sx, sy, spec, ticks),
      el('figcaption', {}, `${title} (${count(points.length)} records)`),
    );
  return el(
    'div',
    { class: 'scatter-pair', id: spec.id },
    figure('Original', 'dots-original', spec.original),
    figure('Released', 'dots-released', spec.released),
  );
}
