// The risk-utility map of a comparison: risk R on x, utility U on y, one labelled point per
// candidate, the Pareto frontier (candidates no other one beats on both counts) as a line,
// the chosen candidate ringed and the feasible area of tau_R / tau_U shaded. Plain SVG built
// with DOM calls; every colour and line style comes from balance.css classes (no inline style).

import { paretoFrontier, type Candidate } from './balance-data';
import { el } from './dom';
import { decimal, score } from './format';
import { candidateClass } from './rut-sweep-chart';

const NS = 'http://www.w3.org/2000/svg';
/** Below this width balance.css sets larger text on the map. */
export const NARROW = '(max-width: 520px)';
const W = 640;
const H = 400;
const M = { left: 64, right: 20, top: 16, bottom: 54 };
const PW = W - M.left - M.right;
const PH = H - M.top - M.bottom;
const x = (risk: number) => M.left + Math.min(1, Math.max(0, risk)) * PW;
const y = (utility: number) => M.top + (1 - Math.min(1, Math.max(0, utility))) * PH;

type Attrs = Record<string, string | number>;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attrs = {}, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}
const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

export interface MapInput {
  candidates: readonly Candidate[];
  /** Index in `candidates` of each point's colour (its position among all candidates). */
  colorIndex: readonly number[];
  chosen: string | null;
  feasible: ReadonlySet<string>;
  tauR: number | null;
  tauU: number | null;
}

/** The map as a `figure` with its caption. */
export function riskUtilityMap(input: MapInput): HTMLElement {
  const { candidates, chosen, tauR, tauU } = input;
  const frontier = paretoFrontier(candidates);
  const onFrontier = new Set(frontier.map((c) => c.name));
  const summary = `Scatter plot of risk R (x) against utility U (y): ${candidates
    .map((c) => `${c.name} R ${score(c.risk_r)}, U ${score(c.utility_u)}${onFrontier.has(c.name) ? ' (on the frontier)' : ''}`)
    .join('; ')}.${chosen ? ` Chosen: ${chosen}.` : ''}`;
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': summary, class: 'ru-map-svg' });
  root.append(svg('title', {}, summary));

  // The feasible area (R <= tau_R, U >= tau_U) when a limit is given.
  if (tauR !== null || tauU !== null) {
    const x1 = tauR === null ? x(1) : x(tauR);
    const y0 = tauU === null ? y(1) : y(tauU);
    root.append(svg('rect', { class: 'feasible-area', x: x(0), y: y(1), width: Math.max(0, x1 - x(0)), height: Math.max(0, y0 - y(1)) }));
  }

  // Grid and axes.
  const ticks = [0, 0.2, 0.4, 0.6, 0.8, 1];
  for (const t of ticks) {
    root.append(
      svg('line', { class: 'grid', x1: x(t), x2: x(t), y1: y(0), y2: y(1) }),
      svg('line', { class: 'grid', x1: x(0), x2: x(1), y1: y(t), y2: y(t) }),
      svg('text', { class: 'tick', x: x(t), y: y(0) + 19, 'text-anchor': 'middle' }, decimal(t, 1)),
      svg('text', { class: 'tick', x: x(0) - 8, y: y(t) + 5, 'text-anchor': 'end' }, decimal(t, 1)),
    );
  }
  root.append(
    svg('line', { class: 'axis', x1: x(0), x2: x(1), y1: y(0), y2: y(0) }),
    svg('line', { class: 'axis', x1: x(0), x2: x(0), y1: y(0), y2: y(1) }),
    svg('text', { class: 'axis-label', x: M.left + PW / 2, y: H - 10, 'text-anchor': 'middle' }, 'Risk R (lower = safer) →'),
    svg('text', { class: 'axis-label', x: 0, y: 0, 'text-anchor': 'middle', transform: `translate(14 ${M.top + PH / 2}) rotate(-90)` }, 'Utility U (higher = more useful) →'),
  );
  // Narrow screens get larger text (balance.css), so the label boxes grow with it.
  const textScale = window.matchMedia(NARROW).matches ? 21 / 15 : 1;
  const textWidth = (text: string, px: number) => text.length * px * 0.56 * textScale + 4;
  /** Boxes the point labels must not cover (the limits' labels). */
  const reserved: Box[] = [];
  if (tauR !== null) {
    const text = `τ_R ${Number(tauR.toFixed(3))}`;
    reserved.push({ x0: x(tauR) + 4, x1: x(tauR) + 4 + textWidth(text, 14), y0: y(1), y1: y(1) + 16 * textScale });
    root.append(
      svg('line', { class: 'limit', x1: x(tauR), x2: x(tauR), y1: y(0), y2: y(1) }),
      svg('text', { class: 'limit-label', x: x(tauR) + 4, y: y(1) + 12 * textScale }, text),
    );
  }
  if (tauU !== null) {
    const text = `τ_U ${Number(tauU.toFixed(3))}`;
    reserved.push({ x0: x(1) - 4 - textWidth(text, 14), x1: x(1) - 4, y0: y(tauU) - 8 - 14 * textScale, y1: y(tauU) - 4 });
    root.append(
      svg('line', { class: 'limit', x1: x(0), x2: x(1), y1: y(tauU), y2: y(tauU) }),
      svg('text', { class: 'limit-label', x: x(1) - 4, y: y(tauU) - 8, 'text-anchor': 'end' }, text),
    );
  }

  // The Pareto frontier, by risk.
  if (frontier.length > 1) {
    root.append(svg('polyline', { class: 'frontier', points: frontier.map((c) => `${x(c.risk_r)},${y(c.utility_u)}`).join(' ') }));
  }

  // Points, then labels placed where they overlap neither a point nor another label.
  const taken: Box[] = [
    ...reserved,
    ...candidates.map((c) => ({ x0: x(c.risk_r) - 7, x1: x(c.risk_r) + 7, y0: y(c.utility_u) - 7, y1: y(c.utility_u) + 7 })),
  ];
  candidates.forEach((c, i) => {
    const cx = x(c.risk_r);
    const cy = y(c.utility_u);
    const classes = ['point', candidateClass(input.colorIndex[i] ?? i), onFrontier.has(c.name) ? 'on-frontier' : 'dominated'];
    if (!input.feasible.has(c.name)) classes.push('infeasible');
    const g = svg('g', { class: 'candidate-point', 'data-candidate': c.name });
    if (c.name === chosen) g.append(svg('circle', { class: 'chosen-ring', cx, cy, r: 11 }));
    g.append(svg('circle', { class: classes.join(' '), cx, cy, r: 6 }));
    g.append(svg('title', {}, `${c.name}: risk R ${score(c.risk_r)}, utility U ${score(c.utility_u)}`));
    root.append(g);
  });
  candidates.forEach((c) => {
    const cx = x(c.risk_r);
    const cy = y(c.utility_u);
    const text = c.name.length > 28 ? `${c.name.slice(0, 27)}…` : c.name;
    const w = textWidth(text, 15);
    const options: [number, number, 'start' | 'end'][] = [
      [cx + 12, cy + 5, 'start'],
      [cx - 12, cy + 5, 'end'],
      [cx + 8, cy - 12, 'start'],
      [cx + 8, cy + 24, 'start'],
      [cx - 8, cy - 12, 'end'],
      [cx - 8, cy + 24, 'end'],
    ];
    const boxOf = ([tx, ty, anchor]: [number, number, 'start' | 'end']): Box =>
      anchor === 'start' ? { x0: tx, x1: tx + w, y0: ty - 14 * textScale, y1: ty + 4 } : { x0: tx - w, x1: tx, y0: ty - 14 * textScale, y1: ty + 4 };
    const inside = (b: Box) => b.x0 >= M.left && b.x1 <= W - 2 && b.y0 >= 0 && b.y1 <= y(0);
    const pick = options.find((o) => inside(boxOf(o)) && !taken.some((t) => overlaps(t, boxOf(o)))) ?? options.find((o) => inside(boxOf(o))) ?? options[0]!;
    taken.push(boxOf(pick));
    root.append(svg('text', { class: `point-label ${c.name === chosen ? 'chosen' : ''}`, x: pick[0], y: pick[1], 'text-anchor': pick[2], 'data-candidate': c.name }, text));
  });

  const key = el(
    'p',
    { class: 'chart-key', 'aria-hidden': 'true' },
    el('span', { class: 'key-line key-frontier' }),
    el('span', { class: 'key-text' }, 'Pareto frontier: no other candidate has both lower risk and higher utility'),
    el('span', { class: 'key-ring' }),
    el('span', { class: 'key-text' }, 'chosen'),
    el('span', { class: 'key-hollow' }),
    el('span', { class: 'key-text' }, 'beaten on both counts'),
    tauR !== null || tauU !== null ? el('span', { class: 'key-area' }) : null,
    tauR !== null || tauU !== null ? el('span', { class: 'key-text' }, 'within the limits') : null,
  );
  const figure = el('figure', { class: 'ru-map', id: 'risk-utility-map' }, key);
  figure.prepend(root);
  return figure;
}
