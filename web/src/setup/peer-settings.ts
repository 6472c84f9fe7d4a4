// Step 2, the peers' measures (issue 16): the k of k-map (with the population table, or
// estimated from the population size) and its estimator, the δ-presence bounds (with the
// population table), the HIPAA Safe Harbor checklist, and the warning level of the row-order
// leak (placed beside the original table's pairing).

import './peer-settings.css';
import { el } from '../ui/dom';
import type { KMapEstimator } from '../shared/contract';
import { DEFAULT_PEERS, type PeerSettings } from './settings';

function field(id: string, label: string, help: string, input: HTMLElement): HTMLElement {
  input.setAttribute('aria-describedby', `${id}-help`);
  return el('div', { class: 'number-field' }, el('label', { for: id }, label), input, el('p', { class: 'help', id: `${id}-help` }, help));
}

const numberInput = (id: string, value: number | null, min: number, max: number | null, step: number) =>
  el('input', {
    id,
    type: 'number',
    min,
    ...(max === null ? {} : { max }),
    step,
    inputmode: 'decimal',
    ...(value === null ? { placeholder: 'none' } : { value }),
  });

/** An empty box is null; anything else a number (NaN when not one: `validate` says so). */
const optional = (input: HTMLInputElement) => (input.value.trim() === '' ? null : Number(input.value));

export function peerSettings(): {
  /** The k-map / δ-presence fieldset and the HIPAA fieldset. */
  nodes: HTMLElement[];
  /** The row-order warning level, to place beside the original table's pairing. */
  rowOrder: HTMLElement;
  read(): PeerSettings;
  write(s: PeerSettings): void;
} {
  const d = DEFAULT_PEERS;
  const k = numberInput('k-map', d.kMap, 1, null, 1);
  k.setAttribute('inputmode', 'numeric');
  const alpha = numberInput('k-map-alpha', d.kMapAlpha, 0, 1, 0.001);
  const estimator = el(
    'select',
    { id: 'k-map-estimator' },
    el('option', { value: 'poisson' }, 'Poisson (ARX’s default)'),
    el('option', { value: 'zero_truncated_poisson' }, 'Zero-truncated Poisson'),
  );
  const dmin = numberInput('delta-min', d.deltaMin, 0, 1, 0.01);
  const dmax = numberInput('delta-max', d.deltaMax, 0, 1, 0.01);
  const subset = el('input', { id: 'research-subset-column', type: 'text', placeholder: 'none: the released file', autocomplete: 'off', spellcheck: false });
  const kmap = el(
    'fieldset',
    { class: 'peer-settings' },
    el('legend', {}, 'k-map and δ-presence (ARX)'),
    el(
      'p',
      { class: 'help' },
      'With a population table (above): k-map checks that every released record matches at least k people of the population, δ-presence how large a share of each population group was released. With a population size instead, k-map is estimated as ARX does.',
    ),
    el(
      'div',
      { class: 'peer-grid' },
      field('k-map', 'k of k-map', 'Each released record should hide among at least this many people of the population (ARX’s default 5).', k),
      field('k-map-estimator', 'Estimator (population size only)', 'How ARX estimates the group size the file needs from the population size.', estimator),
      field(
        'k-map-alpha',
        'Significance level (population size only)',
        'The accepted chance that the estimate says “met” wrongly (ARX’s default 0.01).',
        alpha,
      ),
      field(
        'delta-min',
        'δ-presence: lowest share',
        'Every population group should have at least this share of its people in the release; empty = not checked.',
        dmin,
      ),
      field(
        'delta-max',
        'δ-presence: highest share',
        'No population group should have more than this share of its people in the release; empty = not checked.',
        dmax,
      ),
      field(
        'research-subset-column',
        'δ-presence: released-rows column',
        'A column of the population table marking the people who are in the release (1, true or yes; 0, false or no). Empty = the released file itself tells who is in it.',
        subset,
      ),
    ),
  );
  const hipaaBox = el('input', { id: 'hipaa', type: 'checkbox', 'aria-describedby': 'hipaa-help' });
  const hipaa = el(
    'fieldset',
    { class: 'hipaa-settings' },
    el('legend', {}, 'HIPAA Safe Harbor checklist'),
    el('div', { class: 'check-row' }, hipaaBox, el('label', { for: 'hipaa' }, 'Look for the 18 kinds of identifiers of HIPAA Safe Harbor')),
    el(
      'p',
      { class: 'help', id: 'hipaa-help' },
      'Every column’s values (and names) are checked for names, places smaller than a state, dates more precise than the year, ages over 89, phone numbers, e-mail addresses and the other kinds the US rule lists. The result is a checklist, not a statement of compliance.',
    ),
  );
  const perRecordBox = el('input', { id: 'per-record', type: 'checkbox', 'aria-describedby': 'per-record-help' });
  const perRecord = el(
    'fieldset',
    { class: 'per-record-settings' },
    el('legend', {}, 'Per-record values'),
    el('div', { class: 'check-row' }, perRecordBox, el('label', { for: 'per-record' }, 'Put each record’s risk in the report')),
    el(
      'p',
      { class: 'help', id: 'per-record-help' },
      'The JSON report then lists every record’s risk (by its record id, or its row), and with SUDA on each scored record’s SUDA and DIS-SUDA scores and MSU counts: as long as the file, and record-level, so the shareable report leaves them out. The results always offer them as a CSV file.',
    ),
  );
  const rowOrderInput = numberInput('row-order-threshold', d.rowOrderThreshold, 0, 1, 0.01);
  const rowOrder = field(
    'row-order-threshold',
    'Row-order warning level |ρ|',
    'With rows paired by a record id: warn when the released rows follow the original’s order this closely (rank correlation, 0 to 1).',
    rowOrderInput,
  );
  return {
    nodes: [kmap, hipaa, perRecord],
    rowOrder,
    read: () => ({
      kMap: Number(k.value),
      kMapAlpha: Number(alpha.value),
      kMapEstimator: estimator.value as KMapEstimator,
      deltaMin: optional(dmin),
      deltaMax: optional(dmax),
      researchSubsetColumn: subset.value.trim() === '' ? null : subset.value.trim(),
      hipaa: hipaaBox.checked,
      rowOrderThreshold: Number(rowOrderInput.value),
      perRecord: perRecordBox.checked,
    }),
    write: (s) => {
      k.value = String(s.kMap);
      alpha.value = String(s.kMapAlpha);
      estimator.value = s.kMapEstimator;
      dmin.value = s.deltaMin === null ? '' : String(s.deltaMin);
      dmax.value = s.deltaMax === null ? '' : String(s.deltaMax);
      subset.value = s.researchSubsetColumn ?? '';
      hipaaBox.checked = s.hipaa;
      perRecordBox.checked = s.perRecord;
      rowOrderInput.value = String(s.rowOrderThreshold);
    },
  };
}
