// Step 2, the user's queries for query accuracy (spec utility.md Sec 10): added to the default
// workload (a count per quasi-identifier and sensitive attribute, and per pair of QIs). A query
// groups by some columns and asks for a count, the mean of a numeric column or the share of
// one value of a column; the list can be added to and removed from.

import { el } from '../ui/dom';
import { describeQuery } from '../ui/format';
import type { ColumnProfile, UtilityQuery } from '../shared/report';

export interface QuerySettings {
  node: HTMLElement;
  read(): UtilityQuery[];
  /** Replaces the list (settings restored from a settings file). */
  write(qs: readonly UtilityQuery[]): void;
}

export function querySettings(columns: readonly ColumnProfile[]): QuerySettings {
  const queries: UtilityQuery[] = [];
  const names = columns.map((c) => c.name);
  const numeric = columns.filter((c) => c.kind === 'numeric').map((c) => c.name);

  const groupBy = el(
    'select',
    { id: 'query-group-by', multiple: true, size: Math.min(5, Math.max(2, names.length)), 'aria-describedby': 'query-help' },
    ...names.map((n) => el('option', { value: n }, n)),
  );
  const aggregate = el(
    'select',
    { id: 'query-aggregate' },
    el('option', { value: 'count' }, 'Count of records'),
    el('option', { value: 'mean' }, 'Mean of a numeric column'),
    el('option', { value: 'share' }, 'Share of a value of a column'),
  );
  const columnSelect = el('select', { id: 'query-column' });
  const valueInput = el('input', { id: 'query-value', type: 'text', placeholder: 'e.g. F' });
  const columnField = el('div', { class: 'query-field', hidden: true }, el('label', { for: 'query-column' }, 'Column'), columnSelect);
  const valueField = el('div', { class: 'query-field', hidden: true }, el('label', { for: 'query-value' }, 'Value'), valueInput);
  const addButton = el('button', { type: 'button', class: 'button small', id: 'query-add' }, 'Add query');
  const problem = el('p', { class: 'form-problem', id: 'query-problem', role: 'alert' });
  const list = el('ul', { class: 'query-list', id: 'query-list' });

  const syncAggregate = () => {
    const kind = aggregate.value;
    columnField.hidden = kind === 'count';
    valueField.hidden = kind !== 'share';
    const offered = kind === 'mean' && numeric.length ? numeric : names;
    const before = columnSelect.value;
    columnSelect.replaceChildren(...offered.map((n) => el('option', { value: n }, n)));
    if (offered.includes(before)) columnSelect.value = before;
  };
  aggregate.addEventListener('change', syncAggregate);
  syncAggregate();

  const renderList = () => {
    list.replaceChildren(
      ...queries.map((q, i) => {
        const remove = el('button', { type: 'button', class: 'button small', 'aria-label': `Remove the query ${describeQuery(q)}` }, 'Remove');
        remove.addEventListener('click', () => {
          queries.splice(i, 1);
          renderList();
          addButton.focus();
        });
        return el('li', { 'data-query': describeQuery(q) }, el('span', { class: 'query-text' }, describeQuery(q)), ' ', remove);
      }),
    );
    list.hidden = queries.length === 0;
  };
  renderList();

  addButton.addEventListener('click', () => {
    problem.textContent = '';
    const group_by = [...groupBy.selectedOptions].map((o) => o.value);
    const column = columnSelect.value;
    let q: UtilityQuery;
    if (aggregate.value === 'mean') q = { group_by, aggregate: 'mean', column };
    else if (aggregate.value === 'share') {
      if (valueInput.value === '') {
        problem.textContent = 'Give the value whose share the query asks for.';
        return;
      }
      q = { group_by, aggregate: 'share', column, value: valueInput.value };
    } else q = { group_by, aggregate: 'count' };
    if (queries.some((x) => describeQuery(x) === describeQuery(q))) {
      problem.textContent = 'This query is already in the list.';
      return;
    }
    queries.push(q);
    renderList();
  });

  const node = el(
    'div',
    { class: 'query-settings', id: 'query-settings', hidden: true },
    el('h4', { class: 'subhead' }, 'Queries'),
    el(
      'p',
      { class: 'help', id: 'query-help' },
      'Query accuracy always asks the counts per quasi-identifier and sensitive attribute, and per pair of quasi-identifiers. Add the queries your users will ask: group by some columns (hold Ctrl to choose several, or none for the whole table) and choose what to compute.',
    ),
    el(
      'div',
      { class: 'query-form' },
      el('div', { class: 'query-field' }, el('label', { for: 'query-group-by' }, 'Group by'), groupBy),
      el('div', { class: 'query-field' }, el('label', { for: 'query-aggregate' }, 'Compute'), aggregate),
      columnField,
      valueField,
      el('div', { class: 'query-field query-add' }, addButton),
    ),
    problem,
    list,
  );
  const write = (qs: readonly UtilityQuery[]) => {
    queries.splice(0, queries.length, ...qs.map((q) => ({ ...q, group_by: [...q.group_by] })));
    renderList();
  };
  return { node, read: () => queries.map((q) => ({ ...q, group_by: [...q.group_by] })), write };
}
