// The RUT score as the weight of utility alpha sweeps 0.2..0.8 (balance.md Sec 6,
// `rut_alpha_sweep`): one line per candidate (for one release, just its line), with the chosen
// alpha marked. uPlot on canvas (no inline styles); the numbers also as a table.

import uPlot from 'uplot';
import type { SweepRow } from '../shared/balance-data';
import { AXIS, FONT, dataTable, drawVerticalMarker, followWidth, hostWidth, hoverReadout, plotHeight } from './charts';
import type { Chart } from '../ui/view-kit';
import { el } from '../ui/dom';
import { decimal, score } from '../ui/format';

/** Candidate colours, in input order (the same as `.cand-N` in balance.css). */
export const CANDIDATE_COLORS = ['#1f5f96', '#b35c00', '#2e7d4f', '#7b3fa0', '#a1261b', '#00788a', '#6b4e00', '#4a5361'] as const;
export const candidateClass = (i: number) => `cand-${i % CANDIDATE_COLORS.length}`;
const MARK = '#333';
const READOUT_IDLE = 'Point at the chart to read the scores at a weight.';

export interface SweepChart extends Chart {
  /** Moves the marker of the chosen alpha. */
  setAlpha(alpha: number): void;
}

/**
 * Draws the sweep of `names` (input order) into `host`, marking `alpha`; `colors[i]` is the
 * colour index of candidate i (default: its position).
 */
export function rutSweepChart(host: HTMLElement, names: readonly string[], rows: readonly SweepRow[], alpha: number, colors?: readonly number[]): SweepChart {
  let marked = alpha;
  const color = (i: number) => CANDIDATE_COLORS[(colors?.[i] ?? i) % CANDIDATE_COLORS.length]!;
  const swatch = (i: number) => candidateClass(colors?.[i] ?? i);
  const xs = rows.map((r) => r.alpha);
  const single = names.length === 1;
  const title = single
    ? `Line chart: RUT score of ${names[0]} by weight of utility α: ${rows.map((r) => `α ${decimal(r.alpha, 1)}: ${score(r.rut[0])}`).join(', ')}.`
    : `Line chart: RUT score of each candidate by weight of utility α. ${rows.map((r) => `α ${decimal(r.alpha, 1)}: best ${r.argmax}`).join(', ')}.`;
  const target = el('div', { class: 'chart-canvas', role: 'img', 'aria-label': title });
  const key = el(
    'p',
    { class: 'chart-key', 'aria-hidden': 'true' },
    ...names.flatMap((n, i) => [el('span', { class: `key-swatch ${swatch(i)}` }), el('span', { class: 'key-text' }, n)]),
    el('span', { class: 'key-line key-chosen' }),
    el('span', { class: 'key-text' }, 'chosen α'),
  );
  const readout = el('p', { class: 'chart-readout', 'aria-hidden': 'true' }, READOUT_IDLE);
  host.append(target, key, readout);

  const series: uPlot.Series[] = [
    { label: 'α' },
    ...names.map(
      (n, i): uPlot.Series => ({
        label: n,
        stroke: color(i),
        width: 2,
        points: { show: true, size: 6, fill: color(i), stroke: color(i) },
      }),
    ),
  ];
  const data: uPlot.AlignedData = [xs, ...names.map((_, i) => rows.map((r) => r.rut[i] ?? null))];
  const all = rows.flatMap((r) => r.rut);
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  // At least 0.1 of the score's range in view, so a flat line does not look steep.
  const pad = Math.max(0.02, (0.1 - (hi - lo)) / 2);
  const yRange: [number, number] = [Math.max(0, lo - pad), Math.min(1, hi + pad)];

  const width = () => hostWidth(host);
  const hover = hoverReadout(
    readout,
    (i) => {
      const r = rows[i];
      return r ? `α ${decimal(r.alpha, 1)}: ${names.map((n, j) => `${n} ${score(r.rut[j])}`).join(', ')}${single ? '' : `; best ${r.argmax}`}.` : null;
    },
    READOUT_IDLE,
  );
  const opts: uPlot.Options = {
    width: width(),
    height: plotHeight(),
    series,
    scales: { x: { time: false, range: () => [xs[0] ?? 0.2, xs[xs.length - 1] ?? 0.8] }, y: { range: () => yRange } },
    axes: [
      {
        ...AXIS,
        font: FONT,
        labelFont: FONT,
        label: 'Weight of utility α (safety weight β = 1 − α)',
        splits: () => xs,
        values: (_u, splits) => splits.map((v) => decimal(v, 1)),
      },
      { ...AXIS, font: FONT, labelFont: FONT, label: 'RUT score', size: 56, values: (_u, splits) => splits.map((v) => decimal(v, 2)) },
    ],
    cursor: hover.cursor,
    legend: hover.legend,
    hooks: {
      setCursor: hover.setCursor,
      draw: [(u) => drawVerticalMarker(u, marked, `chosen α = ${Number(marked.toFixed(3))}`, MARK)],
    },
  };
  const plot = new uPlot(opts, data, target);
  const chart = followWidth(host, plot, width);
  host.append(
    dataTable(
      'RUT scores by weight as a table',
      ['α (utility)', 'β (safety)', ...names, ...(single ? [] : ['Best'])],
      rows.map((r) => [decimal(r.alpha, 1), decimal(1 - r.alpha, 1), ...r.rut.map((x) => score(x)), ...(single ? [] : [r.argmax])]),
      [0, 1, ...names.map((_, i) => i + 2)],
    ),
  );
  return {
    destroy: () => chart.destroy(),
    setAlpha(a: number) {
      marked = a;
      plot.redraw(false);
    },
  };
}
