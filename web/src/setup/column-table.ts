// The column table of step 2, bounded: a file of 20,000 columns must not become 20,000 rows of
// selects (34 s of layout, a page 1.75 million px tall). At most COLUMNS_SHOWN rows are in
// the page; past that a search box finds columns by name, "Show more" adds the next ones, and
// a line says how many are hidden. A hidden column keeps its role: rows are views of the role
// table, built again from it whenever they are shown.

import { el, scrollTable, type Child } from '../ui/dom';
import { count, plural } from '../ui/format';
import type { ColumnProfile } from '../shared/report';

/** Rows the table shows at first, and adds with each "Show more". */
export const COLUMNS_SHOWN = 100;

/**
 * The table of `columns` with the headings `head`; `cells(c)` builds one column's row.
 * Every column is shown when there are at most COLUMNS_SHOWN.
 */
export function columnTable(
  caption: string,
  head: string[],
  columns: readonly ColumnProfile[],
  cells: (c: ColumnProfile) => Child[],
  numeric: number[] = [],
): HTMLElement {
  const table = scrollTable(caption, head, [], numeric);
  const tbody = table.querySelector('tbody')!;
  const num = (i: number) => (numeric.includes(i) ? 'num' : null);
  const rowOf = (c: ColumnProfile) => el('tr', { 'data-column': c.name }, ...cells(c).map((cell, i) => el('td', { class: num(i) }, cell)));
  if (columns.length <= COLUMNS_SHOWN) {
    tbody.append(...columns.map(rowOf));
    return table;
  }

  const search = el('input', {
    id: 'column-search',
    type: 'search',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'column-count',
    placeholder: 'Part of a column name',
  });
  const counter = el('p', { id: 'column-count', class: 'note', role: 'status' });
  const more = el('button', { id: 'more-columns', class: 'button', type: 'button' });
  let limit = COLUMNS_SHOWN;
  const render = () => {
    const term = search.value.trim().toLowerCase();
    const matching = term ? columns.filter((c) => c.name.toLowerCase().includes(term)) : columns;
    const shown = matching.slice(0, limit);
    tbody.replaceChildren(...shown.map(rowOf));
    const hidden = columns.length - shown.length;
    counter.textContent =
      `Showing ${count(shown.length)} of ${plural(columns.length, 'column')}` +
      (term ? ` (${plural(matching.length, 'column')} ${matching.length === 1 ? 'matches' : 'match'} “${search.value.trim()}”)` : '') +
      `; ${count(hidden)} ${hidden === 1 ? 'is' : 'are'} hidden and keep${hidden === 1 ? 's' : ''} ${hidden === 1 ? 'its' : 'their'} proposed or chosen role. Search a name to find a column.`;
    const next = Math.min(COLUMNS_SHOWN, matching.length - shown.length);
    more.hidden = next <= 0;
    more.textContent = `Show ${plural(next, 'more column', 'more columns')}`;
  };
  search.addEventListener('input', (e) => {
    e.stopPropagation(); // finding a column is not an edit of the settings
    limit = COLUMNS_SHOWN;
    render();
  });
  more.addEventListener('click', () => {
    limit += COLUMNS_SHOWN;
    render();
  });
  render();
  return el(
    'div',
    { class: 'column-table' },
    el('div', { class: 'column-search' }, el('label', { for: 'column-search' }, 'Find a column'), search),
    counter,
    table,
    more,
  );
}
