// A synthetic or perturbed release in the page: the readers of the synthetic metrics
// (synthetic-data.ts), what a shareable report's missing fields read as, and the setting that
// turns the measures on (roles.ts, both ways; only with an original).

import { describe, expect, it } from 'vitest';
import {
  correlationMatrices,
  defaultSynthetic,
  pcaComparison,
  pmseNull,
  propensityHistogram,
  regressionLines,
  samplingEquivalent,
  syntheticOf,
  worstPairs,
} from '../../web/src/shared/synthetic-data';
import { auditConfig, choicesFromConfig, defaultChoices, proposedRoles } from '../../web/src/setup/roles';
import { column, report, result } from './fixtures';

const synthetic = (id: string, value: number | null, details: Record<string, unknown>, extra = {}) =>
  result(id, value, { family: 'synthetic', details, ...extra });

describe('synthetic readers', () => {
  it('read each measure by id, its value only when ok', () => {
    const r = report([
      synthetic('k_marginal', 929.4, {}),
      synthetic('dcr_overfitting_protection', null, {}, { status: 'not_applicable', reason: 'no_holdout' }),
      result('k_anonymity', 2),
      // An id of the list from another family is not read as a synthetic measure.
      result('pmse', 0.1),
    ]);
    const s = syntheticOf(r);
    expect([...s.keys()]).toEqual(['k_marginal', 'dcr_overfitting_protection']);
    expect(s.get('k_marginal')!.value).toBe(929.4);
    expect(s.get('dcr_overfitting_protection')!.value).toBeNull();
    expect(syntheticOf(report([result('k_anonymity', 2)])).size).toBe(0);
  });

  it('read the k-marginal’s samples and its pairs, the worst first (ties by name)', () => {
    const d = {
      pairs: [
        { columns: ['a', 'b'], l1: 0.2 },
        { columns: ['b', 'c'], l1: 0.5 },
        { columns: ['a', 'c'], l1: 0.5 },
        { columns: ['c', 'd'], l1: 0.1 },
      ],
      sampling_equivalent: { equivalent_percent: 80, samples: [{ percent: 1, rows: 3, score: 161 }, 'broken'] },
    };
    expect(worstPairs(d, 2)).toEqual([
      { columns: ['a', 'c'], l1: 0.5 },
      { columns: ['b', 'c'], l1: 0.5 },
    ]);
    expect(samplingEquivalent(d)).toEqual({ percent: 80, samples: [{ percent: 1, rows: 3, score: 161 }] });
    expect(samplingEquivalent({})).toBeNull();
  });

  it('read the pMSE’s histogram and null, and the correlation matrices with their worst pair', () => {
    expect(propensityHistogram({ histogram: { original: [6, 0, 4], released: [0, 4, 6] } })).toEqual({ first: [6, 0, 4], second: [0, 4, 6] });
    // Bins of different lengths are no histogram.
    expect(propensityHistogram({ histogram: { original: [1], released: [1, 2] } })).toBeNull();
    expect(pmseNull({ null: { mean: 0.2, ratio: 0.5, perms: 20, seed: 0 } })).toEqual({ mean: 0.2, ratio: 0.5, perms: 20 });
    expect(pmseNull({ null: null })).toBeNull();
    const original = [
      [1, 0.5],
      [0.5, 1],
    ];
    const released = [
      [1, null],
      [null, 1],
    ];
    const diff = [
      [0, null],
      [null, 0],
    ];
    const c = correlationMatrices({ pearson: { original, released, diff, mean_abs_diff: null, max_abs_diff: null } }, 'pearson');
    expect(c).toEqual({ original, released, diff, meanAbsDiff: null, worst: null });
    expect(correlationMatrices({}, 'kendall')).toBeNull();
  });

  it('read the PCA with one axis (second coordinate 0), and a shareable report without its scatter', () => {
    const one = pcaComparison({
      explained_variance_ratio: [1],
      scatter: { original: [[0.5]], released: [[0.25], ['x']] },
      top_features: [[{ loading: 1, name: 'age' }]],
    });
    expect(one.scatter).toEqual({ original: [[0.5, 0]], released: [[0.25, 0]] });
    expect(one.topFeatures).toEqual([['age']]);
    expect(pcaComparison({ explained_variance_ratio: [0.6, 0.4] }).scatter).toBeNull();
  });

  it('read the regression’s lines, null where one is undefined', () => {
    expect(regressionLines({ total: { original: { slope: 2, intercept: -1 }, released: null } })).toEqual({
      original: { slope: 2, intercept: -1 },
      released: null,
    });
    expect(regressionLines({})).toEqual({ original: null, released: null });
  });
});

describe('synthetic setting', () => {
  const columns = [column('age', 'quasi_identifier', 'numeric'), column('diag', 'sensitive')];
  const original = new File(['age,diag\n'], 'o.csv');

  it('runs the measures with the core’s defaults only with an original, and travels back', () => {
    const choices = { ...defaultChoices(proposedRoles(columns), null), original, synthetic: true };
    const config = auditConfig(choices);
    expect(config.synthetic).toEqual(defaultSynthetic());
    expect(config.synthetic?.pmse_null_perms).toBe(20);
    expect(choicesFromConfig(config, columns, null).choices.synthetic).toBe(true);
    expect(auditConfig({ ...choices, original: null }).synthetic).toBeNull();
    expect(auditConfig(defaultChoices(proposedRoles(columns), null)).synthetic).toBeNull();
  });
});
