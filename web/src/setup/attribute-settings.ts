// Step 2, the attribute-disclosure settings: the l, t and beta thresholds whose failing classes
// the results list, and the SCORR verdict's compliance rule (k above k_min, t at most t_max,
// k counted in records or in persons).

import { el } from '../ui/dom';
import { ATTRIBUTE_SETTINGS_HELP as HELP, K_BASIS_HELP } from '../ui/explain';
import type { KBasis } from '../shared/report';
import type { AttributeSettings } from './settings';
import { DEFAULT_L_THRESHOLD, DEFAULT_SCORR_K_MIN, DEFAULT_SCORR_T_MAX, DEFAULT_T_THRESHOLD } from './roles';

interface FieldSpec {
  id: string;
  label: string;
  help: string;
  value: number | null;
  min: number;
  max?: number;
  step: number;
  placeholder?: string;
}

function field(spec: FieldSpec): { node: HTMLElement; input: HTMLInputElement } {
  const input = el('input', {
    id: spec.id,
    type: 'number',
    min: spec.min,
    max: spec.max,
    step: spec.step,
    value: spec.value ?? undefined,
    placeholder: spec.placeholder,
    inputmode: 'decimal',
    'aria-describedby': `${spec.id}-help`,
  });
  const node = el(
    'div',
    { class: 'number-field' },
    el('label', { for: spec.id }, spec.label),
    input,
    el('p', { class: 'help', id: `${spec.id}-help` }, spec.help),
  );
  return { node, input };
}

/** An empty box reads as NaN (required fields) or null (optional ones). */
const read = (input: HTMLInputElement): number => (input.value.trim() === '' ? NaN : Number(input.value));

export function attributeSettings(): { nodes: HTMLElement[]; read(): AttributeSettings; write(s: AttributeSettings): void } {
  const l = field({ id: 'l-threshold', label: 'Distinct values per class (l)', help: HELP.l, value: DEFAULT_L_THRESHOLD, min: 1, step: 1 });
  const t = field({ id: 't-threshold', label: 'Distance from the whole file (t)', help: HELP.t, value: DEFAULT_T_THRESHOLD, min: 0, max: 1, step: 0.01 });
  const beta = field({ id: 'beta-threshold', label: 'Relative gain (β), optional', help: HELP.beta, value: null, min: 0, step: 0.1, placeholder: 'none' });
  const attribute = el(
    'fieldset',
    { class: 'attribute-settings' },
    el('legend', {}, 'Attribute disclosure (sensitive columns)'),
    el('p', { class: 'help' }, HELP.intro),
    l.node,
    t.node,
    beta.node,
  );

  const kMin = field({ id: 'scorr-k-min', label: 'k must be above', help: HELP.kMin, value: DEFAULT_SCORR_K_MIN, min: 0, step: 1 });
  const tMax = field({ id: 'scorr-t-max', label: 't must be at most', help: HELP.tMax, value: DEFAULT_SCORR_T_MAX, min: 0, max: 1, step: 0.01 });
  const basis = (value: KBasis, label: string, checked: boolean) =>
    el(
      'div',
      { class: 'radio' },
      el('input', { type: 'radio', name: 'scorr-k-basis', id: `scorr-k-${value}`, value, checked, 'aria-describedby': `scorr-k-${value}-help` }),
      el('label', { for: `scorr-k-${value}` }, label),
      el('p', { class: 'help', id: `scorr-k-${value}-help` }, K_BASIS_HELP[value]),
    );
  const scorr = el(
    'fieldset',
    { class: 'scorr-settings' },
    el('legend', {}, 'SCORR verdict'),
    el('p', { class: 'help' }, HELP.scorr),
    kMin.node,
    tMax.node,
    el(
      'fieldset',
      { class: 'k-basis' },
      el('legend', {}, 'Count k in'),
      basis('records', 'Records (rows)', true),
      basis('persons', 'Persons (needs a person id column)', false),
    ),
  );

  const write = (s: AttributeSettings) => {
    l.input.value = String(s.lThreshold);
    t.input.value = String(s.tThreshold);
    beta.input.value = s.betaThreshold === null ? '' : String(s.betaThreshold);
    kMin.input.value = String(s.scorrKMin);
    tMax.input.value = String(s.scorrTMax);
    for (const r of scorr.querySelectorAll<HTMLInputElement>('input[name="scorr-k-basis"]')) r.checked = r.value === s.scorrKBasis;
  };
  return {
    write,
    nodes: [attribute, scorr],
    read: () => ({
      lThreshold: read(l.input),
      tThreshold: read(t.input),
      betaThreshold: beta.input.value.trim() === '' ? null : Number(beta.input.value),
      scorrKMin: read(kMin.input),
      scorrTMax: read(tMax.input),
      scorrKBasis: scorr.querySelector<HTMLInputElement>('input[name="scorr-k-basis"]:checked')?.value === 'persons' ? 'persons' : 'records',
    }),
  };
}
