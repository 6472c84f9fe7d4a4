// An SVG element built with DOM calls: attributes only (the page's CSP allows no inline style;
// colours and line styles come from CSS classes).

const NS = 'http://www.w3.org/2000/svg';

export type SvgAttrs = Record<string, string | number>;

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: SvgAttrs = {}, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}
