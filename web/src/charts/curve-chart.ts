// The population-uniqueness curve (`population_uniqueness_curve`): the estimated share of
// population uniques against the sampling fraction (log scale), one line per estimator, with
// the user's own sampling fraction marked, and each estimate's confidence interval as an error
// bar (issue 15; docs/ci.md). uPlot on canvas; the numbers and intervals also as a table.

import uPlot from 'uplot';
import { AXIS, FONT, dataTable, drawVerticalMarker, followWidth, hostWidth, hoverReadout, plotHeight } from './charts';
import type { Chart } from '../ui/view-kit';
import { el } from '../ui/dom';
import { count, fractionPercent, smallPercent } from '../ui/format';
import type { CurvePoint, Estimator } from '../shared/suite';

export const ESTIMATOR_NAMES: Readonly<Record<Estimator, string>> = {
  dankar: 'Dankar (chosen model)',
  zayatz: 'Zayatz',
  pitman: 'Pitman',
  snb: 'SNB',
};

const STYLES: Readonly<Record<Estimator, { stroke: string; width: number; dash?: number[] }>> = {
  dankar: { stroke: '#1f5f96', width: 3 },
  zayatz: { stroke: '#9a4d0b', width: 2, dash: [8, 4] },
  pitman: { stroke: '#2e7d4f', width: 2, dash: [2, 3] },
  snb: { stroke: '#7b3fa0', width: 1.5 },
};

const ORDER: readonly Estimator[] = ['dankar', 'zayatz', 'pitman', 'snb'];
const READOUT_IDLE = 'Point at the chart to read the estimates at a sampling fraction.';
const MARK = '#b35c00';

/** An estimate with its interval: "7.10% (6.80% to 7.40%)". */
function withRange(p: CurvePoint, e: Estimator): string {
  if (p[e] === null) return 'no valid estimate';
  const ci = p.ci[e];
  return ci ? `${smallPercent(p[e])} (${smallPercent(ci.low)} to ${smallPercent(ci.high)})` : smallPercent(p[e]);
}

/** Error bars: each estimate's interval as a vertical line with caps, the estimators side by side. */
function drawIntervals(u: uPlot, points: CurvePoint[]): void {
  const { ctx } = u;
  const r = uPlot.pxRatio;
  ctx.save();
  ORDER.forEach((e, k) => {
    if (u.series[k + 1]?.show === false) return;
    ctx.strokeStyle = STYLES[e].stroke;
    ctx.lineWidth = 1.25 * r;
    for (const p of points) {
      const ci = p.ci[e];
      if (!ci || p[e] === null) continue;
      const x = u.valToPos(p.pi, 'x', true) + (k - 1.5) * 3 * r;
      const [y0, y1] = [u.valToPos(ci.low * 100, 'y', true), u.valToPos(ci.high * 100, 'y', true)];
      ctx.beginPath();
      ctx.moveTo(x, y0);
      ctx.lineTo(x, y1);
      ctx.moveTo(x - 2 * r, y0);
      ctx.lineTo(x + 2 * r, y0);
      ctx.moveTo(x - 2 * r, y1);
      ctx.lineTo(x + 2 * r, y1);
      ctx.stroke();
    }
  });
  ctx.restore();
}

function readoutText(p: CurvePoint): string {
  const parts = ORDER.map((e) => `${ESTIMATOR_NAMES[e].replace(' (chosen model)', '')} ${withRange(p, e)}`);
  const model = p.dankar_model ? ` (Dankar uses ${p.dankar_model})` : '';
  return `File = ${fractionPercent(p.pi)} of a population of ${count(p.n_population)}: ${parts.join(', ')}${model}.`;
}

/** Draws the curve into `host`; `currentPi` is the user's sampling fraction, if known. */
export function uniquenessCurveChart(host: HTMLElement, points: CurvePoint[], currentPi: number | null): Chart {
  const xs = points.map((p) => p.pi);
  const title = `Line chart: estimated share of population uniques by sampling fraction. ${points
    .map((p) => `${fractionPercent(p.pi)}: ${p.dankar === null ? 'no estimate' : smallPercent(p.dankar)}`)
    .join(', ')}.`;
  const target = el('div', { class: 'chart-canvas', role: 'img', 'aria-label': title });
  // The intervals' level, when any point has one (all share it).
  const level = points.flatMap((p) => ORDER.map((e) => p.ci[e])).find((c) => c !== null)?.level ?? null;
  const withIntervals = level !== null;
  const key = el(
    'p',
    { class: 'chart-key', 'aria-hidden': 'true' },
    ...ORDER.flatMap((e) => [el('span', { class: `key-line key-${e}` }), el('span', { class: 'key-text' }, ESTIMATOR_NAMES[e])]),
    ...(currentPi !== null ? [el('span', { class: 'key-line key-mark' }), el('span', { class: 'key-text' }, 'your population size')] : []),
    ...(level !== null ? [el('span', { class: 'key-text key-interval' }, `bars: ${Number((level * 100).toFixed(1))}% intervals`)] : []),
  );
  const readout = el('p', { class: 'chart-readout', 'aria-hidden': 'true' }, READOUT_IDLE);
  host.append(target, key, readout);

  const series: uPlot.Series[] = [
    { label: 'Sampling fraction' },
    ...ORDER.map(
      (e): uPlot.Series => ({
        label: ESTIMATOR_NAMES[e],
        stroke: STYLES[e].stroke,
        width: STYLES[e].width,
        dash: STYLES[e].dash,
        spanGaps: false,
        points: { show: true, size: e === 'dankar' ? 6 : 5, fill: STYLES[e].stroke, stroke: STYLES[e].stroke },
      }),
    ),
  ];
  const data: uPlot.AlignedData = [xs, ...ORDER.map((e) => points.map((p) => (p[e] === null ? null : p[e]! * 100)))];
  const maxY = Math.max(0, ...points.flatMap((p) => ORDER.map((e) => Math.max(p[e] ?? 0, p[e] === null ? 0 : (p.ci[e]?.high ?? 0)) * 100)));
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const decades = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1];

  const width = () => hostWidth(host);
  const hover = hoverReadout(readout, (i) => (points[i] ? readoutText(points[i]!) : null), READOUT_IDLE);
  const opts: uPlot.Options = {
    width: width(),
    height: plotHeight(),
    series,
    scales: {
      x: { time: false, distr: 3, log: 10, range: () => [lo, hi] },
      y: { range: () => [0, maxY > 0 ? maxY * 1.1 : 1] },
    },
    axes: [
      {
        ...AXIS,
        font: FONT,
        labelFont: FONT,
        label: 'Sampling fraction: the file’s share of the population (log)',
        splits: () => decades.filter((d) => d >= lo * 0.999 && d <= hi * 1.001),
        values: (_u, splits) => splits.map((v) => fractionPercent(v)),
      },
      {
        ...AXIS,
        font: FONT,
        labelFont: FONT,
        label: 'Share unique',
        size: 60,
        values: (_u, splits) => splits.map((v) => `${Number(v.toFixed(2))}%`),
      },
    ],
    cursor: hover.cursor,
    legend: hover.legend,
    hooks: {
      setCursor: hover.setCursor,
      draw: [
        ...(withIntervals ? [(u: uPlot) => drawIntervals(u, points)] : []),
        ...(currentPi !== null ? [(u: uPlot) => drawVerticalMarker(u, currentPi, 'your population size', MARK)] : []),
      ],
    },
  };
  const chart = followWidth(host, new uPlot(opts, data, target), width);
  host.append(
    dataTable(
      withIntervals ? 'Population uniqueness curve as a table (estimates with their intervals)' : 'Population uniqueness curve as a table',
      ['Sampling fraction', 'Population', ...ORDER.map((e) => ESTIMATOR_NAMES[e]), 'Model chosen'],
      points.map((p) => [fractionPercent(p.pi), count(p.n_population), ...ORDER.map((e) => withRange(p, e)), p.dankar_model ?? '—']),
      [0, 1, 2, 3, 4, 5],
    ),
  );
  return chart;
}
