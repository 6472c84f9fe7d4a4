// Labels for the points of a chart that never cover each other or a point: points too close to
// tell apart share one label, and each label takes the first free place in rings around its
// points (right, left, above, below, then the diagonals, farther out ring by ring; a label off
// the first ring or on a diagonal gets a leader line). Pure geometry, in the chart's units.

export interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export const overlaps = (a: Box, b: Box): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

export interface LabelPoint {
  x: number;
  y: number;
  /** The number the label shows for this point. */
  number: number;
}

/** Groups of points each within `distance` of every other point of its group (a point joins
 * the first group it is close to all of; a line of points never chains into one group). */
export function groupClose<P extends LabelPoint>(points: readonly P[], distance: number): P[][] {
  const groups: P[][] = [];
  for (const p of points) {
    const home = groups.find((g) => g.every((q) => Math.hypot(p.x - q.x, p.y - q.y) < distance));
    if (home) home.push(p);
    else groups.push([p]);
  }
  return groups.map((g) => [...g].sort((a, b) => a.number - b.number));
}

/** Numbers as runs: 1, 2, 3, 5 -> "1–3, 5". */
export function numberRuns(numbers: readonly number[]): string {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    runs.push(j - i >= 2 ? `${sorted[i]}–${sorted[j]}` : sorted.slice(i, j + 1).join(', '));
    i = j + 1;
  }
  return runs.join(', ');
}

export interface Placed {
  text: string;
  /** Where the label's box lies; the text starts at x0 with its baseline at `baseline`. */
  box: Box;
  baseline: number;
  /** From the group's centre to the label, unless the label sits straight beside it. */
  leader: { x1: number; y1: number; x2: number; y2: number } | null;
}

export interface PlacementInput {
  groups: readonly LabelPoint[][];
  /** Half the side of the box a point takes: no label covers a point, no line crosses one. */
  pointRadius: number;
  /** Other boxes a label must not cover (text drawn before the labels). */
  taken: readonly Box[];
  /** Where labels may go. */
  area: Box;
  /** The label text's size in chart units; its width is estimated from the characters. */
  fontSize: number;
}

/** Distances from the points' centre to the label, ring by ring. */
const RINGS = [11, 24, 40, 58, 80];
/** Directions: right, left, above, below, then the diagonals. */
const DIRECTIONS: [number, number][] = [
  [1, 0],
  [-1, 0],
  [0, -1],
  [0, 1],
  [1, -1],
  [-1, -1],
  [1, 1],
  [-1, 1],
];

/** A label per group, each clear of the taken boxes and of the labels placed before it. */
export function placeLabels(input: PlacementInput): Placed[] {
  const { area, fontSize, pointRadius: r } = input;
  const pointBox = (p: LabelPoint): Box => ({ x0: p.x - r, x1: p.x + r, y0: p.y - r, y1: p.y + r });
  const points = input.groups.map((g) => g.map(pointBox));
  const taken = [...input.taken, ...points.flat()];
  const labels: Box[] = [];
  const height = fontSize * 1.1;
  // Top to bottom: in a column of points each label then finds the place beside its own point
  // before the labels below it can take that place.
  const order = input.groups.map((g, i) => ({ i, y: Math.min(...g.map((p) => p.y)) })).sort((a, b) => a.y - b.y);
  return order.map(({ i: index }) => {
    const group = input.groups[index]!;
    const others = points.filter((_, i) => i !== index).flat();
    const text = numberRuns(group.map((p) => p.number));
    const width = text.length * fontSize * 0.62 + 2;
    const cx = group.reduce((s, p) => s + p.x, 0) / group.length;
    const cy = group.reduce((s, p) => s + p.y, 0) / group.length;
    const spread = Math.max(...group.map((p) => Math.hypot(p.x - cx, p.y - cy)));
    const boxAt = (ring: number, [dx, dy]: [number, number]): Box => {
      const d = spread + ring;
      const x0 = dx > 0 ? cx + d : dx < 0 ? cx - d - width : cx - width / 2;
      const y0 = dy > 0 ? cy + d : dy < 0 ? cy - d - height : cy - height / 2;
      return { x0, x1: x0 + width, y0, y1: y0 + height };
    };
    const inside = (b: Box) => b.x0 >= area.x0 && b.x1 <= area.x1 && b.y0 >= area.y0 && b.y1 <= area.y1;
    // Beside its points (first ring, straight across) a label needs no line to them.
    const options = RINGS.flatMap((ring, r) => DIRECTIONS.map((dir, d) => ({ beside: r === 0 && d < 4, box: boxAt(ring, dir) })));
    const leaderTo = (b: Box) => ({ x1: cx, y1: cy, x2: Math.min(Math.max(cx, b.x0), b.x1), y2: Math.min(Math.max(cy, b.y0), b.y1) });
    // A leader line that crossed another point or label would seem to name it: the first place
    // free of both wins; failing one, the place whose leader crosses the fewest; a label is
    // never put over another one or a point while any place inside is clear of them.
    const crossings = (b: Box) => {
      const l = leaderTo(b);
      const steps = Math.ceil(Math.hypot(l.x2 - l.x1, l.y2 - l.y1) / 2);
      const along = Array.from({ length: steps + 1 }, (_, k) => ({ x: l.x1 + ((l.x2 - l.x1) * k) / steps, y: l.y1 + ((l.y2 - l.y1) * k) / steps }));
      return [...others, ...labels].filter((o) => along.some((q) => q.x > o.x0 && q.x < o.x1 && q.y > o.y0 && q.y < o.y1)).length;
    };
    const cost = (o: { beside: boolean; box: Box }) => 1000 * taken.filter((t) => overlaps(t, o.box)).length + (o.beside ? 0 : crossings(o.box));
    const pick =
      options.filter((o) => inside(o.box)).reduce<(typeof options)[number] | null>((best, o) => (best === null || cost(o) < cost(best) ? o : best), null) ??
      options[0]!;
    taken.push(pick.box);
    labels.push(pick.box);
    return { text, box: pick.box, baseline: pick.box.y0 + fontSize * 0.85, leader: pick.beside ? null : leaderTo(pick.box) };
  });
}
