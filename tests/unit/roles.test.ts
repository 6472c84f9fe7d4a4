// Role proposal wiring (roles.ts): the core's proposed roles become the page's, the user's
// changes and settings become the AuditConfig the worker passes to the engine.

import { describe, expect, it } from 'vitest';
import { ADVICE_DEFAULTS, CONFIG_DEFAULTS, REGIONS } from '../../web/src/shared/contract';
import {
  REGIONS as PAGE_REGIONS,
  assignRole,
  auditConfig,
  choicesFromConfig,
  defaultChoices,
  guessRecordId,
  mergeAttributes,
  proposedRoles,
  validate,
  type AuditChoices,
} from '../../web/src/setup/roles';
import { column } from './fixtures';

const columns = [
  column('name', 'direct_identifier'),
  column('age', 'quasi_identifier', 'numeric'),
  column('sex', 'quasi_identifier'),
  column('diagnosis', 'sensitive'),
  column('ward', 'insensitive'),
];

const choices = (change: Partial<AuditChoices> = {}): AuditChoices => ({ ...defaultChoices(proposedRoles(columns), null), ...change });

describe('proposed roles', () => {
  it('take the core proposal for every column, in file order', () => {
    expect([...proposedRoles(columns)]).toEqual([
      ['name', 'direct_identifier'],
      ['age', 'quasi_identifier'],
      ['sex', 'quasi_identifier'],
      ['diagnosis', 'sensitive'],
      ['ward', 'insensitive'],
    ]);
  });

  it('become the config: QIs and sensitive columns, a direct identifier left out', () => {
    const config = auditConfig(choices());
    expect(config.quasi_identifiers).toEqual(['age', 'sex']);
    expect(config.sensitive).toEqual(['diagnosis']);
    expect(config.ignored).toEqual(['name']);
    expect(config.person_id).toBeNull();
    expect(config.weight).toBeNull();
  });

  it('a single role moves: the column that had it goes back to "Other"', () => {
    const roles = proposedRoles(columns);
    expect(assignRole(roles, 'ward', 'weight')).toBeNull();
    expect(assignRole(roles, 'sex', 'weight')).toBe('ward');
    expect(roles.get('ward')).toBe('insensitive');
    expect(auditConfig({ ...choices(), roles }).weight).toBe('sex');
  });

  it('the household id is a single role that becomes household_column and reads back', () => {
    const roles = proposedRoles(columns);
    expect(auditConfig({ ...choices(), roles }).household_column).toBeNull();
    expect(assignRole(roles, 'ward', 'household_id')).toBeNull();
    expect(assignRole(roles, 'diagnosis', 'household_id')).toBe('ward');
    const config = auditConfig({ ...choices(), roles });
    expect(config.household_column).toBe('diagnosis');
    expect(config.sensitive).toEqual([]);
    const back = choicesFromConfig(config, columns, null);
    expect(back.choices.roles.get('diagnosis')).toBe('household_id');
    expect(back.missing).toEqual([]);
    expect(choicesFromConfig({ quasi_identifiers: [], household_column: 'hid' }, columns, null).missing).toEqual(['hid']);
  });
});

describe('the settings', () => {
  it('default to the core defaults', () => {
    const config = auditConfig(choices());
    expect(config.threshold).toBe(CONFIG_DEFAULTS.threshold);
    expect(config.records_at_risk_threshold).toBe(CONFIG_DEFAULTS.records_at_risk_threshold);
    expect(config.success_rate_threshold).toBe(CONFIG_DEFAULTS.success_rate_threshold);
    expect(config.advice).toEqual(ADVICE_DEFAULTS);
    expect(config.scorr_k_min).toBe(CONFIG_DEFAULTS.scorr_k_min);
    expect(config.rut_alpha).toBe(CONFIG_DEFAULTS.rut_alpha);
    expect(config.risk_combination).toBe(CONFIG_DEFAULTS.risk_combination);
    expect(PAGE_REGIONS).toBe(REGIONS);
    expect(config.suda).toBe(CONFIG_DEFAULTS.suda);
    expect(config.case_insensitive).toBe(CONFIG_DEFAULTS.case_insensitive);
  });

  it('carry case_insensitive there and back (the settings link and file)', () => {
    const config = auditConfig({ ...choices(), caseInsensitive: true });
    expect(config.case_insensitive).toBe(true);
    expect(choicesFromConfig(config, [], null).choices.caseInsensitive).toBe(true);
    expect(choicesFromConfig({ quasi_identifiers: [] }, [], null).choices.caseInsensitive).toBe(false);
  });

  it('carry SUDA there and back (the settings link and file)', () => {
    const config = auditConfig({ ...choices(), suda: true });
    expect(config.suda).toBe(true);
    expect(choicesFromConfig(config, [], null).choices.suda).toBe(true);
    expect(choicesFromConfig({ quasi_identifiers: [] }, [], null).choices.suda).toBe(false);
  });

  it('give the population size one way only', () => {
    const region = auditConfig(choices({ population: { kind: 'region', region: 'Germany' } }));
    expect([region.population_size, region.sampling_fraction, region.population_region]).toEqual([null, null, 'Germany']);
    const fraction = auditConfig(choices({ population: { kind: 'fraction', fraction: 0.1 } }));
    expect([fraction.population_size, fraction.sampling_fraction, fraction.population_region]).toEqual([null, 0.1, null]);
  });

  it('pair the original by the record id only when there is an original', () => {
    expect(auditConfig(choices({ recordId: 'name' })).record_id).toBeNull();
    const original = new File(['name\n'], 'o.csv');
    expect(auditConfig(choices({ recordId: 'name', original })).record_id).toBe('name');
  });

  it('are refused with a reason when they cannot run', () => {
    expect(validate(choices())).toBeNull();
    const none = proposedRoles(columns);
    none.set('age', 'insensitive');
    none.set('sex', 'insensitive');
    expect(validate(choices({ roles: none }))).toMatch(/quasi-identifier/);
    expect(validate(choices({ threshold: 0 }))).toMatch(/threshold τ/);
    expect(validate(choices({ population: { kind: 'size', size: 1.5 } }))).toMatch(/whole number/);
    expect(validate(choices({ scorrKBasis: 'persons' }))).toMatch(/Person id/);
    expect(validate(choices({ rutAlpha: 2 }))).toMatch(/utility α/);
  });
});

describe('the peers\u2019 settings (k-map, δ-presence, HIPAA, row order)', () => {
  it('default to the core defaults and go back from a config unchanged', () => {
    const config = auditConfig(choices());
    expect([config.k_map, config.k_map_alpha, config.k_map_estimator, config.hipaa, config.row_order_threshold]).toEqual([
      CONFIG_DEFAULTS.k_map,
      CONFIG_DEFAULTS.k_map_alpha,
      CONFIG_DEFAULTS.k_map_estimator,
      CONFIG_DEFAULTS.hipaa,
      CONFIG_DEFAULTS.row_order_threshold,
    ]);
    expect([config.delta_min, config.delta_max, config.research_subset_column]).toEqual([null, null, null]);
    const set = auditConfig(
      choices({
        kMap: 3,
        kMapEstimator: 'zero_truncated_poisson',
        deltaMin: 0.1,
        deltaMax: 0.6,
        researchSubsetColumn: 'released',
        hipaa: true,
        rowOrderThreshold: 0.8,
      }),
    );
    expect(set.research_subset_column).toBe('released');
    const back = choicesFromConfig(set, columns, null).choices;
    expect(auditConfig(back)).toEqual(set);
  });

  it('are refused with a reason when out of range', () => {
    expect(validate(choices({ kMap: 0 }))).toMatch(/k of k-map/);
    expect(validate(choices({ kMapAlpha: 2 }))).toMatch(/significance level/);
    expect(validate(choices({ deltaMin: 0.7, deltaMax: 0.6 }))).toMatch(/lower δ-presence bound/);
    expect(validate(choices({ deltaMax: 1.5 }))).toMatch(/δ-presence bounds/);
    expect(validate(choices({ rowOrderThreshold: -1 }))).toMatch(/row-order/);
  });
});

describe('the record id of the original', () => {
  it('is a column named like one, else an id-like direct identifier, else row order', () => {
    expect(guessRecordId([column('age', 'quasi_identifier'), column('Record ID', 'insensitive')])).toBe('Record ID');
    expect(guessRecordId([column('age', 'quasi_identifier'), column('mrn_id', 'direct_identifier')])).toBe('mrn_id');
    expect(guessRecordId([column('age', 'quasi_identifier')])).toBeNull();
  });
});

describe('the attribute-disclosure options (t distance, t reference, SA mode, orders, hierarchies)', () => {
  const hierarchy = [
    ['flu', 'Respiratory', '*'],
    ['ulcer', 'Digestive', '*'],
  ];
  it('default to the core defaults and declare nothing', () => {
    const config = auditConfig(choices());
    expect([config.t_distance, config.t_reference, config.sa_mode]).toEqual([CONFIG_DEFAULTS.t_distance, CONFIG_DEFAULTS.t_reference, CONFIG_DEFAULTS.sa_mode]);
    expect(config.attributes).toBeUndefined();
  });

  it('declare a sensitive column ordinal with its order and hierarchy, and go back from a config', () => {
    const c = choices({
      tDistance: 'hierarchical',
      tReference: 'original',
      saMode: 'extend_qi',
      orders: { diagnosis: ['mild', 'severe'], ward: ['a'] },
      hierarchies: { diagnosis: hierarchy },
    });
    const config = auditConfig(c);
    expect(config.attributes).toEqual({ diagnosis: { kind: 'ordinal', order: ['mild', 'severe'], hierarchy } });
    const back = choicesFromConfig(config, columns, null).choices;
    expect([back.tDistance, back.tReference, back.saMode]).toEqual(['hierarchical', 'original', 'extend_qi']);
    expect(back.orders).toEqual({ diagnosis: ['mild', 'severe'] });
    expect(back.hierarchies).toEqual({ diagnosis: hierarchy });
  });

  it('replace a settings file\u2019s order and hierarchy of a sensitive column, keeping its other settings', () => {
    const none = { kind: null, resolution: null, domain: null, rounding_unit: null, weight: null, hierarchy: null, order: null, date_form: null };
    const base = { diagnosis: { ...none, kind: 'ordinal' as const, order: ['a'], weight: 2 }, age: { ...none, kind: 'numeric' as const } };
    expect(mergeAttributes(base, undefined, ['diagnosis'])).toEqual({ diagnosis: { ...none, weight: 2 }, age: base.age });
    const form = { diagnosis: { ...none, hierarchy } };
    expect(mergeAttributes(base, form, ['diagnosis'])?.diagnosis).toEqual({ ...none, hierarchy });
  });
});

describe('the date forms set in the profile (date_form)', () => {
  it('go into attributes for any column, come back from a config, and replace a file\u2019s', () => {
    const config = auditConfig(choices({ dateForms: { visit: 'DD/MM/YYYY' }, orders: { diagnosis: ['mild', 'severe'] } }));
    expect(config.attributes).toEqual({ diagnosis: { kind: 'ordinal', order: ['mild', 'severe'] }, visit: { date_form: 'DD/MM/YYYY' } });
    expect(choicesFromConfig(config, columns, null).choices.dateForms).toEqual({ visit: 'DD/MM/YYYY' });
    expect(auditConfig(choices()).attributes).toBeUndefined();
    const none = { kind: null, resolution: null, domain: null, rounding_unit: null, weight: null, hierarchy: null, order: null, date_form: null };
    const base = { visit: { ...none, date_form: 'MM/DD/YYYY' as const, weight: 2 } };
    expect(mergeAttributes(base, undefined, [])).toEqual({ visit: { ...none, weight: 2 } });
    expect(mergeAttributes(base, { visit: { ...none, date_form: 'DD/MM/YYYY' } }, [])?.visit.date_form).toBe('DD/MM/YYYY');
  });
});
