// Finding one's way in the results: a summary bar that stays in view while scrolling (the
// verdict, k, unique records, records at risk and utility U), a table of contents of the result
// sections whose links move the focus to the section, and the long sections folded into
// <details> with their headline figure (section-headlines.ts) in the summary line. What the
// reader opened stays open when the results are drawn again after a change of settings.
// Printing unfolds every section and leaves out the bar and the contents (style.css). The
// links never change the address: its fragment belongs to the settings.

import './results-nav.css';
import { el } from '../../ui/dom';
import { count, percent, score } from '../../ui/format';
import { numberValue, type Report } from '../../shared/report';
import { HEADLINES } from './section-headlines';
import { arxVerdict } from '../../shared/suite';

/** The heading ids of the folded sections the reader opened, kept across redraws. */
const opened = new Set<string>();

/** A result section: its element, its heading and, when it is folded, its <details>. */
interface Part {
  section: HTMLElement;
  heading: HTMLElement;
  fold: HTMLDetailsElement | null;
}

/** Moves the heading into a summary line with the headline and the rest of the section under it. */
function fold(section: HTMLElement, heading: HTMLElement, headline: string | null): HTMLDetailsElement {
  const body = [...section.childNodes].filter((n) => n !== heading);
  const summary = el(
    'summary',
    { class: 'section-summary' },
    el('span', { class: 'section-label' }, heading, headline ? el('span', { class: 'section-headline' }, headline) : null),
  );
  const details = el('details', { class: 'section-fold', 'data-section': heading.id }, summary);
  details.append(...body);
  details.open = opened.has(heading.id);
  details.addEventListener('toggle', () => (details.open ? opened.add(heading.id) : opened.delete(heading.id)));
  section.append(details);
  return details;
}

/** The sections among the panel's top-level nodes (and those of a grid of charts). */
function partsOf(nodes: readonly Element[]): Part[] {
  return nodes.flatMap((node) => {
    const sections = node.matches('section[aria-labelledby]') ? [node] : [...node.querySelectorAll(':scope > section[aria-labelledby]')];
    return sections.flatMap((section) => {
      const heading = section.querySelector<HTMLElement>(`#${section.getAttribute('aria-labelledby')}`);
      return heading ? [{ section: section as HTMLElement, heading, fold: null }] : [];
    });
  });
}

/** Opens `part` if folded, moves the focus to its summary line or heading and scrolls it up. */
function goTo(target: HTMLElement): void {
  const details = target instanceof HTMLDetailsElement ? target : target.closest('details');
  if (details && !details.open) details.open = true;
  const focus = details?.querySelector<HTMLElement>(':scope > summary') ?? target;
  if (focus === target && !focus.matches('a, summary, button')) focus.setAttribute('tabindex', '-1');
  focus.focus({ preventScroll: true });
  focus.scrollIntoView({ block: 'start' });
}

function link(text: string, target: HTMLElement, className?: string): HTMLAnchorElement {
  const a = el('a', { href: `#${target.id}`, class: className }, text);
  a.addEventListener('click', (e) => {
    e.preventDefault();
    goTo(target);
  });
  return a;
}

function contents(parts: readonly Part[], extra: readonly HTMLElement[]): HTMLElement {
  const items = [
    ...parts.map((p) => {
      const headline = p.fold?.querySelector('.section-headline')?.textContent;
      return el(
        'li',
        { 'data-section': p.heading.id },
        link(p.heading.textContent ?? '', p.heading),
        headline ? el('span', { class: 'toc-headline' }, ` ${headline}`) : null,
      );
    }),
    ...extra.map((d) => el('li', { 'data-section': d.id }, link(d.querySelector('summary')?.textContent ?? d.id, d))),
  ];
  return el(
    'nav',
    { class: 'results-toc', id: 'results-toc', 'aria-labelledby': 'results-toc-title', tabindex: -1 },
    el('h3', { id: 'results-toc-title', class: 'toc-title' }, 'Contents'),
    el('ol', {}, ...items),
  );
}

const LIGHT_NAMES = { green: 'Green', amber: 'Amber', red: 'Red' } as const;

/** The bar that stays at the top of the window: the verdict and the figures that answer "is it safe". */
function summaryBar(report: Report, toc: HTMLElement): HTMLElement {
  const v = arxVerdict(report);
  const light = v?.light ?? null;
  const item = (id: string, label: string, value: string | null) =>
    value === null
      ? null
      : el('span', { class: 'summary-item', 'data-metric': id }, el('span', { class: 'summary-label' }, label), ' ', el('strong', {}, value));
  const k = numberValue(report, 'k_anonymity');
  const uniques = numberValue(report, 'sample_uniques');
  const atRisk = numberValue(report, 'prosecutor_records_at_risk');
  const u = numberValue(report, 'utility_u');
  return el(
    'div',
    { class: 'results-summary', id: 'results-summary', role: 'region', 'aria-label': 'Summary of the results' },
    light ? el('span', { class: `summary-verdict summary-${light}`, 'data-light': light }, `Verdict: ${LIGHT_NAMES[light]}`) : null,
    item('k_anonymity', 'k', k === null ? null : count(k)),
    item('sample_uniques', 'Uniques', uniques === null ? null : count(uniques)),
    item('prosecutor_records_at_risk', 'Records at risk', atRisk === null ? null : percent(atRisk)),
    item('utility_u', 'Utility U', u === null ? null : score(u)),
    link('Contents', toc, 'summary-contents'),
  );
}

/**
 * Folds the long sections among `nodes` (already in `panel`) and puts the summary bar and the
 * contents before the first of them.
 */
export function addNavigation(panel: HTMLElement, report: Report, nodes: readonly Element[]): void {
  const first = nodes[0];
  if (!first) return;
  // A single long section (utility alone, without quasi-identifiers) is the result: left open.
  const all = partsOf(nodes);
  const long = all.filter((p) => p.heading.id in HEADLINES);
  const parts = all.map((p) => {
    const headline = HEADLINES[p.heading.id];
    return headline !== undefined && long.length > 1 ? { ...p, fold: fold(p.section, p.heading, headline(report)) } : p;
  });
  const extra = nodes.filter((n): n is HTMLDetailsElement => n instanceof HTMLDetailsElement && n.id !== '');
  const toc = contents(parts, extra);
  panel.insertBefore(summaryBar(report, toc), first);
  panel.insertBefore(toc, first);
}
