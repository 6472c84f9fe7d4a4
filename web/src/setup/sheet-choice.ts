// Step 2's choice of sheet, for an Excel workbook of several sheets (issue 14: "the first
// sheet or a chosen one"): choosing another reads that sheet instead, as a new file.

import { el } from '../ui/dom';

/** The field: the sheets in the workbook's order, `current` selected. */
export function sheetChoice(sheets: string[], current: string | null, choose: (sheet: string) => void): HTMLElement {
  const select = el('select', { id: 'sheet-select' }, ...sheets.map((name) => el('option', { value: name }, name)));
  select.value = current ?? sheets[0] ?? '';
  select.addEventListener('change', () => choose(select.value));
  return el(
    'p',
    { class: 'note sheet-choice' },
    el('label', { for: 'sheet-select' }, 'Sheet read: '),
    select,
    ` — this workbook has ${sheets.length} sheets; choosing another reads it instead.`,
  );
}
