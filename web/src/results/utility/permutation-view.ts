// The permutation model (spec utility.md Sec 11) inside the utility section: UM says how much
// of the original's structure the release kept (higher = more useful); CM1, CM2 and CM3 how
// hard it is to link released records back to original ones (higher = more protective). Then
// how the rows were paired, the reverse mapping per column and the columns left out. It reads
// the Report only.

import { el, scrollTable, type Child } from '../../ui/dom';
import { explain, reasonText } from '../../ui/explain';
import { count, decimal, percent, plural, score } from '../../ui/format';
import { numberValue, type Report } from '../../shared/report';
import { cm3Details, pairing, permMetrics, reverseMappings, type Pairing } from '../../shared/utility-data';
import { help, missingReason } from '../../ui/view-kit';

/** What the page knows beside the report: the original's file name and the pairing column. */
export interface UtilityInputs {
  original: string | null;
  recordId: string | null;
}

/** What to change when rows could not be paired. */
const PAIRING_FIX: Readonly<Record<string, string>> = {
  row_count_mismatch: 'Choose the column that names each record under “Pair rows by” in step 2, or give an original with exactly the released rows.',
  record_id_missing: 'Fill in the missing record ids, or choose another column under “Pair rows by” in step 2.',
  record_id_not_unique: 'Choose a column whose values name each record once under “Pair rows by” in step 2.',
  record_id_unknown_in_released: 'Check that both files come from the same table, or choose another column under “Pair rows by” in step 2.',
};

function card(report: Report, id: string, title: string, direction: string, sub: Child = null): HTMLElement {
  const missing = missingReason(report, id);
  return el(
    'article',
    { class: 'card', 'data-metric': id },
    el('h5', { class: 'card-title' }, title),
    el('p', { class: 'card-value' }, missing ? '—' : score(numberValue(report, id))),
    el('p', { class: 'card-sub' }, direction),
    sub ? el('p', { class: 'card-sub' }, sub) : null,
    el('p', { class: 'card-explain' }, missing ?? explain(id)),
  );
}

function cards(report: Report): HTMLElement {
  const cm3 = cm3Details(report);
  const cm3Ok = missingReason(report, 'perm_cm3') === null;
  const cm3Sub: Child[] = [];
  if (cm3Ok && cm3.weakest) cm3Sub.push(el('span', { id: 'utility-weakest' }, `Weakest column: ${cm3.weakest}`));
  if (cm3Ok && cm3.draws) {
    cm3Sub.push(`${cm3Sub.length ? '; m' : 'M'}ean of ${cm3.draws} random subsamples${cm3.sd === null ? '' : ` (sd ${score(cm3.sd)})`}`);
  }
  const protective = 'Confidentiality: higher = more protective';
  return el(
    'div',
    { class: 'cards utility-cards' },
    card(report, 'perm_um', 'Utility (UM)', 'Utility: higher = more useful'),
    card(report, 'perm_cm1', 'CM1', protective),
    card(report, 'perm_cm2', 'CM2', protective),
    card(report, 'perm_cm3', 'CM3', protective, cm3Sub.length ? el('span', {}, ...cm3Sub) : null),
  );
}

/** How the rows were paired, in one sentence. */
function alignmentText(p: Pairing, inputs: UtilityInputs): string {
  const pairs = p.pairs === null ? '' : ` ${plural(p.pairs, 'pair')} compared.`;
  switch (p.alignment) {
    case 'record_id': {
      const column = inputs.recordId ? ` “${inputs.recordId}”` : '';
      const removed = p.recordsRemoved ?? 0;
      const left =
        removed === 0
          ? 'every original record is in the released file'
          : `${count(removed)} original ${removed === 1 ? 'record is' : 'records are'} not in the released file and ${removed === 1 ? 'was' : 'were'} removed`;
      return `Rows paired by the record id column${column}: ${left}.${pairs}`;
    }
    case 'row_order':
      return `Rows paired by row order: row 1 of the original with row 1 of the released file, and so on.${pairs}`;
    case 'none':
      return 'Rows could not be paired, so only the measures that need no pairing (UM and CM3) were computed.';
    default:
      return 'How the rows were paired was not reported.';
  }
}

/** The prominent message when the paired measures failed, with what to do about it. */
function pairingError(p: Pairing): HTMLElement | null {
  if (!p.error) return null;
  const sizes = p.error === 'row_count_mismatch' && p.rows ? ` (${count(p.rows.original)} in the original, ${count(p.rows.released)} released)` : '';
  return el(
    'div',
    { class: 'note utility-error', id: 'utility-pairing-error', role: 'note' },
    el('p', { class: 'message-title' }, `CM1, CM2 and the reverse mapping could not be computed: ${reasonText(p.error)}${sizes}.`),
    el(
      'p',
      {},
      PAIRING_FIX[p.error] ?? 'Check the original table and the column chosen under “Pair rows by” in step 2.',
      ' UM and CM3 need no pairing and are shown.',
    ),
  );
}

function reverseTable(report: Report): HTMLElement | null {
  const rows = reverseMappings(report);
  if (rows.length === 0 || rows.every((r) => r.value === null)) return null;
  const body = rows.map(({ attribute, value, metric: m }) =>
    value
      ? [attribute, decimal(value.mean_d, 1), count(value.max_d), percent(value.share_d0), value.mean_abs_e === null ? '—' : decimal(value.mean_abs_e, 2)]
      : [attribute, '—', '—', '—', reasonText(m.reason)],
  );
  return el(
    'div',
    { id: 'reverse-mapping' },
    el('h5', { class: 'subhead' }, 'Reverse mapping per column'),
    help(explain('perm_reverse_mapping')),
    scrollTable(
      'Reverse mapping per column',
      ['Column', 'Mean rank shift', 'Largest rank shift', 'Records in place', 'Mean absolute noise'],
      body,
      [1, 2, 3, 4],
    ),
  );
}

/** The permutation block, or null when the report has no permutation result. */
export function permutationView(report: Report, inputs: UtilityInputs): HTMLElement | null {
  if (permMetrics(report).length === 0) return null;
  const p = pairing(report);
  return el(
    'div',
    { class: 'utility-block', id: 'utility-permutation' },
    el('h4', { id: 'utility-permutation-title' }, 'Permutation model'),
    help(
      'UM says how much of the way the columns vary together the release kept; CM1, CM2 and CM3 say how hard it is to link a released record back to its original one. All four run from 0 to 1.',
    ),
    pairingError(p),
    cards(report),
    // When the rows could not be paired, the message above already says so.
    p.error ? null : el('p', { class: 'utility-alignment', id: 'utility-alignment' }, alignmentText(p, inputs)),
    p.skipped.length ? el('p', { class: 'help', id: 'utility-skipped' }, `Not compared (not numeric in both tables): ${p.skipped.join(', ')}.`) : null,
    reverseTable(report),
  );
}
