// The choice at download (issue 13, Deliver 2): the full report, confidential when it holds
// record-level values, or the variant safe to share, which the core makes (`shareable`: only
// aggregates of at least k records, k the report's own by default). Both downloads follow it.

import { el } from '../ui/dom';
import { count } from '../ui/format';
import { removedCount, type ShareableReport, type ShareableVariant } from '../shared/report';

export interface ReportVariant {
  shareable: boolean;
  /** The minimum count of the shareable variant (null: the report's k). */
  minCount: number | null;
}

/** What the full report holds, in one sentence, from its shareable variant at the report's k. */
export function holdsText(s: ShareableReport): string {
  const n = removedCount(s);
  const k = s.shareable.min_count;
  return n === 0
    ? `It holds no value, class or query cell of fewer than ${count(k)} records.`
    : `Confidential: it holds record-level values (${count(n)} ${n === 1 ? 'entry' : 'entries'} about fewer than ${count(k)} records).`;
}

/** The choice of variant, from the shareable variant at the report's own k (what the full report
 * holds; its k, the minimum offered first). */
export function reportVariant(shareable: ShareableVariant): { node: HTMLElement; read(): ReportVariant; holdsLadders(): void } {
  const own = shareable.report;
  const fullHelp = el('p', { class: 'help', id: 'variant-full-help' }, own ? holdsText(own) : 'It may hold record-level values.');
  const k = el('input', {
    id: 'shareable-k',
    type: 'number',
    min: 1,
    step: 1,
    value: own?.shareable.min_count ?? 5,
    inputmode: 'numeric',
    'aria-describedby': 'variant-shareable-help',
  });
  const full = el('input', {
    type: 'radio',
    name: 'report-variant',
    id: 'variant-full',
    value: 'full',
    checked: true,
    'aria-describedby': 'variant-full-help',
  });
  const safe = el('input', {
    type: 'radio',
    name: 'report-variant',
    id: 'variant-shareable',
    value: 'shareable',
    'aria-describedby': 'variant-shareable-help',
  });
  for (const type of ['input', 'focus'] as const) k.addEventListener(type, () => (safe.checked = true));
  const node = el(
    'fieldset',
    { class: 'report-variant' },
    el('legend', {}, 'Report to download'),
    el('div', { class: 'radio' }, full, el('label', { for: 'variant-full' }, 'Full report'), fullHelp),
    el(
      'div',
      { class: 'radio' },
      safe,
      el('label', { for: 'variant-shareable' }, 'Shareable: aggregates only'),
      el(
        'p',
        { class: 'help', id: 'variant-shareable-help' },
        'No value, combination of values, class or query cell held by fewer records than the minimum below, no sensitive value tied to such a class, no list of records. Made on this computer, like the full report.',
      ),
      el('div', { class: 'radio-extra' }, el('label', { for: 'shareable-k', class: 'inline-label' }, 'Minimum number of records '), k),
    ),
  );
  if (own) node.dataset.recordLevel = String(removedCount(own) > 0);
  const read = (): ReportVariant => {
    const n = Number(k.value);
    return safe.checked ? { shareable: true, minCount: Number.isSafeInteger(n) && n >= 1 ? n : null } : { shareable: false, minCount: null };
  };
  /** A release was written: the full HTML report now tells it with its ladders, which list
   * every value of the quasi-identifiers (export/protection-html.ts). */
  const holdsLadders = () => {
    node.dataset.recordLevel = 'true';
    const ladders = 'the ladders of the release written, which list every value of the quasi-identifiers.';
    fullHelp.textContent =
      own && removedCount(own) > 0 ? `${holdsText(own)} Its HTML report also holds ${ladders}` : `Confidential: its HTML report holds ${ladders}`;
  };
  return { node, read, holdsLadders };
}
