// Step 2 of the page: the column profile with a role per column, the settings (blank cells,
// verdict thresholds, population) and the "Run audit" button. Every edit of a role or a
// setting is reported (`onEdit`), so the results shown can follow it.

import { accountNodes, readAsText } from '../ui/account';
import { columnTable } from './column-table';
import { el, type Child } from '../ui/dom';
import { count, fileValue, percent, plural } from '../ui/format';
import type { ColumnProfile, Encoding, Report } from '../shared/report';
import type { DateForm } from '../shared/contract';
import {
  ROLES,
  ROLE_HELP,
  ROLE_LABELS,
  SINGLE_ROLES,
  assignRole,
  columnsWithRole,
  proposedRoles,
  validate,
  type AuditChoices,
  type ColumnRole,
  type RoleTable,
} from './roles';
import type { HeaderReader } from './reference-matching';
import { settingsForm } from './settings-form';
function shapeText(c: ColumnProfile): string {
  const range = c.min !== null && c.max !== null ? ` (${fileValue(c.min)} to ${fileValue(c.max)})` : '';
  // How the values are written: a date column's form, a decimal comma (spec README Sec 4.4).
  const written = c.date_form !== null ? ` written ${c.date_form}` : c.decimal_comma ? ' with decimal commas' : '';
  return `${c.kind}${written}, ${c.shape}${range}`;
}

/**
 * The kind and shape of a column; for a column whose values both day-first and month-first
 * read (`03/04/2020`), a select of those forms: the core reads it as text until one is chosen
 * (`date_form`), and `onChange` is told the choice ('' for none).
 */
function kindCell(c: ColumnProfile, selects: Map<string, HTMLSelectElement>, onChange: (form: DateForm | '') => void): Child {
  if (c.ambiguous_date_forms.length === 0) return shapeText(c);
  const id = `date-form-${c.index}`;
  const select = el(
    'select',
    { id, name: id, 'data-date-form': c.name, 'aria-describedby': `${id}-why` },
    el('option', { value: '' }, 'Not as dates'),
    ...c.ambiguous_date_forms.map((f) => el('option', { value: f }, `Dates ${f}`)),
  );
  selects.set(c.name, select);
  select.addEventListener('change', () => onChange(select.value as DateForm | ''));
  return el(
    'div',
    { class: 'date-form-cell' },
    shapeText(c),
    el('label', { for: id }, 'Read as'),
    select,
    el('p', { class: 'role-reason', id: `${id}-why` }, `Both ${c.ambiguous_date_forms.join(' and ')} read every value: choose how its dates are written.`),
  );
}

function topText(c: ColumnProfile): string {
  if (c.top.length === 0) return '—';
  return c.top.map(([v, n]) => `${v === '' ? '(blank)' : fileValue(v)} (${count(n)})`).join(', ');
}

function roleSelect(
  c: ColumnProfile,
  roles: RoleTable,
  selects: Map<string, HTMLSelectElement>,
  onChange: (displaced: string | null, role: ColumnRole) => void,
): HTMLElement {
  const id = `role-${c.index}`;
  const select = el(
    'select',
    { id, name: id, 'data-column': c.name, 'aria-describedby': `${id}-reason` },
    ...ROLES.map((r) => el('option', { value: r, selected: r === roles.get(c.name), title: ROLE_HELP[r] }, ROLE_LABELS[r])),
  );
  selects.set(c.name, select);
  select.addEventListener('change', () => {
    const role = select.value as ColumnRole;
    const displaced = assignRole(roles, c.name, role);
    const other = displaced === null ? undefined : selects.get(displaced);
    if (other) other.value = roles.get(displaced!) ?? 'insensitive';
    onChange(displaced, role);
  });
  return el(
    'div',
    { class: 'role-cell' },
    el('label', { class: 'visually-hidden', for: id }, `Role of column ${fileValue(c.name)}`),
    select,
    el('p', { class: 'role-reason', id: `${id}-reason` }, c.role_reason),
  );
}

/** Whether an edit is a choice made whole at once (a list's option, a box ticked), not typing. */
function isChoice(target: EventTarget | null): boolean {
  return target instanceof HTMLSelectElement || (target instanceof HTMLInputElement && (target.type === 'checkbox' || target.type === 'radio'));
}

/** One sentence per role a column can get, under the table. */
function roleKey(): HTMLElement {
  return el(
    'details',
    { class: 'role-key', open: true },
    el('summary', {}, 'What the roles mean'),
    el('dl', {}, ...ROLES.flatMap((r) => [el('dt', {}, ROLE_LABELS[r]), el('dd', {}, ROLE_HELP[r])])),
  );
}

/** A variant of step 2 (comparing candidates): its button, a sentence, an extra check. */
export interface ProfileMode {
  runLabel: string;
  intro: string;
  check(choices: AuditChoices): string | null;
  /** The synthetic measures start on (the synthetic-release mode). */
  synthetic?: boolean;
}

/** How the file was read: the encoding the profile pass settled on (windows-1252 after a
 * retry, passed on so the audit pass does not retry again), the File's size (null for the
 * sample) and whether it was read leniently. */
export interface ReadFacts {
  encoding: Encoding | null;
  size: number | null;
  lenient: boolean;
}

/** Every warning of reading the file (the profile pass's), each with its code. */
function readingWarnings(report: Report): HTMLElement | null {
  if (report.warnings.length === 0) return null;
  const items = report.warnings.map((w) => el('li', { 'data-code': w.code }, `${w.message.charAt(0).toUpperCase()}${w.message.slice(1)} (${w.code})`));
  return el(
    'div',
    { class: 'read-warnings', role: 'region', 'aria-labelledby': 'read-warnings-title' },
    el('h3', { id: 'read-warnings-title' }, 'Warnings'),
    el('ul', { class: 'warnings' }, ...items),
  );
}

/** The choices of step 2 as they stand. */
export interface ProfileForm {
  /** The choices, or null after showing why they cannot be audited. */
  current(): AuditChoices | null;
  /** Sets the roles and every setting of the form from `choices` (a link's or a settings
   * file's); the side files stay as they are. */
  apply(choices: AuditChoices): void;
}

/**
 * Renders the profile of `report` into `panel`; `onEdit` is called on every edit of a role
 * or a setting; `readHeader` reads a population table's header (in the worker).
 */
export function renderProfile(
  panel: HTMLElement,
  report: Report,
  fileLabel: string,
  read: ReadFacts,
  onRun: (choices: AuditChoices) => void,
  readHeader: HeaderReader,
  mode: ProfileMode | null = null,
  onEdit: (chosen: boolean) => void = () => undefined,
): ProfileForm {
  const encoding = read.encoding;
  const roles = proposedRoles(report.columns);
  const rowsTotal = report.input.rows_total;
  const problem = el('p', { class: 'form-problem', id: 'audit-problem', role: 'alert' });
  const directNote = el('p', { class: 'note', hidden: true });

  const roleNote = el('p', { class: 'note', id: 'role-note', role: 'status', hidden: true });

  const refresh = () => {
    const direct = [...roles].filter(([, r]) => r === 'direct_identifier').map(([n]) => n);
    directNote.hidden = direct.length === 0;
    const listed = direct.length > 20 ? `${direct.slice(0, 20).join(', ')} and ${count(direct.length - 20)} more` : direct.join(', ');
    directNote.textContent = `Direct identifiers (${listed}) are not part of the audit; they should be removed or replaced before the table is shared.`;
    problem.textContent = '';
    settings.setQuasiIdentifiers(columnsWithRole(roles, 'quasi_identifier'));
  };
  const selects = new Map<string, HTMLSelectElement>();
  const dateForms: Record<string, DateForm> = {};
  const dateSelects = new Map<string, HTMLSelectElement>();
  // A date form chosen for a column still in the role proposed for its text becomes a
  // quasi-identifier, as the core proposes for dates (table/roles.rs).
  const onDateForm = (c: ColumnProfile, form: DateForm | '') => {
    if (form === '') {
      delete dateForms[c.name];
      return;
    }
    dateForms[c.name] = form;
    const role = roles.get(c.name);
    if (role !== c.proposed_role || role === 'quasi_identifier' || role === 'sensitive') return;
    roles.set(c.name, 'quasi_identifier');
    const select = selects.get(c.name);
    if (select) select.value = 'quasi_identifier';
    roleNote.hidden = false;
    roleNote.textContent = `Dates (of birth, admission...) are facts an attacker may know: ${c.name} is now a quasi-identifier.`;
    refresh();
  };
  const onRoleChange = (displaced: string | null, role: ColumnRole) => {
    roleNote.hidden = displaced === null;
    if (displaced !== null && SINGLE_ROLES.includes(role)) {
      roleNote.textContent = `Only one column can be the ${ROLE_LABELS[role].toLowerCase()}: ${displaced} is now "${ROLE_LABELS.insensitive}".`;
    }
    refresh();
  };

  // The role comes right after the name: it is what the user acts on, and it must stay in
  // view when the table scrolls sideways on a narrow screen.
  const cells = (c: ColumnProfile) => [
    el('span', { class: 'col-name' }, fileValue(c.name)),
    roleSelect(c, roles, selects, onRoleChange),
    kindCell(c, dateSelects, (form) => onDateForm(c, form)),
    `${c.distinct_exact ? '' : '≈ '}${count(c.distinct)}`,
    `${count(c.forms.missing)}${rowsTotal > 0 ? ` (${percent(c.forms.missing / rowsTotal)})` : ''}`,
    el('span', { class: 'top-values' }, topText(c)),
  ];

  const settings = settingsForm(report.columns, readHeader, mode?.synthetic ?? false);
  const runButton = el('button', { id: 'run-audit', class: 'button primary', type: 'submit' }, mode?.runLabel ?? 'Run audit');
  const form = el('form', { class: 'audit-form', novalidate: true }, ...settings.nodes, directNote, problem, runButton);
  const current = (): AuditChoices | null => {
    const choices: AuditChoices = { ...settings.read(), roles: new Map(roles), encoding, dateForms: { ...dateForms } };
    const why = validate(choices) ?? mode?.check(choices) ?? null;
    problem.textContent = why ?? '';
    return why ? null : choices;
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const choices = current();
    if (choices) onRun(choices);
  });

  const table = columnTable(
    'Columns of the table',
    ['Column', 'Role', 'Kind and shape', 'Distinct', 'Missing', 'Most frequent values'],
    report.columns,
    cells,
    [3, 4],
  );
  panel.replaceChildren(
    el('h2', { id: 'profile-title' }, '2. Check the columns'),
    el(
      'p',
      { class: 'lead' },
      `${fileLabel}: ${plural(rowsTotal, 'row')}, ${plural(report.input.columns, 'column')}, read ${report.input.format === 'csv' ? 'as' : 'from'} ${readAsText(report.input)}${read.lenient && report.input.format === 'csv' ? ', leniently' : ''}. `,
      'Each column has a proposed role; change it where you know better, then run the audit.',
    ),
    ...accountNodes(report.input, read.size),
    ...(rowsTotal === 0
      ? [
          el(
            'p',
            { class: 'alert', id: 'no-records-note' },
            `${fileLabel} has no records: it holds only its header row. The audit would have nothing to measure.`,
          ),
        ]
      : []),
    ...[readingWarnings(report)].filter((n): n is HTMLElement => n !== null),
    ...(mode ? [el('p', { class: 'note', id: 'compare-note' }, mode.intro)] : []),
    table,
    roleNote,
    roleKey(),
    form,
  );
  refresh();
  // Role selects and settings alike (after their own listeners have updated the roles).
  for (const part of [table, form]) for (const type of ['input', 'change'] as const) part.addEventListener(type, (e) => onEdit(isChoice(e.target)));
  const apply = (choices: AuditChoices) => {
    for (const [name, role] of choices.roles) {
      if (!roles.has(name)) continue;
      roles.set(name, role);
      const select = selects.get(name);
      if (select) select.value = role;
    }
    // Every date form of the settings is kept (a column without a select too: its form was
    // set in a settings file); the selects show theirs.
    for (const name of Object.keys(dateForms)) delete dateForms[name];
    Object.assign(dateForms, choices.dateForms);
    for (const [name, select] of dateSelects) select.value = choices.dateForms[name] ?? '';
    settings.write(choices);
    roleNote.hidden = true;
    refresh();
  };
  return { current, apply };
}
