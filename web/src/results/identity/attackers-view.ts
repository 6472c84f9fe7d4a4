// The three ARX attacker models side by side: prosecutor, journalist, marketer x records at
// risk, highest risk, lowest risk, success rate. Cells whose check fails the verdict are marked.

import { el, scrollTable, type Child } from '../../ui/dom';
import { ATTACKER_HELP, explain } from '../../ui/explain';
import { percent, score } from '../../ui/format';
import { metric, numberValue, type Report } from '../../shared/report';
import { arxVerdict } from '../../shared/suite';
import { help, missingReason, section } from '../../ui/view-kit';

type Model = 'prosecutor' | 'journalist' | 'marketer';
type Column = 'records_at_risk' | 'highest_risk' | 'lowest_risk' | 'success_rate';

const MODELS: readonly Model[] = ['prosecutor', 'journalist', 'marketer'];
const COLUMNS: readonly Column[] = ['records_at_risk', 'highest_risk', 'lowest_risk', 'success_rate'];
const MODEL_NAMES: Readonly<Record<Model, string>> = { prosecutor: 'Prosecutor', journalist: 'Journalist', marketer: 'Marketer' };

function cell(report: Report, model: Model, column: Column, failed: boolean): Child {
  if (model === 'marketer' && column !== 'success_rate') {
    return el('span', { class: 'blank', title: 'Not defined for the marketer model' }, '—', el('span', { class: 'visually-hidden' }, 'not defined'));
  }
  const id = `${model}_${column}`;
  const value = numberValue(report, id);
  if (value === null) {
    return el('span', { class: 'blank', 'data-metric': id, title: missingReason(report, id) ?? '' }, 'not available');
  }
  const text = column === 'records_at_risk' ? percent(value) : score(value);
  return el(
    'span',
    { class: failed ? 'attacker-value fail' : 'attacker-value', 'data-metric': id },
    text,
    failed ? el('span', { class: 'badge' }, 'above threshold') : null,
  );
}

function notes(report: Report): HTMLElement[] {
  const out: HTMLElement[] = [];
  const warnings = new Set(MODELS.flatMap((m) => COLUMNS.flatMap((c) => metric(report, `${m}_${c}`)?.warnings ?? [])));
  if (warnings.has('no_population_table')) {
    out.push(
      el(
        'p',
        { class: 'note', id: 'no-population-note' },
        'No population table was given, so the journalist figures equal the prosecutor’s and the marketer’s success rate equals the average risk. ',
        'Add a population table in step 2 to see how much a larger population protects the records.',
      ),
    );
  }
  if (warnings.has('population_smaller_than_sample')) {
    out.push(
      el(
        'p',
        { class: 'note' },
        'For some groups the population table holds fewer people than the file; those groups were counted as large as in the file (a population contains its sample).',
      ),
    );
  }
  const journalistMissing = missingReason(report, 'journalist_highest_risk');
  if (journalistMissing) out.push(el('p', { class: 'note' }, `Journalist and marketer models: ${journalistMissing}`));
  return out;
}

export function attackersView(report: Report): HTMLElement {
  const v = arxVerdict(report);
  const fails = (model: Model, column: Column): boolean => {
    if (!v || column === 'lowest_risk') return false;
    if (model === 'marketer') return column === 'success_rate' && !v.marketer.success_rate;
    return !v[model][column];
  };
  const rows = MODELS.map((model) => [
    el('span', { class: 'model-name' }, MODEL_NAMES[model], el('span', { class: 'model-help' }, ATTACKER_HELP[model])),
    ...COLUMNS.map((column) => cell(report, model, column, fails(model, column))),
  ]);
  const table = scrollTable(
    'Risk under each attacker model',
    ['Attacker model', 'Records at risk', 'Highest risk', 'Lowest risk', 'Success rate'],
    rows,
    [1, 2, 3, 4],
  );
  table.id = 'attackers-table';
  table.querySelectorAll('tbody tr').forEach((tr, i) => tr.setAttribute('data-model', MODELS[i] ?? ''));
  return section(
    'Attacker models',
    'attackers-title',
    help(
      'The same file seen by three kinds of attacker (the models of the ARX tool). ',
      'Records at risk: share of records above τ; highest and lowest risk: chance of re-identifying the most and least exposed records; success rate: share of records re-identified on average.',
    ),
    table,
    ...notes(report),
    el(
      'details',
      { class: 'more' },
      el('summary', {}, 'What each number means'),
      el(
        'ul',
        { class: 'plain-list' },
        ...['journalist_records_at_risk', 'journalist_highest_risk', 'journalist_lowest_risk', 'journalist_success_rate', 'marketer_success_rate'].map((id) =>
          el('li', {}, el('code', {}, id), ': ', explain(id)),
        ),
      ),
    ),
  );
}
