// Step 2 of the page: the column profile with a role per column, the missing-value policy and
// the threshold tau, and the "Run audit" button.

import { el, scrollTable } from './dom';
import { MISSING_POLICY_HELP, THRESHOLD_HELP } from './explain';
import { count, percent } from './format';
import type { ColumnProfile, Encoding, MissingPolicy, Report, Role } from './report';
import {
  DEFAULT_THRESHOLD,
  MISSING_POLICIES,
  ROLES,
  ROLE_HELP,
  ROLE_LABELS,
  proposedRoles,
  validate,
  type AuditChoices,
} from './roles';

const POLICY_LABELS: Readonly<Record<MissingPolicy, string>> = {
  ordinary: 'Ordinary value',
  wildcard: 'Wildcard',
  drop: 'Drop the row',
};

function shapeText(c: ColumnProfile): string {
  const range = c.min !== null && c.max !== null ? ` (${c.min} to ${c.max})` : '';
  return `${c.kind}, ${c.shape}${range}`;
}

function topText(c: ColumnProfile): string {
  if (c.top.length === 0) return '—';
  return c.top.map(([v, n]) => `${v === '' ? '(blank)' : v} (${count(n)})`).join(', ');
}

function roleSelect(c: ColumnProfile, roles: Map<string, Role>, onChange: () => void): HTMLElement {
  const id = `role-${c.index}`;
  const select = el(
    'select',
    { id, name: id, 'data-column': c.name, 'aria-describedby': `${id}-reason` },
    ...ROLES.map((r) => el('option', { value: r, selected: r === roles.get(c.name), title: ROLE_HELP[r] }, ROLE_LABELS[r])),
  );
  select.addEventListener('change', () => {
    roles.set(c.name, select.value as Role);
    onChange();
  });
  return el(
    'div',
    { class: 'role-cell' },
    el('label', { class: 'visually-hidden', for: id }, `Role of column ${c.name}`),
    select,
    el('p', { class: 'role-reason', id: `${id}-reason` }, c.role_reason),
  );
}

/**
 * Renders the profile of `report` into `panel`. `encoding` is the encoding the profile pass
 * settled on (windows-1252 after a retry), passed on so the audit pass does not retry again.
 */
export function renderProfile(
  panel: HTMLElement,
  report: Report,
  fileLabel: string,
  encoding: Encoding | null,
  onRun: (choices: AuditChoices) => void,
): void {
  const roles = proposedRoles(report.columns);
  const rowsTotal = report.input.rows_total;
  const problem = el('p', { class: 'form-problem', id: 'audit-problem', role: 'alert' });
  const directNote = el('p', { class: 'note', hidden: true });

  const refresh = () => {
    const direct = [...roles].filter(([, r]) => r === 'direct_identifier').map(([n]) => n);
    directNote.hidden = direct.length === 0;
    directNote.textContent = `Direct identifiers (${direct.join(', ')}) are not part of the audit; they should be removed or replaced before the table is shared.`;
    problem.textContent = '';
  };

  // The role comes right after the name: it is what the user acts on, and it must stay in
  // view when the table scrolls sideways on a narrow screen.
  const rows = report.columns.map((c) => [
    el('span', { class: 'col-name' }, c.name),
    roleSelect(c, roles, refresh),
    shapeText(c),
    `${c.distinct_exact ? '' : '≈ '}${count(c.distinct)}`,
    `${count(c.forms.missing)}${rowsTotal > 0 ? ` (${percent(c.forms.missing / rowsTotal)})` : ''}`,
    el('span', { class: 'top-values' }, topText(c)),
  ]);

  const policyField = el(
    'fieldset',
    { class: 'policy' },
    el('legend', {}, 'Blank cells in quasi-identifiers'),
    ...MISSING_POLICIES.map((p) =>
      el(
        'div',
        { class: 'radio' },
        el('input', { type: 'radio', name: 'missing-policy', id: `policy-${p}`, value: p, checked: p === 'ordinary', 'aria-describedby': `policy-${p}-help` }),
        el('label', { for: `policy-${p}` }, POLICY_LABELS[p]),
        el('p', { class: 'help', id: `policy-${p}-help` }, MISSING_POLICY_HELP[p]),
      ),
    ),
  );

  const tauInput = el('input', {
    id: 'threshold',
    type: 'number',
    min: 0.01,
    max: 1,
    step: 0.01,
    value: DEFAULT_THRESHOLD,
    inputmode: 'decimal',
    'aria-describedby': 'threshold-help',
  });
  const tauField = el(
    'div',
    { class: 'threshold' },
    el('label', { for: 'threshold' }, 'Risk threshold τ'),
    tauInput,
    el('p', { class: 'help', id: 'threshold-help' }, THRESHOLD_HELP),
  );

  const runButton = el('button', { id: 'run-audit', class: 'button primary', type: 'submit' }, 'Run audit');
  const form = el(
    'form',
    { class: 'audit-form', novalidate: true },
    el('div', { class: 'options' }, policyField, tauField),
    directNote,
    problem,
    runButton,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const checked = form.querySelector<HTMLInputElement>('input[name="missing-policy"]:checked');
    const choices: AuditChoices = {
      roles: new Map(roles),
      missingPolicy: (checked?.value ?? 'ordinary') as MissingPolicy,
      threshold: Number(tauInput.value),
      encoding,
    };
    const why = validate(choices);
    if (why) {
      problem.textContent = why;
      return;
    }
    onRun(choices);
  });

  panel.replaceChildren(
    el('h2', { id: 'profile-title' }, '2. Check the columns'),
    el(
      'p',
      { class: 'lead' },
      `${fileLabel}: ${count(rowsTotal)} rows, ${count(report.input.columns)} columns, read as ${report.input.encoding}. `,
      'Each column has a proposed role; change it where you know better, then run the audit.',
    ),
    scrollTable('Columns of the table', ['Column', 'Role', 'Kind and shape', 'Distinct', 'Missing', 'Most frequent values'], rows, [3, 4]),
    form,
  );
  refresh();
}
