// A tiny element builder. Text always goes through textContent: values from the user's file
// are never interpreted as HTML.

export type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined>;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
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

/** The bodies of `deferredDetails` not built yet, and how to build each. */
const deferred = new Map<HTMLDetailsElement, () => void>();

/** Runs `work` when the page is idle (after the frames it owes), or after a timer where the
 * browser has no idle callbacks (Safari). */
const whenIdle = (work: (deadline: { timeRemaining(): number }) => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: 1000 });
  else setTimeout(() => work({ timeRemaining: () => 8 }), 50);
};

/** Builds deferred bodies while the page is idle, a few at a time, until none is left. */
function fillWhenIdle(): void {
  whenIdle((deadline) => {
    for (const fill of deferred.values()) {
      fill();
      if (deadline.timeRemaining() <= 0) break;
    }
    if (deferred.size) fillWhenIdle();
  });
}

/**
 * A closed <details> whose body is built when the page is next idle (after the frame that
 * shows the rest), or as soon as it is needed: the user opens it, or `fillDeferred` (a
 * snapshot of the results). Its summary is built at once. A large report's closed tables
 * (every metric, every combination of quasi-identifiers, the charts' numbers) were most of the
 * elements built before its first frame (docs/decisions.md, "The results' closed tables built
 * after the first frame").
 */
export function deferredDetails(attrs: Attrs, summary: Child, body: () => Child[]): HTMLDetailsElement {
  const details = el('details', attrs, el('summary', {}, summary));
  const fill = () => {
    if (!deferred.delete(details)) return;
    append(details, ...body());
  };
  if (!deferred.size) fillWhenIdle();
  deferred.set(details, fill);
  details.addEventListener('toggle', fill, { once: true });
  return details;
}

/** Builds the bodies of the deferred <details> under `root`, and of those their bodies hold. */
export function fillDeferred(root: ParentNode): void {
  const under = () => [...deferred.entries()].filter(([details]) => root.contains(details));
  for (let found = under(); found.length; found = under()) for (const [, fill] of found) fill();
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
    el(
      'tbody',
      {},
      ...rows.map((cells) => el('tr', {}, ...cells.map((c, i) => el('td', { class: num(i) }, c)))),
    ),
  );
  return el('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': caption }, table);
}
