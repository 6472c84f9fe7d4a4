// Step 2, the balance settings (spec balance.md Sec 2-4): how the overall risk R combines the
// risk inside the file with the linkage risk against the reference table, and the weight of
// utility alpha of the RUT score (a preset of [RUT] Table 4 or a custom number). The results
// let the user change alpha again without a new audit.

import { DEFAULT_ALPHA, PRESETS, PRESET_INFO, presetOf, type Combination } from '../shared/balance-data';
import { el } from '../ui/dom';
import { decimal } from '../ui/format';
import { DEFAULT_BALANCE, type BalanceSettings } from './settings';

const COMBINATIONS: readonly [Combination, string, string][] = [
  ['max', 'The larger of the two', 'R = max(R_internal, R_external), as in every experiment of the RUT paper.'],
  ['weighted', 'A weighted mean', 'R = w × R_internal + (1 − w) × R_external.'],
  ['sum', 'The sum', 'R = R_internal + R_external, at most 1: the most cautious.'],
];

const CUSTOM = 'custom';

export function balanceSettings(): { node: HTMLElement; read(): BalanceSettings; write(s: BalanceSettings): void } {
  const weightInput = el('input', {
    id: 'risk-weight-internal',
    type: 'number',
    min: 0,
    max: 1,
    step: 0.05,
    value: DEFAULT_BALANCE.riskWeightInternal,
    inputmode: 'decimal',
  });
  const radios = COMBINATIONS.map(([value, label, help]) => {
    const id = `risk-combination-${value}`;
    return el(
      'div',
      { class: 'radio' },
      el('input', { type: 'radio', name: 'risk-combination', id, value, checked: value === DEFAULT_BALANCE.riskCombination, 'aria-describedby': `${id}-help` }),
      el('label', { for: id }, label),
      el('p', { class: 'help', id: `${id}-help` }, help),
      value === 'weighted'
        ? el('div', { class: 'radio-extra' }, el('label', { for: 'risk-weight-internal', class: 'inline-label' }, 'w (weight of R_internal) '), weightInput)
        : null,
    );
  });
  // Typing a weight selects the weighted mean; focus alone (tabbing past) changes nothing.
  weightInput.addEventListener('input', () => {
    const weighted = radios[1]!.querySelector<HTMLInputElement>('input[type="radio"]')!;
    weighted.checked = true;
  });

  const presetSelect = el(
    'select',
    { id: 'rut-alpha-preset', 'aria-describedby': 'rut-alpha-help' },
    ...PRESETS.map((p) =>
      el('option', { value: p, selected: PRESET_INFO[p].alpha === DEFAULT_ALPHA }, `${PRESET_INFO[p].label} (α ${decimal(PRESET_INFO[p].alpha, 1)})`),
    ),
    el('option', { value: CUSTOM }, 'Custom'),
  );
  const alphaInput = el('input', {
    id: 'rut-alpha',
    type: 'number',
    min: 0,
    max: 1,
    step: 0.05,
    value: DEFAULT_ALPHA,
    inputmode: 'decimal',
    'aria-label': 'Custom weight of utility α',
  });
  const customBox = el('span', { class: 'rut-alpha-custom', hidden: true }, alphaInput);
  presetSelect.addEventListener('change', () => {
    customBox.hidden = presetSelect.value !== CUSTOM;
    if (presetSelect.value !== CUSTOM) alphaInput.value = String(PRESET_INFO[presetSelect.value as keyof typeof PRESET_INFO].alpha);
  });

  const node = el(
    'fieldset',
    { class: 'balance-settings' },
    el('legend', {}, 'Balance of risk and utility'),
    el(
      'p',
      { class: 'help' },
      'With a population table and an original table the results weigh the risk against the utility in one score (RUT). How should the overall risk R combine the risk inside the file with the risk of linking it to the population table?',
    ),
    ...radios,
    el(
      'div',
      { class: 'rut-alpha-field' },
      el('label', { for: 'rut-alpha-preset' }, 'Weight of utility in the score'),
      el('div', { class: 'rut-alpha-inputs' }, presetSelect, customBox),
      el('p', { class: 'help', id: 'rut-alpha-help' }, 'α weighs utility, 1 − α safety. You can change it in the results without running the audit again.'),
    ),
  );

  const read = (): BalanceSettings => {
    const checked = node.querySelector<HTMLInputElement>('input[name="risk-combination"]:checked')?.value as Combination | undefined;
    const alpha = presetSelect.value === CUSTOM ? Number(alphaInput.value) : PRESET_INFO[presetSelect.value as keyof typeof PRESET_INFO].alpha;
    return {
      riskCombination: checked ?? DEFAULT_BALANCE.riskCombination,
      riskWeightInternal: weightInput.value.trim() === '' ? NaN : Number(weightInput.value),
      rutAlpha: presetSelect.value === CUSTOM && alphaInput.value.trim() === '' ? NaN : alpha,
    };
  };
  const write = (s: BalanceSettings) => {
    for (const r of node.querySelectorAll<HTMLInputElement>('input[name="risk-combination"]')) r.checked = r.value === s.riskCombination;
    weightInput.value = String(s.riskWeightInternal);
    const preset = presetOf(s.rutAlpha);
    presetSelect.value = preset ?? CUSTOM;
    customBox.hidden = preset !== null;
    alphaInput.value = String(s.rutAlpha);
  };
  return { node, read, write };
}
