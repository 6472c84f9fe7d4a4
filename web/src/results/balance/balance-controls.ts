// The weight controls of the balance results: the four presets of [RUT] Table 4 (balance.md
// Sec 4) and a custom alpha, and for a comparison of candidates the optional thresholds tau_R
// and tau_U (Sec 5). Changing them calls `onChange` with the new settings; the caller re-runs
// only the core's `choose`, never the audit.

import { PRESETS, PRESET_INFO, presetOf, type ChoiceParams } from '../../shared/balance-data';
import { el } from '../../ui/dom';
import { decimal } from '../../ui/format';
import { numberField } from '../../ui/view-kit';

export interface ChoiceControls {
  node: HTMLElement;
  /** The settings as the controls show them now (null when a number is not valid). */
  read(): ChoiceParams | null;
}

const CUSTOM = 'custom';

function alphaText(alpha: number): string {
  return `α ${decimal(alpha, 2)} · β ${decimal(1 - alpha, 2)}`;
}

/** A number from 0 to 1 typed in `input`; null when empty, NaN when not valid. */
function unitValue(input: HTMLInputElement): number | null {
  const text = input.value.trim();
  if (text === '') return null;
  const x = Number(text);
  return Number.isFinite(x) && x >= 0 && x <= 1 ? x : NaN;
}

/**
 * `prefix` makes the ids unique (`${prefix}-preset-analytics`, `${prefix}-alpha`, and with
 * `thresholds` also `${prefix}-tau-r`, `${prefix}-tau-u`).
 */
export function choiceControls(prefix: string, initialAlpha: number, thresholds: boolean, onChange: (p: ChoiceParams) => void): ChoiceControls {
  const group = `${prefix}-weights`;
  const initialPreset = presetOf(initialAlpha);
  const presetOption = (value: string, label: string, sub: string, help: string, checked: boolean) => {
    const id = `${prefix}-preset-${value}`;
    return el(
      'div',
      { class: 'weight-option' },
      el('input', { type: 'radio', name: group, id, value, checked, 'aria-describedby': `${id}-help` }),
      el('label', { for: id }, el('span', { class: 'weight-name' }, label), el('span', { class: 'weight-alpha' }, sub)),
      el('p', { class: 'weight-help', id: `${id}-help` }, help),
    );
  };
  const alphaInput = el('input', {
    id: `${prefix}-alpha`,
    type: 'number',
    min: 0,
    max: 1,
    step: 0.05,
    inputmode: 'decimal',
    value: initialAlpha,
    'aria-label': 'Custom weight of utility α (from 0 to 1)',
  });
  const custom = presetOption(CUSTOM, 'Custom', '', 'Your own weight of utility α, from 0 to 1; safety gets 1 − α.', initialPreset === null);
  custom.append(el('div', { class: 'weight-custom' }, alphaInput));
  const problem = el('p', { class: 'form-problem', role: 'alert', id: `${prefix}-problem` });

  const tauR = thresholds
    ? numberField(
        `${prefix}-tau-r`,
        'Highest acceptable risk τ_R',
        'A candidate whose risk R is above this is not chosen. Leave empty for no limit.',
        null,
        0,
        0.05,
      )
    : null;
  const tauU = thresholds
    ? numberField(
        `${prefix}-tau-u`,
        'Lowest acceptable utility τ_U',
        'A candidate whose utility U is below this is not chosen. Leave empty for no limit.',
        null,
        0,
        0.05,
      )
    : null;

  const weights = el(
    'fieldset',
    { class: 'weights' },
    el('legend', {}, 'Weights of utility (α) and safety (β = 1 − α)'),
    el(
      'div',
      { class: 'weight-options' },
      ...PRESETS.map((p) => presetOption(p, PRESET_INFO[p].label, alphaText(PRESET_INFO[p].alpha), PRESET_INFO[p].context, p === initialPreset)),
      custom,
    ),
  );
  const node = el(
    'div',
    { class: 'choice-controls' },
    weights,
    tauR && tauU ? el('fieldset', { class: 'thresholds-choice' }, el('legend', {}, 'Limits (optional)'), tauR.node, tauU.node) : null,
    problem,
  );

  const read = (): ChoiceParams | null => {
    const checked = weights.querySelector<HTMLInputElement>(`input[name="${group}"]:checked`)?.value ?? CUSTOM;
    const alpha = checked === CUSTOM ? unitValue(alphaInput) : PRESET_INFO[checked as keyof typeof PRESET_INFO].alpha;
    if (alpha === null || Number.isNaN(alpha)) {
      problem.textContent = 'The custom weight α must be a number from 0 to 1.';
      return null;
    }
    const r = tauR ? unitValue(tauR.input) : null;
    const u = tauU ? unitValue(tauU.input) : null;
    if (Number.isNaN(r) || Number.isNaN(u)) {
      problem.textContent = 'The limits τ_R and τ_U must be numbers from 0 to 1, or left empty.';
      return null;
    }
    problem.textContent = '';
    return { rut_alpha: alpha, tau_r: r, tau_u: u };
  };
  const changed = () => {
    const p = read();
    if (p) onChange(p);
  };
  weights.addEventListener('change', (e) => {
    // A preset shows its alpha in the custom box, so switching to "Custom" starts from it.
    const t = e.target as HTMLInputElement;
    if (t === alphaInput) return; // handled on "input"
    if (t.name === group && t.value !== CUSTOM) alphaInput.value = String(PRESET_INFO[t.value as keyof typeof PRESET_INFO].alpha);
    changed();
  });
  alphaInput.addEventListener('input', () => {
    const radio = custom.querySelector<HTMLInputElement>('input[type="radio"]')!;
    if (!radio.checked) radio.checked = true;
    changed();
  });
  for (const f of [tauR, tauU]) f?.input.addEventListener('input', changed);
  return { node, read };
}
