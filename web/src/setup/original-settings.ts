// Step 2, the original table: an optional file holding the table before pseudonymization (for
// the utility results: loss, similarity, SDC measures, query accuracy, permutation model) and
// the column that pairs its rows with the released ones ("row order" = row 1 with row 1). The
// columns compared are the original's, less those the roles leave out (roles.ts). With an
// original, the user's queries for query accuracy (query-settings.ts) and the attacks on the
// release (Anonymeter's singling out, linkability, inference) and the measures of a synthetic or
// perturbed release (SDNist's and SDMetrics', synthetic.md), with one table of records not used
// to make the release: the attacks' control table, the synthetic measures' holdout.

import { el } from '../ui/dom';
import { ATTACKS_HELP, CONTROL_HELP, HOLDOUT_HELP, ORIGINAL_HELP, RECORD_ID_HELP, SYNTHETIC_HELP } from '../ui/explain';
import type { AttackParams } from '../shared/contract';
import { defaultAttacks } from '../shared/attack-data';
import { fileField } from './file-field';
import { querySettings } from './query-settings';
import type { ColumnProfile } from '../shared/report';
import { guessRecordId } from './roles';
import type { OriginalSettings } from './settings';

/** The value of the "row order" option (no column name is empty). */
const ROW_ORDER = '';

/** `synthetic`: the synthetic measures are on from the start (the page's "synthetic release" mode). */
export function originalSettings(
  columns: readonly ColumnProfile[],
  synthetic = false,
): {
  node: HTMLElement;
  read(): OriginalSettings;
  /** Restores the pairing, the queries, the attacks and whether the synthetic measures run
   * (the files themselves are chosen by the user). */
  write(s: Pick<OriginalSettings, 'recordId' | 'queries' | 'attacks' | 'synthetic'>): void;
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
  const attacks = attackSettings();
  const release = syntheticSettings(synthetic, attacks.shareControl);
  const file = fileField('original', synthetic ? 'Original table (required)' : 'Original table (optional)', ORIGINAL_HELP, (chosen) => {
    pairField.hidden = chosen === null;
    queries.node.hidden = chosen === null;
    attacks.node.hidden = chosen === null;
    release.node.hidden = chosen === null;
    if (chosen && !touched) select.value = guess ?? ROW_ORDER;
  });
  const node = el(
    'fieldset',
    { class: 'original-settings' },
    el('legend', {}, 'Utility: compare with the original table'),
    el('div', { class: 'original-grid' }, file.node, pairField),
    release.node,
    queries.node,
    attacks.node,
  );
  return {
    node,
    read: () => ({
      original: file.file(),
      recordId: select.value === ROW_ORDER ? null : select.value,
      queries: queries.read(),
      attacks: file.file() ? attacks.read() : null,
      control: file.file() ? (release.on() ? release.holdout() : attacks.control()) : null,
      synthetic: release.on(),
    }),
    write: (s) => {
      select.value = s.recordId !== null && columns.some((c) => c.name === s.recordId) ? s.recordId : ROW_ORDER;
      touched = true;
      queries.write(s.queries);
      attacks.write(s.attacks);
      release.write(s.synthetic);
    },
  };
}

/**
 * The measures of a synthetic or perturbed release (spec synthetic.md): a box that turns them
 * on and the holdout table. With the box on, the holdout is also the attacks' control table
 * (`shareControl`): one table of records not used to make the release serves both.
 */
function syntheticSettings(
  initial: boolean,
  shareControl: (shared: boolean) => void,
): { node: HTMLElement; on(): boolean; holdout(): File | null; write(on: boolean): void } {
  const box = el('input', { id: 'synthetic-on', type: 'checkbox', 'aria-describedby': 'synthetic-help', checked: initial });
  const holdout = fileField('holdout', 'Holdout table (optional)', HOLDOUT_HELP);
  const sync = () => {
    holdout.node.hidden = !box.checked;
    shareControl(box.checked);
  };
  box.addEventListener('change', sync);
  const node = el(
    'fieldset',
    { class: 'synthetic-settings', hidden: true },
    el('legend', {}, 'A synthetic or perturbed release'),
    el(
      'div',
      { class: 'check-field' },
      box,
      el('label', { for: 'synthetic-on' }, 'Measure it as SDNist and SDMetrics do: marginals, propensity, correlations, distances to the closest record, CAP'),
    ),
    el('p', { class: 'help', id: 'synthetic-help' }, SYNTHETIC_HELP),
    holdout.node,
  );
  sync();
  return {
    node,
    on: () => box.checked,
    holdout: () => (box.checked ? holdout.file() : null),
    write: (on) => {
      box.checked = on;
      sync();
    },
  };
}

/**
 * The attacks on the release (spec peer-measures.md Sec 5): a box that turns them on, the
 * number of attacks and the seed, and the control table. The other attack settings (modes,
 * columns) come from a settings file or link and are kept as they are.
 */
function attackSettings(): {
  node: HTMLElement;
  read(): AttackParams | null;
  control(): File | null;
  write(a: AttackParams | null): void;
  /** The holdout of the synthetic measures serves as the control table: its own field hides. */
  shareControl(shared: boolean): void;
} {
  let base: AttackParams = defaultAttacks();
  const on = el('input', { id: 'attacks-on', type: 'checkbox', 'aria-describedby': 'attacks-help' });
  const count = el('input', { id: 'n-attacks', type: 'number', min: 1, step: 1, value: base.n_attacks, inputmode: 'numeric' });
  const seed = el('input', {
    id: 'attack-seed',
    type: 'number',
    min: 0,
    step: 1,
    value: base.seed,
    inputmode: 'numeric',
    'aria-describedby': 'attack-seed-help',
  });
  const control = fileField('control', 'Control table (optional)', CONTROL_HELP);
  const shared = el('p', { class: 'note', id: 'control-shared', hidden: true }, 'The holdout table above is the control table of the attacks.');
  const details = el(
    'div',
    { class: 'attack-grid', hidden: true },
    el('div', { class: 'field' }, el('label', { for: 'n-attacks' }, 'Attacks per test'), count),
    el(
      'div',
      { class: 'field' },
      el('label', { for: 'attack-seed' }, 'Seed of the random draws'),
      seed,
      el('p', { class: 'help', id: 'attack-seed-help' }, 'The same files, settings and seed give the same results.'),
    ),
    control.node,
    shared,
  );
  on.addEventListener('change', () => (details.hidden = !on.checked));
  const node = el(
    'fieldset',
    { class: 'attack-settings', hidden: true },
    el('legend', {}, 'Attacks on a synthetic or perturbed release'),
    el('div', { class: 'check-field' }, on, el('label', { for: 'attacks-on' }, 'Attack the release: singling out, linkability, inference')),
    el('p', { class: 'help', id: 'attacks-help' }, ATTACKS_HELP),
    details,
  );
  return {
    node,
    read: () => (on.checked ? { ...base, n_attacks: Number(count.value), seed: Number(seed.value) } : null),
    control: () => (on.checked ? control.file() : null),
    write: (a) => {
      base = { ...defaultAttacks(), ...(a ?? {}) };
      on.checked = a !== null;
      details.hidden = !on.checked;
      count.value = String(base.n_attacks);
      seed.value = String(base.seed);
    },
    shareControl: (isShared) => {
      control.node.hidden = isShared;
      shared.hidden = !isShared;
    },
  };
}
