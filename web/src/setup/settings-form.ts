// Step 2, the settings below the column table: blank-cell policy, the ARX verdict thresholds,
// the attribute-disclosure and SCORR settings (attribute-settings.ts) and the population (an
// optional population table and the population size N, given as a number, a sampling
// fraction or a region preset, never more than one) and the original table
// (original-settings.ts).

import { attributeSettings } from './attribute-settings';
import { el, type Child } from '../ui/dom';
import {
  CASE_INSENSITIVE_HELP,
  MISSING_POLICY_HELP,
  POPULATION_SIZE_HELP,
  RECORDS_AT_RISK_HELP,
  REFERENCE_HELP,
  SUCCESS_RATE_HELP,
  THRESHOLD_HELP,
  SUDA_HELP,
} from '../ui/explain';
import { fileField } from './file-field';
import { count } from '../ui/format';
import { numberField } from '../ui/view-kit';
import { originalSettings } from './original-settings';
import { balanceSettings } from './balance-settings';
import { peerSettings } from './peer-settings';
import { referenceMatching, type HeaderReader } from './reference-matching';
import type { ColumnProfile, MissingPolicy } from '../shared/report';
import {
  DEFAULT_ADVICE_K,
  DEFAULT_RECORDS_AT_RISK_THRESHOLD,
  DEFAULT_SUCCESS_RATE_THRESHOLD,
  DEFAULT_CI_LEVEL,
  DEFAULT_THRESHOLD,
  MISSING_POLICIES,
  REGIONS,
} from './roles';
import type { PopulationSize, Settings } from './settings';

const POLICY_LABELS: Readonly<Record<MissingPolicy, string>> = {
  ordinary: 'Ordinary value',
  wildcard: 'Wildcard',
  drop: 'Drop the row',
};

export interface SettingsForm {
  /** The fieldsets, to place in the form. */
  nodes: HTMLElement[];
  read(): Settings;
  /** The roles changed: these are the quasi-identifiers now. */
  setQuasiIdentifiers(qis: readonly string[]): void;
  /** Sets every field from `s` (settings from a link or a file; the side files excepted). */
  write(s: Settings): void;
}

function radio(group: string, id: string, value: string, label: string, help: string, checked: boolean, ...extra: Child[]): HTMLElement {
  return el(
    'div',
    { class: 'radio' },
    el('input', { type: 'radio', name: group, id, value, checked, 'aria-describedby': `${id}-help` }),
    el('label', { for: id }, label),
    el('p', { class: 'help', id: `${id}-help` }, help),
    extra.length ? el('div', { class: 'radio-extra' }, ...extra) : null,
  );
}

function policyFieldset(): HTMLElement {
  return el(
    'fieldset',
    { class: 'policy' },
    el('legend', {}, 'Blank cells in quasi-identifiers'),
    ...MISSING_POLICIES.map((p) => radio('missing-policy', `policy-${p}`, p, POLICY_LABELS[p], MISSING_POLICY_HELP[p], p === 'ordinary')),
  );
}

/**
 * `columns`: the released file's columns (the original's rows pair by one of them);
 * `readHeader`: the core's reading of the population table's header.
 */
/** `synthetic`: the synthetic measures' box starts ticked (the page's synthetic-release mode). */
export function settingsForm(columns: readonly ColumnProfile[], readHeader: HeaderReader, synthetic = false): SettingsForm {
  const tau = numberField('threshold', 'Risk threshold τ (highest risk)', THRESHOLD_HELP, DEFAULT_THRESHOLD, 0.01, 0.01);
  const atRisk = numberField('records-at-risk-threshold', 'Records at risk (share)', RECORDS_AT_RISK_HELP, DEFAULT_RECORDS_AT_RISK_THRESHOLD, 0.001, 0.01);
  const success = numberField('success-rate-threshold', 'Success rate', SUCCESS_RATE_HELP, DEFAULT_SUCCESS_RATE_THRESHOLD, 0.001, 0.01);
  const thresholds = el(
    'fieldset',
    { class: 'thresholds' },
    el('legend', {}, 'Verdict thresholds (ARX)'),
    el('p', { class: 'help' }, 'A check passes when its value is at most the threshold; the defaults are those of the ARX tool.'),
    tau.node,
    atRisk.node,
    success.node,
  );
  const adviceK = el('input', {
    id: 'advice-k',
    type: 'number',
    min: 2,
    step: 1,
    value: DEFAULT_ADVICE_K,
    inputmode: 'numeric',
    'aria-describedby': 'advice-k-help',
  });
  const advice = el(
    'div',
    { class: 'number-field' },
    el('label', { for: 'advice-k' }, 'Suggested suppression: classes smaller than'),
    adviceK,
    el(
      'p',
      { class: 'help', id: 'advice-k-help' },
      'The advice "what would lower the risk" includes suppressing the records of the classes smaller than this k.',
    ),
  );
  thresholds.append(advice);
  const sudaBox = el('input', { id: 'suda', type: 'checkbox', 'aria-describedby': 'suda-help' });
  const suda = el(
    'fieldset',
    { class: 'suda-settings' },
    el('legend', {}, 'Special uniques (SUDA)'),
    el('div', { class: 'check-field' }, sudaBox, el('label', { for: 'suda' }, 'Find the special uniques (SUDA2 and DIS-SUDA)')),
    el('p', { class: 'help', id: 'suda-help' }, SUDA_HELP),
  );
  const caseBox = el('input', { id: 'case-insensitive', type: 'checkbox', 'aria-describedby': 'case-insensitive-help' });
  const values = el(
    'fieldset',
    { class: 'value-settings' },
    el('legend', {}, 'Values'),
    el('div', { class: 'check-field' }, caseBox, el('label', { for: 'case-insensitive' }, 'Compare values case-insensitively')),
    el('p', { class: 'help', id: 'case-insensitive-help' }, CASE_INSENSITIVE_HELP),
  );
  const attribute = attributeSettings();
  const original = originalSettings(columns, synthetic);
  const balance = balanceSettings();
  const peers = peerSettings();
  original.node.append(peers.rowOrder);

  // The population table: a second, optional file, read by the worker like the first.
  // Its header is sniffed so the user can correct how the QIs match its columns.
  const matching = referenceMatching(readHeader);
  const referenceField = fileField('reference', 'Population table (optional)', REFERENCE_HELP, (file) => matching.setFile(file));

  // The population size: one radio per way of giving it; typing in a box (or choosing a region)
  // selects its radio. Focus alone never does: tabbing through the form changes no setting.
  const sizeInput = el('input', { id: 'population-size', type: 'number', min: 1, step: 1, inputmode: 'numeric', placeholder: 'e.g. 500000' });
  const fractionInput = el('input', { id: 'sampling-fraction', type: 'number', min: 0, max: 1, step: 0.001, inputmode: 'decimal', placeholder: 'e.g. 0.01' });
  const regionSelect = el('select', { id: 'population-region' }, ...REGIONS.map(([name, n]) => el('option', { value: name }, `${name} (${count(n)})`)));
  const sizeField = el(
    'fieldset',
    { class: 'population-size' },
    el('legend', {}, 'Population size'),
    radio('population-kind', 'population-none', 'none', 'Not given', POPULATION_SIZE_HELP.none, true),
    radio(
      'population-kind',
      'population-kind-size',
      'size',
      'Number of people',
      POPULATION_SIZE_HELP.size,
      false,
      el('label', { class: 'visually-hidden', for: 'population-size' }, 'Number of people in the population'),
      sizeInput,
    ),
    radio(
      'population-kind',
      'population-kind-fraction',
      'fraction',
      'Sampling fraction',
      POPULATION_SIZE_HELP.fraction,
      false,
      el('label', { class: 'visually-hidden', for: 'sampling-fraction' }, 'Sampling fraction (above 0, at most 1)'),
      fractionInput,
    ),
    radio(
      'population-kind',
      'population-kind-region',
      'region',
      'Region',
      POPULATION_SIZE_HELP.region,
      false,
      el('label', { class: 'visually-hidden', for: 'population-region' }, 'Region preset'),
      regionSelect,
    ),
  );
  const radioOf = (kind: string) => sizeField.querySelector<HTMLInputElement>(`input[name="population-kind"][value="${kind}"]`)!;
  for (const [input, kind] of [
    [sizeInput, 'size'],
    [fractionInput, 'fraction'],
    [regionSelect, 'region'],
  ] as const) {
    for (const type of ['input', 'change'] as const) input.addEventListener(type, () => (radioOf(kind).checked = true));
  }

  const ciLevel = numberField(
    'ci-level',
    'Confidence level of the intervals',
    'The estimates that rest on a model or a sample (population uniqueness, the weighted risk, the linkage risk) come with a range; 0.95 means the range is built to hold the estimate of 95 of 100 files drawn the same way.',
    DEFAULT_CI_LEVEL,
    0.5,
    0.01,
  );
  const population = el(
    'fieldset',
    { class: 'population' },
    el('legend', {}, 'Population (optional)'),
    el(
      'p',
      { class: 'help' },
      'The released file is usually a sample of a larger population; describing that population gives the journalist, marketer and population-uniqueness results.',
    ),
    el('div', { class: 'population-grid' }, el('div', {}, referenceField.node, matching.node), sizeField),
    ciLevel.node,
  );

  const read = (): Settings => {
    const form = sizeField.closest('form') ?? sizeField;
    const policy = form.querySelector<HTMLInputElement>('input[name="missing-policy"]:checked');
    const kind = sizeField.querySelector<HTMLInputElement>('input[name="population-kind"]:checked')?.value ?? 'none';
    const size: PopulationSize =
      kind === 'size'
        ? { kind: 'size', size: sizeInput.value.trim() === '' ? NaN : Number(sizeInput.value) }
        : kind === 'fraction'
          ? { kind: 'fraction', fraction: fractionInput.value.trim() === '' ? NaN : Number(fractionInput.value) }
          : kind === 'region'
            ? { kind: 'region', region: regionSelect.value }
            : { kind: 'none' };
    return {
      missingPolicy: (policy?.value ?? 'ordinary') as MissingPolicy,
      threshold: Number(tau.input.value),
      recordsAtRiskThreshold: Number(atRisk.input.value),
      successRateThreshold: Number(success.input.value),
      ciLevel: Number(ciLevel.input.value),
      adviceK: Number(adviceK.value),
      suda: sudaBox.checked,
      caseInsensitive: caseBox.checked,
      population: size,
      reference: referenceField.file(),
      referenceColumns: referenceField.file() ? matching.read() : {},
      ...attribute.read(),
      ...original.read(),
      ...balance.read(),
      ...peers.read(),
    };
  };

  const write = (s: Settings): void => {
    const form = sizeField.closest('form') ?? sizeField;
    for (const r of form.querySelectorAll<HTMLInputElement>('input[name="missing-policy"]')) r.checked = r.value === s.missingPolicy;
    tau.input.value = String(s.threshold);
    atRisk.input.value = String(s.recordsAtRiskThreshold);
    success.input.value = String(s.successRateThreshold);
    ciLevel.input.value = String(s.ciLevel);
    adviceK.value = String(s.adviceK);
    sudaBox.checked = s.suda;
    caseBox.checked = s.caseInsensitive;
    const p = s.population;
    radioOf(p.kind === 'none' ? 'none' : p.kind).checked = true;
    if (p.kind === 'size') sizeInput.value = String(p.size);
    if (p.kind === 'fraction') fractionInput.value = String(p.fraction);
    if (p.kind === 'region') regionSelect.value = p.region;
    attribute.write(s);
    original.write(s);
    balance.write(s);
    peers.write(s);
  };

  return {
    nodes: [
      el('div', { class: 'options' }, policyFieldset(), values, thresholds, suda, ...attribute.nodes, population, ...peers.nodes, original.node, balance.node),
    ],
    read,
    write,
    setQuasiIdentifiers: matching.setQuasiIdentifiers,
  };
}
