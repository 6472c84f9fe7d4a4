// The attacks on a release in the page: the reader of the three attack metrics
// (attack-data.ts) and the settings that turn them on (roles.ts, both ways).

import { describe, expect, it } from 'vitest';
import { attacksOf, defaultAttacks, hadControl } from '../../web/src/shared/attack-data';
import { auditConfig, choicesFromConfig, defaultChoices, proposedRoles, validate } from '../../web/src/setup/roles';
import { column, report, result } from './fixtures';

const attack = (id: string, value: number | null, details: Record<string, unknown>, extra = {}) =>
  result(id, value, { family: 'attack', params: { control_given: true }, details, ...extra });

describe('attack readers', () => {
  it('read the risk, its interval, the rates and the queries', () => {
    const r = report([
      attack('anonymeter_singling_out_risk', 0.2, {
        ci: { level: 0.95, low: 0.1, high: 0.3, method: 'wilson' },
        attack_rate: 0.4,
        control_rate: 0.25,
        baseline_risk: 0.01,
        n_attacks: 50,
        k_att: 20,
        k_ctl: 12,
        seed: 7,
        n_queries: 2,
        risk_without_control: { value: 0.4 },
        queries: [{ query: 'age >= 60', singles_out_original: true }, 'broken', { query: 'sex = F', singles_out_original: false }],
      }),
      attack('anonymeter_inference_risk', null, {}, { status: 'not_applicable', reason: 'no_sensitive_attribute' }),
      result('k_anonymity', 2),
    ]);
    const [so, inf] = attacksOf(r);
    expect(attacksOf(r)).toHaveLength(2);
    expect(so!.risk).toEqual({ value: 0.2, low: 0.1, high: 0.3, level: 0.95 });
    expect([so!.attackRate, so!.controlRate, so!.baselineRate, so!.successes, so!.controlSuccesses, so!.seed, so!.uncorrected]).toEqual([
      0.4, 0.25, 0.01, 20, 12, 7, 0.4,
    ]);
    expect(so!.queries).toEqual([
      { query: 'age >= 60', singlesOut: true },
      { query: 'sex = F', singlesOut: false },
    ]);
    expect(inf!.kind).toBe('inference');
    expect(inf!.risk).toBeNull();
    expect(hadControl(r)).toBe(true);
    expect(attacksOf(report([result('k_anonymity', 2)]))).toEqual([]);
  });
});

describe('attack settings', () => {
  const columns = [column('age', 'quasi_identifier', 'numeric'), column('diag', 'sensitive')];
  const original = new File(['age,diag\n'], 'o.csv');

  it('travel into the config and back, keeping the settings the form does not hold', () => {
    const choices = {
      ...defaultChoices(proposedRoles(columns), null),
      original,
      attacks: { ...defaultAttacks(), n_attacks: 40, seed: 3, so_mode: 'univariate' as const },
    };
    const config = auditConfig(choices);
    expect(config.attacks).toEqual({ ...defaultAttacks(), n_attacks: 40, seed: 3, so_mode: 'univariate' });
    expect(choicesFromConfig(config, columns, null).choices.attacks).toEqual(config.attacks);
    expect(auditConfig(defaultChoices(proposedRoles(columns), null)).attacks).toBeNull();
  });

  it('are refused with a reason when the number of attacks or the seed is not a whole number', () => {
    const base = { ...defaultChoices(proposedRoles(columns), null), original };
    expect(validate({ ...base, attacks: { ...defaultAttacks(), n_attacks: 0 } })).toContain('number of attacks');
    expect(validate({ ...base, attacks: { ...defaultAttacks(), seed: 1.5 } })).toContain('seed');
    expect(validate({ ...base, attacks: { ...defaultAttacks() } })).toBeNull();
  });
});
