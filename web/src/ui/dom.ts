// A tiny element builder. Text always goes through textContent: values from the user's file
// are never interpreted as HTML.

export type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined>;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'class') node.className = String(value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** What the first frame of the results leaves out, not built yet (the bodies of
 * `deferredDetails`, the charts of `afterFrame`), by the node it fills, and how to build it. */
const deferred = new Map<Element, () => void>();

/** Runs `work` when the page is idle (after the frames it owes), or after a timer where the
 * browser has no idle callbacks (Safari). */
const whenIdle = (work: (deadline: { timeRemaining(): number }) => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: 1000 });
  else setTimeout(() => work({ timeRemaining: () => 8 }), 50);
};

/** Whether `fillWhenIdle` has an idle callback waiting. */
let filling = false;

/** Builds deferred bodies while the page is idle, a few at a time, until none is left. */
function fillWhenIdle(): void {
  if (filling) return;
  filling = true;
  whenIdle((deadline) => {
    filling = false;
    for (const fill of deferred.values()) {
      fill();
      if (deadline.timeRemaining() <= 0) break;
    }
    if (deferred.size) fillWhenIdle();
  });
}

/** Files `build` as what fills `node`; the function that runs it once (not if `node`'s entry
 * was dropped or filed again since). */
function defer(node: Element, build: () => void): () => void {
  const fill = () => {
    if (deferred.get(node) !== fill) return;
    deferred.delete(node);
    build();
  };
  deferred.set(node, fill);
  return fill;
}

/**
 * A closed <details> whose body is built when the page is next idle (after the frame that
 * shows the rest), or as soon as it is needed: the user opens it, or `fillDeferred` (a
 * snapshot of the results). Its summary is built at once. A large report's closed tables
 * (every metric, every combination of quasi-identifiers, the charts' numbers) were most of the
 * elements built before its first frame
 * (docs/decisions/page/closed-tables-after-first-frame.md).
 */
export function deferredDetails(attrs: Attrs, summary: Child, body: () => Child[]): HTMLDetailsElement {
  const details = el('details', attrs, el('summary', {}, summary));
  const fill = defer(details, () => append(details, ...body()));
  fillWhenIdle();
  details.addEventListener('toggle', fill, { once: true });
  return details;
}

/**
 * Runs `draw` (the charts under `node`: they measure the page and paint canvases) right after
 * the next frame, so the frame that first shows the results does not wait for them; at once
 * under `fillDeferred`. Not at all once `dropDeferred` has dropped it (the results were
 * cleared) or `node` was given other work since.
 */
export function afterFrame(node: Element, draw: () => void): void {
  const fill = defer(node, draw);
  requestAnimationFrame(() => setTimeout(fill));
}

/** The deferred entries under `root` (itself included). */
const under = (root: Node) => [...deferred.entries()].filter(([node]) => root.contains(node));

/** Builds what is deferred under `root`, and what that deferred in turn. */
export function fillDeferred(root: Node): void {
  for (let found = under(root); found.length; found = under(root)) for (const [, fill] of found) fill();
}

/** Forgets what is deferred under `root` (about to be emptied): it will not be built. */
export function dropDeferred(root: Node): void {
  for (const [node] of under(root)) deferred.delete(node);
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`missing #${id}`);
  return node as T;
}

/** A table inside its own scrolling container (wide tables never widen the page). */
export function scrollTable(caption: string, head: string[], rows: Child[][], numeric: number[] = []): HTMLElement {
  const num = (i: number) => (numeric.includes(i) ? 'num' : null);
  const table = el(
    'table',
    {},
    el('caption', { class: 'visually-hidden' }, caption),
    el('thead', {}, el('tr', {}, ...head.map((h, i) => el('th', { scope: 'col', class: num(i) }, h)))),
    el('tbody', {}, ...rows.map((cells) => el('tr', {}, ...cells.map((c, i) => el('td', { class: num(i) }, c))))),
  );
  return el('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': caption }, table);
}
