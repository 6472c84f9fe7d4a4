// The two charts of the results, drawn with uPlot on canvas (no inline styles, CSP-clean):
// the class-size histogram (records per group size) and the ARX risk distribution. Both use an
// ordinal x axis (one bar per category) and come with the same numbers as a table.

import uPlot from 'uplot';
import { deferredDetails, el, scrollTable } from '../ui/dom';
import { count, edge, percent, plural } from '../ui/format';
import type { Chart } from '../ui/view-kit';

const BAR_FILL = 'rgba(37, 99, 150, 0.78)';
const BAR_STROKE = '#1f4f7a';
const LINE_STROKE = '#9a4d0b';
export const AXIS = { stroke: '#333', grid: { stroke: '#e3e6ea', width: 1 }, ticks: { stroke: '#c5cad1', width: 1 } };
export const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

interface BarSpec {
  /** Accessible summary of the chart. */
  title: string;
  labels: string[];
  bars: { label: string; values: number[]; format: (v: number) => string };
  line?: { label: string; values: number[]; format: (v: number) => string };
  xLabel: string;
  yLabel: string;
  yFormat: (v: number) => string;
  /** Print each bar's value above it (for charts with few bars). */
  valueLabels?: boolean;
  /** The hover read-out for category i. */
  readout: (i: number) => string;
}

export const READOUT_IDLE = 'Point at a bar to read its numbers.';

/**
 * The hover behaviour every chart shares: no drag-zoom, no legend, and a read-out paragraph
 * set from `text(i)` for the point under the cursor (`idle` when there is none).
 */
export function hoverReadout(
  readout: HTMLElement,
  text: (i: number) => string | null,
  idle: string = READOUT_IDLE,
): Pick<uPlot.Options, 'cursor' | 'legend'> & { setCursor: ((u: uPlot) => void)[] } {
  return {
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    legend: { show: false },
    setCursor: [
      (u) => {
        const i = u.cursor.idx;
        readout.textContent = (i === null || i === undefined ? null : text(i)) ?? idle;
      },
    ],
  };
}

/**
 * An ordinal x axis: one tick per category, thinned so labels (about `perLabel` px each)
 * never overlap at narrow widths or high zoom.
 */
export function categoryAxis(count: number, label: (i: number) => string, width: () => number, perLabel: number, title?: string): uPlot.Axis {
  const xs = Array.from({ length: count }, (_, i) => i);
  return {
    ...AXIS,
    font: FONT,
    labelFont: FONT,
    ...(title === undefined ? {} : { label: title }),
    grid: { show: false },
    splits: (u) => {
      const plotWidth = u.bbox.width / uPlot.pxRatio || width();
      const step = Math.max(1, Math.ceil((count * perLabel) / Math.max(plotWidth, 1)));
      return xs.filter((i) => i % step === 0);
    },
    values: (_u, splits) => splits.map((i) => label(i)),
  };
}

/**
 * The width a chart is drawn at, at least `least`: its host's, or where the host has no width
 * (it lies in a folded section, whose content the browser may leave unlaid once a frame has
 * shown it closed) the fold's, so that a chart drawn after the results' first frame, or
 * snapshotted for a report, is as wide as when its section is opened. `followWidth` keeps it
 * so afterwards.
 */
export function hostWidth(host: HTMLElement, least = 240): number {
  return Math.max(least, Math.floor(host.clientWidth || host.closest('details')?.clientWidth || 0));
}

/** Keeps a chart as wide as its host (`height`: the chart's height for the window). */
export function followWidth(host: HTMLElement, plot: uPlot, width: () => number, height: () => number = plotHeight): Chart {
  const observer = new ResizeObserver(() => {
    const w = width();
    if (w !== plot.width) plot.setSize({ width: w, height: height() });
  });
  observer.observe(host);
  return {
    destroy() {
      observer.disconnect();
      plot.destroy();
    },
  };
}

/** Draws the bar values above the bars (canvas text, so no styles are involved). */
function drawValueLabels(u: uPlot, format: (v: number) => string): void {
  const { ctx } = u;
  const values = u.data[1];
  ctx.save();
  ctx.font = `${Math.round(11 * uPlot.pxRatio)}px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif`;
  ctx.fillStyle = '#1b1f24';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  values.forEach((v, i) => {
    if (v === null || v === undefined) return;
    const x = u.valToPos(i, 'x', true);
    const y = u.valToPos(v, 'y', true);
    ctx.fillText(format(v), x, y - 3 * uPlot.pxRatio);
  });
  ctx.restore();
}

export function plotHeight(): number {
  return window.innerHeight < 560 ? 200 : 260;
}

/** Draws bars (and an optional line) over ordinal categories into `host`, resizing with it. */
function barChart(host: HTMLElement, spec: BarSpec): Chart {
  const xs = spec.labels.map((_, i) => i);
  const label = (i: number) => spec.labels[Math.round(i)] ?? '';
  const target = el('div', { class: 'chart-canvas', role: 'img', 'aria-label': spec.title });
  const readout = el('p', { class: 'chart-readout', 'aria-hidden': 'true' }, READOUT_IDLE);
  const key = el(
    'p',
    { class: 'chart-key', 'aria-hidden': 'true' },
    el('span', { class: 'key-bar' }),
    spec.bars.label,
    spec.line ? el('span', { class: 'key-line' }) : null,
    spec.line?.label,
  );
  host.append(target, key, readout);

  const series: uPlot.Series[] = [
    { label: 'x', value: (_u, v) => (v === null ? '' : label(v)) },
    {
      label: spec.bars.label,
      fill: BAR_FILL,
      stroke: BAR_STROKE,
      width: 1,
      paths: uPlot.paths.bars!({ size: [0.72, 64], align: 0 }),
      points: { show: false },
      value: (_u, v) => (v === null ? '' : spec.bars.format(v)),
    },
  ];
  const data: uPlot.AlignedData = [xs, spec.bars.values];
  if (spec.line) {
    const fmt = spec.line.format;
    series.push({
      label: spec.line.label,
      stroke: LINE_STROKE,
      width: 2,
      points: { show: true, size: 5, fill: LINE_STROKE },
      value: (_u, v) => (v === null ? '' : fmt(v)),
    });
    data.push(spec.line.values);
  }

  const width = () => hostWidth(host);
  const hover = hoverReadout(readout, spec.readout);
  const opts: uPlot.Options = {
    width: width(),
    height: plotHeight(),
    series,
    scales: {
      x: { time: false, range: () => [-0.5, xs.length - 0.5] },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.08 : 1] },
    },
    axes: [
      categoryAxis(xs.length, label, width, 52, spec.xLabel),
      // Room for the widest tick label (a count of a million records is 9 characters), so the
      // axis title beside the labels never overlaps them.
      {
        ...AXIS,
        font: FONT,
        labelFont: FONT,
        label: spec.yLabel,
        size: (_u, values) => Math.max(56, 14 + 7 * Math.max(0, ...(values ?? []).map((v) => v.length))),
        values: (_u, splits) => splits.map(spec.yFormat),
      },
    ],
    cursor: hover.cursor,
    legend: hover.legend,
    hooks: {
      setCursor: hover.setCursor,
      draw: spec.valueLabels ? [(u) => drawValueLabels(u, spec.bars.format)] : [],
    },
  };
  return followWidth(host, new uPlot(opts, data, target), width);
}

/** Group-size buckets aligned with the k thresholds 2, 3, 5 and 11 of `k_violators`. */
const SIZE_BUCKETS: readonly [number, number, string][] = [
  [1, 1, '1'],
  [2, 2, '2'],
  [3, 4, '3–4'],
  [5, 10, '5–10'],
  [11, 20, '11–20'],
  [21, 50, '21–50'],
  [51, 100, '51–100'],
  [101, 1000, '101–1000'],
  [1001, Infinity, '> 1000'],
];

/** Class-size histogram from `class_size_histogram` (`[[size, classes, records], ...]`). */
export function classSizeChart(host: HTMLElement, histogram: [number, number, number][]): Chart {
  const buckets = SIZE_BUCKETS.map(([lo, hi, name]) => {
    const rows = histogram.filter(([s]) => s >= lo && s <= hi);
    return { name, classes: rows.reduce((a, r) => a + r[1], 0), records: rows.reduce((a, r) => a + r[2], 0) };
  });
  // Drop empty buckets after the last occupied one (small tables never reach "> 1000").
  let last = buckets.length - 1;
  while (last > 0 && buckets[last]!.records === 0) last--;
  const shown = buckets.slice(0, last + 1);

  const chart = barChart(host, {
    title: `Bar chart: number of records by group size. ${shown.map((b) => `${b.name}: ${b.records}`).join(', ')}.`,
    labels: shown.map((b) => b.name),
    bars: { label: 'Records', values: shown.map((b) => b.records), format: count },
    xLabel: 'Group size (records sharing the same quasi-identifier values)',
    yLabel: 'Records',
    yFormat: (v) => (Number.isInteger(v) ? count(v) : ''),
    valueLabels: true,
    readout: (i) => {
      const b = shown[i];
      return b ? `Group size ${b.name}: ${plural(b.records, 'record')} in ${plural(b.classes, 'group')}.` : READOUT_IDLE;
    },
  });
  host.append(
    dataTable(
      'Class sizes as a table',
      ['Group size', 'Groups', 'Records'],
      histogram.map(([s, c, r]) => [count(s), count(c), count(r)]),
      [0, 1, 2],
    ),
  );
  return chart;
}

/** Risk distribution from `risk_distribution` (`[[edge, share, cumulative_share] x 24]`). */
export function riskChart(host: HTMLElement, distribution: [number, number, number][]): Chart {
  // Leading empty bins (risks below any record's risk) carry no information.
  const first = Math.max(
    0,
    distribution.findIndex(([, share]) => share > 0),
  );
  const bins = distribution.slice(first);
  const chart = barChart(host, {
    title: `Bar chart: share of records by re-identification risk. ${bins
      .filter(([, s]) => s > 0)
      .map(([e, s]) => `risk up to ${edge(e)}: ${percent(s)}`)
      .join(', ')}.`,
    labels: bins.map(([e]) => `≤ ${edge(e)}`),
    bars: { label: 'Share of records in the bin', values: bins.map(([, s]) => s * 100), format: (v) => `${v.toFixed(2)}%` },
    line: { label: 'Cumulative share', values: bins.map(([, , c]) => c * 100), format: (v) => `${v.toFixed(2)}%` },
    xLabel: 'Re-identification risk (upper edge of bin)',
    yLabel: 'Share of records',
    yFormat: (v) => `${Number(v.toFixed(1))}%`,
    readout: (i) => {
      const b = bins[i];
      return b ? `Risk up to ${edge(b[0])}: ${percent(b[1])} of records (cumulative ${percent(b[2])}).` : READOUT_IDLE;
    },
  });
  host.append(
    dataTable(
      'Risk distribution as a table',
      ['Risk up to', 'Records', 'Cumulative'],
      distribution.map(([e, s, c]) => [edge(e), percent(s), percent(c)]),
      [0, 1, 2],
    ),
  );
  return chart;
}

export function dataTable(summary: string, head: string[], rows: string[][], numeric: number[]): HTMLElement {
  return deferredDetails({ class: 'chart-data' }, summary, () => [scrollTable(summary, head, rows, numeric)]);
}

/**
 * A dashed vertical line at `x` across the plot with `label` on the side with more room
 * (the chosen weight, the user's population size). Nothing when `x` is off the scale.
 */
export function drawVerticalMarker(u: uPlot, x: number, label: string, colour: string): void {
  const [lo, hi] = [u.scales.x.min ?? 0, u.scales.x.max ?? 1];
  if (!(x >= lo - 1e-9 && x <= hi + 1e-9)) return;
  const { ctx } = u;
  const px = u.valToPos(x, 'x', true);
  const { top, height } = u.bbox;
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1.5 * uPlot.pxRatio;
  ctx.setLineDash([4 * uPlot.pxRatio, 3 * uPlot.pxRatio]);
  ctx.beginPath();
  ctx.moveTo(px, top);
  ctx.lineTo(px, top + height);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = colour;
  ctx.font = `${Math.round(11 * uPlot.pxRatio)}px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif`;
  ctx.textBaseline = 'top';
  const right = px < u.bbox.left + u.bbox.width / 2;
  ctx.textAlign = right ? 'left' : 'right';
  ctx.fillText(label, px + (right ? 4 : -4) * uPlot.pxRatio, top + 4 * uPlot.pxRatio);
  ctx.restore();
}
