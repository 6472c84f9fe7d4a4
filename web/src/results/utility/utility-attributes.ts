// Loss and similarity per column ([RUT], spec utility.md Sec 2-7) with the cells the release
// changed (Sec 8.1): one row per utility attribute, the measures chosen for its kind beside
// its loss and similarity, then one sentence per column of the table.

import { el, scrollTable, type Child } from '../../ui/dom';
import { explain, reasonText } from '../../ui/explain';
import { count, decimal, score } from '../../ui/format';
import { isRecord, type MetricResult, type Report } from '../../shared/report';
import { attributeRows, okNumber, type AttributeRow, type Component } from '../../shared/utility-data';
import { help } from '../../ui/view-kit';

/** Short names of the loss and similarity components. */
const COMPONENT_NAMES: Readonly<Record<string, string>> = {
  gen_loss: 'generalization',
  gen_loss_ncp: 'generalization (NCP)',
  proximity_loss: 'proximity',
  entropy_loss: 'entropy',
  consistency_loss: 'consistency',
  cosine_similarity: 'cosine',
  jaccard_similarity: 'Jaccard',
  jaccard_set: 'Jaccard (sets)',
};

const componentName = (id: string) => COMPONENT_NAMES[id] ?? id.replace(/_/g, ' ');

/** Reasons meaning the rows of the two tables could not be paired: said once above the table. */
const PAIRING_REASONS = new Set(['row_count_mismatch', 'record_id_missing', 'record_id_not_unique', 'record_id_unknown_in_released']);

/** A reason in words, short for a pairing failure (the note above the table gives it in full). */
const shortReason = (reason: string | null) => (reason !== null && PAIRING_REASONS.has(reason) ? 'needs paired rows' : reasonText(reason));

/** The value of a result, or "—" with the reason in a smaller line (a dropped column says so once, by its name). */
function valueCell(m: MetricResult | undefined, format: (x: number) => string): Child {
  if (!m) return '—';
  const x = okNumber(m);
  if (x !== null) return format(x);
  if (m.reason === 'attribute_dropped') return '—';
  return el('span', {}, '—', el('span', { class: 'measure-sub' }, shortReason(m.reason)));
}

function componentList(items: Component[]): Child {
  if (items.length === 0) return '—';
  return el(
    'span',
    { class: 'component-list' },
    ...items.map((c) =>
      el(
        'span',
        { class: 'component', 'data-component': c.id },
        `${componentName(c.id)} `,
        c.value === null ? el('span', { class: 'measure-sub' }, `— (${shortReason(c.reason)})`) : el('span', { class: 'component-value' }, score(c.value)),
      ),
    ),
  );
}

/** A count with its share of the paired rows (`details.pct`), as the SDC cell measures report it. */
function countCell(m: MetricResult | undefined): Child {
  if (!m) return '—';
  const n = okNumber(m);
  if (n === null) return valueCell(m, count);
  const pct = isRecord(m.details) && typeof m.details.pct === 'number' ? m.details.pct : null;
  return pct === null ? count(n) : `${count(n)} (${decimal(pct, 1)}%)`;
}

/** A column of the original that the release left out (loss 1, similarity 0). */
const dropped = (m: MetricResult | undefined) => !!m && isRecord(m.details) && m.details.dropped === true;

function row(r: AttributeRow): Child[] {
  return [
    el('span', {}, el('span', { class: 'col-name' }, r.attribute), dropped(r.loss) ? el('span', { class: 'measure-sub dropped-note' }, 'not released') : null),
    valueCell(r.loss, score),
    valueCell(r.similarity, score),
    componentList(r.lossComponents),
    componentList(r.similarityComponents),
    countCell(r.changedRecords),
    countCell(r.suppressedCells),
    r.blankCells ? `${count(r.blankCells.original)} → ${count(r.blankCells.released)}` : '—',
  ];
}

/** One sentence per column of the table, and per component the rows use. */
function key(rows: AttributeRow[]): HTMLElement {
  const used = [...new Set(rows.flatMap((r) => [...r.lossComponents, ...r.similarityComponents].map((c) => c.id)))];
  const entries: [string, string][] = [
    ['Loss', explain('attribute_loss')],
    ['Similarity', explain('attribute_similarity')],
    ...used.map((id): [string, string] => [componentName(id).replace(/^./, (c) => c.toUpperCase()), explain(id)]),
    ['Records changed', explain('changed_records')],
    ['Cells blanked out', explain('suppressed_cells')],
    ['Blank cells', `${explain('missing_count')} Shown as original → released.`],
  ];
  return el(
    'details',
    { class: 'role-key utility-key', open: true },
    el('summary', {}, 'What the columns mean'),
    el('dl', {}, ...entries.flatMap(([term, text]) => [el('dt', {}, term), el('dd', {}, text)])),
  );
}

/** Why the measures comparing each record with its original are missing, once, or null. */
function pairingNote(rows: AttributeRow[]): HTMLElement | null {
  const reasons = rows.flatMap((r) => [r.changedRecords?.reason, r.suppressedCells?.reason, ...r.lossComponents.map((c) => c.reason)]);
  const reason = reasons.find((x): x is string => !!x && PAIRING_REASONS.has(x));
  if (!reason) return null;
  return el(
    'p',
    { class: 'note', id: 'utility-attributes-pairing' },
    `The measures that compare each record with its original (proximity, consistency, records changed, cells blanked out) need paired rows: ${reasonText(reason)}. `,
    'Choose the column that names each record under “Pair rows by” in step 2.',
  );
}

/** The per-column table, or null when the report has no per-column utility result. */
export function utilityAttributesView(report: Report): HTMLElement | null {
  const rows = attributeRows(report);
  if (rows.length === 0) return null;
  const caption = 'Loss and similarity per column';
  return el(
    'div',
    { class: 'utility-block', id: 'utility-attributes' },
    el('h4', { id: 'utility-attributes-title' }, 'Per column'),
    help(
      'Loss compares each record with its own original, from 0 (as precise) to 1 (no closer to it than a blank or the column’s average); similarity compares the column’s distribution as a whole, from 0 (nothing in common) to 1 (the same distribution). ',
      'The measures beside them are the ones chosen for the column’s kind; blanked-out cells count as lost.',
    ),
    pairingNote(rows),
    scrollTable(
      caption,
      ['Column', 'Loss', 'Similarity', 'Loss measures', 'Similarity measures', 'Records changed', 'Cells blanked out', 'Blank cells'],
      rows.map(row),
      [1, 2, 5, 6, 7],
    ),
    key(rows),
  );
}
