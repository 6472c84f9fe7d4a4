// Utility: the released file against the original table (spec utility.md). First a summary
// (utility U, total loss and similarity, the SDC measures and query accuracy, one sentence per
// number), then loss and similarity per column, each column's distribution before and after,
// the correlation matrices side by side, and the permutation model. Each part is its own
// module and renders nothing when the report lacks its measures. It reads the Report only.

import { el, type Child } from '../../ui/dom';
import { permutationView, type UtilityInputs } from './permutation-view';
import type { Report } from '../../shared/report';
import { utilityAttributesView } from './utility-attributes';
import { utilityCorrelationsView } from './utility-correlations';
import { utilityMetrics } from '../../shared/utility-data';
import { utilityDistributionsView } from './utility-distributions';
import { utilitySummary } from './utility-summary';
import { help, type View } from '../../ui/view-kit';

export type { UtilityInputs } from './permutation-view';

/** The utility section, or null when no original table was compared. */
export function utilityView(report: Report, inputs: UtilityInputs): View | null {
  if (utilityMetrics(report).length === 0) return null;
  const original = inputs.original ? ` (${inputs.original})` : '';
  const distributions = utilityDistributionsView(report);
  const parts: Child[] = [
    utilitySummary(report),
    utilityAttributesView(report),
    ...distributions.nodes,
    utilityCorrelationsView(report),
    permutationView(report, inputs),
  ];
  const section = el(
    'section',
    { class: 'result-section utility', 'aria-labelledby': 'utility-title', id: 'utility-section' },
    el('h3', { id: 'utility-title' }, 'Utility: the release against the original table'),
    help(
      `The released file compared with the original table${original}: how much information the release kept for analysis. `,
      'Every column of the original is compared except the record id, person id, weight, direct identifiers and columns marked “Ignored” in step 2.',
    ),
    ...parts,
  );
  return { nodes: [section], draw: distributions.draw };
}
