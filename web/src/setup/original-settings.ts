// Step 2, the original table: an optional file holding the table before pseudonymization (for
// the utility results: loss, similarity, SDC measures, query accuracy, permutation model) and
// the column that pairs its rows with the released ones ("row order" = row 1 with row 1). The
// columns compared are the original's, less those the roles leave out (roles.ts). With an
// original, the user's queries for query accuracy (query-settings.ts).

import { el } from '../ui/dom';
import { ORIGINAL_HELP, RECORD_ID_HELP } from '../ui/explain';
import { fileField } from './file-field';
import { querySettings } from './query-settings';
import type { ColumnProfile } from '../shared/report';
import { guessRecordId } from './roles';
import type { OriginalSettings } from './settings';

/** The value of the "row order" option (no column name is empty). */
const ROW_ORDER = '';

export function originalSettings(columns: readonly ColumnProfile[]): {
  node: HTMLElement;
  read(): OriginalSettings;
  /** Restores the pairing and the queries (the original file itself is chosen by the user). */
  write(s: Pick<OriginalSettings, 'recordId' | 'queries'>): void;
} {
  const select = el(
    'select',
    { id: 'record-id', 'aria-describedby': 'record-id-help' },
    el('option', { value: ROW_ORDER }, 'Row order'),
    ...columns.map((c) => el('option', { value: c.name }, c.name)),
  );
  let touched = false;
  select.addEventListener('change', () => (touched = true));
  const pairField = el(
    'div',
    { class: 'pair-field', hidden: true },
    el('label', { for: 'record-id' }, 'Pair rows by'),
    select,
    el('p', { class: 'help', id: 'record-id-help' }, RECORD_ID_HELP),
  );
  // The pairing only matters with an original; once one is chosen, propose a record id
  // column unless the user already picked something.
  const guess = guessRecordId(columns);
  const queries = querySettings(columns);
  const file = fileField('original', 'Original table (optional)', ORIGINAL_HELP, (chosen) => {
    pairField.hidden = chosen === null;
    queries.node.hidden = chosen === null;
    if (chosen && !touched) select.value = guess ?? ROW_ORDER;
  });
  const node = el(
    'fieldset',
    { class: 'original-settings' },
    el('legend', {}, 'Utility: compare with the original table'),
    el('div', { class: 'original-grid' }, file.node, pairField),
    queries.node,
  );
  return {
    node,
    read: () => ({ original: file.file(), recordId: select.value === ROW_ORDER ? null : select.value, queries: queries.read() }),
    write: (s) => {
      select.value = s.recordId !== null && columns.some((c) => c.name === s.recordId) ? s.recordId : ROW_ORDER;
      touched = true;
      queries.write(s.queries);
    },
  };
}
