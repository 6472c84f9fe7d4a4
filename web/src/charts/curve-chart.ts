// The population-uniqueness curve (`population_uniqueness_curve`): the estimated share of
// population uniques against the sampling fraction (log scale), one line per estimator, with
// the user's own sampling fraction marked. uPlot on canvas; the numbers also as a table.

import uPlot from 'uplot';
import { AXIS, FONT, dataTable, drawVerticalMarker, followWidth, hoverReadout, plotHeight, type Chart } from './charts';
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


function readoutText(p: CurvePoint): string {
  const parts = ORDER.map((e) => `${ESTIMATOR_NAMES[e].replace(' (chosen model)', '')} ${p[e] === null ? 'no valid estimate' : smallPercent(p[e])}`);
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
  const key = el(
    'p',
    { class: 'chart-key', 'aria-hidden': 'true' },
    ...ORDER.flatMap((e) => [el('span', { class: `key-line key-${e}` }), el('span', { class: 'key-text' }, ESTIMATOR_NAMES[e])]),
    ...(currentPi !== null ? [el('span', { class: 'key-line key-mark' }), el('span', { class: 'key-text' }, 'your population size')] : []),
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
  const maxY = Math.max(0, ...points.flatMap((p) => ORDER.map((e) => (p[e] ?? 0) * 100)));
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const decades = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1];

  const width = () => Math.max(240, Math.floor(host.clientWidth));
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
      draw: currentPi !== null ? [(u) => drawVerticalMarker(u, currentPi, 'your population size', MARK)] : [],
    },
  };
  const chart = followWidth(host, new uPlot(opts, data, target), width);
  host.append(
    dataTable(
      'Population uniqueness curve as a table',
      ['Sampling fraction', 'Population', ...ORDER.map((e) => ESTIMATOR_NAMES[e]), 'Model chosen'],
      points.map((p) => [
        fractionPercent(p.pi),
        count(p.n_population),
        ...ORDER.map((e) => (p[e] === null ? 'no valid estimate' : smallPercent(p[e]))),
        p.dankar_model ?? '—',
      ]),
      [0, 1, 2, 3, 4, 5],
    ),
  );
  return chart;
}
