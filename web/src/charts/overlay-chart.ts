// One column's distribution in the original and in the release, overlaid: for each bin or
// value, a wide light bar (original) with a narrow dark bar (released) drawn over it, so a
// difference shows as a bar sticking out of, or falling short of, its background. uPlot on
// canvas (CSP-clean), with a key, a hover read-out and the numbers as a table.

import uPlot from 'uplot';
import { AXIS, FONT, READOUT_IDLE, categoryAxis, dataTable, followWidth, hostWidth, hoverReadout } from './charts';
import type { Chart } from '../ui/view-kit';
import { el } from '../ui/dom';
import { percent, signed } from '../ui/format';

const ORIGINAL_FILL = 'rgba(37, 99, 150, 0.30)';
const ORIGINAL_STROKE = '#1f4f7a';
const RELEASED_FILL = 'rgba(180, 84, 26, 0.88)';
const RELEASED_STROKE = '#8a3d0f';

export interface OverlaySpec {
  /** The column, for the accessible summary. */
  column: string;
  labels: string[];
  /** Shares of rows in [0, 1]. */
  original: number[];
  released: number[];
  /** The two series' names (default: original, released). */
  names?: [string, string];
}

const height = () => (window.innerHeight < 560 ? 170 : 210);

/** Percentage points between two shares, signed. */
const points = (d: number) => signed(Math.round(d * 10000) / 100, (v) => `${v.toFixed(2)} pts`);

export function overlayChart(host: HTMLElement, spec: OverlaySpec): Chart {
  const [first, second] = spec.names ?? ['Original', 'Released'];
  const xs = spec.labels.map((_, i) => i);
  const label = (i: number) => spec.labels[Math.round(i)] ?? '';
  const summary = spec.labels.map((l, i) => `${l}: ${percent(spec.original[i])} → ${percent(spec.released[i])}`).join('; ');
  const target = el('div', {
    class: 'chart-canvas',
    role: 'img',
    'aria-label': `Bar chart: share of rows per value of ${spec.column}, ${first.toLowerCase()} then ${second.toLowerCase()}. ${summary}.`,
  });
  const readout = el('p', { class: 'chart-readout', 'aria-hidden': 'true' }, READOUT_IDLE);
  const key = el(
    'p',
    { class: 'chart-key', 'aria-hidden': 'true' },
    el('span', { class: 'key-swatch key-original' }),
    el('span', { class: 'key-text' }, first),
    el('span', { class: 'key-swatch key-released' }),
    el('span', { class: 'key-text' }, second),
  );
  host.append(key, target, readout);

  // Wide enough per label that axis labels never overlap ("13000–13099" needs more than "F").
  const longest = Math.max(1, ...spec.labels.map((l) => l.length));
  const perLabel = Math.max(36, longest * 7 + 14);
  const width = () => hostWidth(host, 220);
  const hover = hoverReadout(readout, (i) =>
    i < xs.length
      ? `${label(i)}: ${percent(spec.original[i]!)} of the ${first.toLowerCase()} rows, ${percent(spec.released[i]!)} of the ${second.toLowerCase()} rows (${points(spec.released[i]! - spec.original[i]!)}).`
      : null,
  );
  const pct = (v: number | null | undefined) => (v === null || v === undefined ? '' : `${v.toFixed(2)}%`);
  const opts: uPlot.Options = {
    width: width(),
    height: height(),
    series: [
      { label: 'x', value: (_u, v) => (v === null ? '' : label(v)) },
      {
        label: first,
        fill: ORIGINAL_FILL,
        stroke: ORIGINAL_STROKE,
        width: 1,
        paths: uPlot.paths.bars!({ size: [0.86, 72], align: 0 }),
        points: { show: false },
        value: (_u, v) => pct(v),
      },
      {
        label: second,
        fill: RELEASED_FILL,
        stroke: RELEASED_STROKE,
        width: 1,
        paths: uPlot.paths.bars!({ size: [0.42, 34], align: 0 }),
        points: { show: false },
        value: (_u, v) => pct(v),
      },
    ],
    scales: {
      x: { time: false, range: () => [-0.5, xs.length - 0.5] },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
    },
    axes: [
      categoryAxis(xs.length, label, width, perLabel),
      { ...AXIS, font: FONT, labelFont: FONT, label: 'Share of rows', size: 56, values: (_u, splits) => splits.map((v) => `${Number(v.toFixed(1))}%`) },
    ],
    cursor: hover.cursor,
    legend: hover.legend,
    hooks: { setCursor: hover.setCursor },
  };
  const data: uPlot.AlignedData = [xs, spec.original.map((s) => s * 100), spec.released.map((s) => s * 100)];
  const chart = followWidth(host, new uPlot(opts, data, target), width, height);
  host.append(
    dataTable(
      `Shares of ${spec.column} as a table`,
      ['Value', first, second, 'Difference'],
      spec.labels.map((l, i) => [l, percent(spec.original[i]), percent(spec.released[i]), points(spec.released[i]! - spec.original[i]!)]),
      [1, 2, 3],
    ),
  );
  return chart;
}
