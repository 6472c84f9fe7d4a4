// The risk-utility map of a comparison: risk R on x, utility U on y, one numbered point per
// candidate (numbers placed clear of each other, label-placement.ts, and listed with the names
// under the map), the Pareto frontier (candidates no other one beats on both counts) as a line,
// the chosen candidate ringed and the feasible area of tau_R / tau_U shaded. Plain SVG built
// with DOM calls; every colour and line style comes from balance.css classes (no inline style).

import { paretoFrontier, type Candidate } from '../shared/balance-data';
import { el } from '../ui/dom';
import { groupClose, placeLabels, type Box } from './label-placement';
import { decimal, score } from '../ui/format';
import { candidateClass } from './rut-sweep-chart';
import { svg } from './svg';

/** Below this width balance.css sets larger text on the map. */
export const NARROW = '(max-width: 520px)';
const W = 640;
const H = 400;
const M = { left: 64, right: 20, top: 16, bottom: 54 };
const PW = W - M.left - M.right;
const PH = H - M.top - M.bottom;
const x = (risk: number) => M.left + Math.min(1, Math.max(0, risk)) * PW;
const y = (utility: number) => M.top + (1 - Math.min(1, Math.max(0, utility))) * PH;

/** Points closer than this (in map units) share one label: they cannot be told apart. */
const CLOSE = 9;

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
    svg(
      'text',
      { class: 'axis-label', x: 0, y: 0, 'text-anchor': 'middle', transform: `translate(14 ${M.top + PH / 2}) rotate(-90)` },
      'Utility U (higher = more useful) →',
    ),
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

  // Each point is numbered by its candidate's place in the comparison (as in the table); the
  // numbers go beside the points, clear of each other, and the list under the map names them.
  const numbered = candidates.map((c, i) => {
    const color = input.colorIndex[i] ?? i;
    return { c, color, x: x(c.risk_r), y: y(c.utility_u), number: color + 1 };
  });
  const labels = placeLabels({
    groups: groupClose(numbered, CLOSE),
    pointRadius: 8,
    taken: reserved,
    area: { x0: M.left + 2, x1: W - 2, y0: 2, y1: y(0) - 2 },
    fontSize: 15 * textScale,
  });
  for (const l of labels) if (l.leader) root.append(svg('line', { class: 'leader', ...l.leader }));
  for (const { c, color, x: cx, y: cy } of numbered) {
    const classes = ['point', candidateClass(color), onFrontier.has(c.name) ? 'on-frontier' : 'dominated'];
    if (!input.feasible.has(c.name)) classes.push('infeasible');
    const g = svg('g', { class: 'candidate-point', 'data-candidate': c.name });
    if (c.name === chosen) g.append(svg('circle', { class: 'chosen-ring', cx, cy, r: 11 }));
    g.append(svg('circle', { class: classes.join(' '), cx, cy, r: 6 }));
    g.append(svg('title', {}, `${c.name}: risk R ${score(c.risk_r)}, utility U ${score(c.utility_u)}`));
    root.append(g);
  }
  const chosenNumber = numbered.find((p) => p.c.name === chosen)?.number;
  for (const l of labels) {
    const holdsChosen =
      chosenNumber !== undefined &&
      l.text.split(', ').some((run) => {
        const [a, b] = run.split('–').map(Number);
        return chosenNumber >= a! && chosenNumber <= (b ?? a!);
      });
    root.append(svg('text', { class: `point-label${holdsChosen ? ' chosen' : ''}`, x: l.box.x0, y: l.baseline }, l.text));
  }

  const legend = el(
    'ol',
    { class: 'ru-legend' },
    ...[...numbered]
      .sort((a, b) => a.number - b.number)
      .map(({ c, color, number }) =>
        el(
          'li',
          { 'data-candidate': c.name, class: c.name === chosen ? 'chosen' : null },
          el('span', { class: `key-swatch ${candidateClass(color)}`, 'aria-hidden': 'true' }),
          el('span', { class: 'ru-legend-number' }, String(number)),
          ' ',
          el('span', { class: 'ru-legend-name' }, c.name),
          ' ',
          el('span', { class: 'ru-legend-figures' }, `R ${score(c.risk_r)}, U ${score(c.utility_u)}${c.name === chosen ? ' (chosen)' : ''}`),
        ),
      ),
  );

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
  const figure = el('figure', { class: 'ru-map', id: 'risk-utility-map' }, legend, key);
  figure.prepend(root);
  return figure;
}
