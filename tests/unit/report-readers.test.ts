// The readers of the report (report.ts, balance-data.ts, candidates-data.ts): they take a
// value only when its shape is the one expected, and never throw on another.

import { describe, expect, it } from 'vitest';
import { candidateOf, paretoFrontier, presetOf } from '../../web/src/shared/balance-data';
import { tableResult } from '../../web/src/results/balance/candidates-data';
import { RUT_PRESETS } from '../../web/src/shared/contract';
import { kViolators, numberTriples, numberValue, percentiles, riskiestClasses, toWireError } from '../../web/src/shared/report';
import { report, result } from './fixtures';

describe('report readers', () => {
  it('read a number only from an ok, finite value', () => {
    const r = report([
      result('k_anonymity', 3),
      result('r_internal', null, { status: 'not_applicable', reason: 'no_rows' }),
      result('sample_uniqueness', 'NaN'),
    ]);
    expect(numberValue(r, 'k_anonymity')).toBe(3);
    expect(numberValue(r, 'r_internal')).toBeNull();
    expect(numberValue(r, 'sample_uniqueness')).toBeNull();
    expect(numberValue(r, 'absent')).toBeNull();
  });

  it('keep the well-formed rows of a table and drop the others', () => {
    const r = report([
      result('class_size_histogram', [[1, 2, 2], [2, 'x', 4], [3, 1, 3, 9], 'row']),
      result('k_violators', [{ k: 2, records: 3, share: 0.5 }, { k: 3 }]),
      result('ec_size_percentiles', { p5: 1, p50: 2, p95: 4 }),
    ]);
    expect(numberTriples(r, 'class_size_histogram')).toEqual([
      [1, 2, 2],
      [3, 1, 3, 9],
    ]);
    expect(kViolators(r)).toEqual([{ k: 2, records: 3, share: 0.5 }]);
    expect(percentiles(r)).toEqual({ p5: 1, p50: 2, p95: 4 });
    expect(percentiles(report([result('ec_size_percentiles', { p5: 1 })]))).toBeNull();
  });

  it('list the riskiest classes from the details of record_risk', () => {
    const top = [
      { values: { age: '30', sex: null }, size: 1, f: 1, risk: 1 },
      { values: 'broken', size: 1, risk: 1 },
    ];
    expect(riskiestClasses(report([result('record_risk', { min: 0, mean: 0.5, max: 1 }, { details: { top } })]))).toEqual([top[0]]);
    expect(riskiestClasses(report([]))).toEqual([]);
  });

  it('take the result of the table as a whole, or the worst case over the sensitive columns', () => {
    const perAttribute = result('l_distinct', 1, { scope: { table: 'P', quasi_identifiers: ['age'], sensitive: 'diag', attribute: null, subset: null } });
    const worst = result('l_distinct', 2, { scope: { table: 'P', quasi_identifiers: ['age'], sensitive: '*', attribute: null, subset: null } });
    expect(tableResult(report([perAttribute, worst]), 'l_distinct')).toBe(worst);
    const subset = result('qi_distinction', 0.5, { scope: { table: 'P', quasi_identifiers: ['age'], sensitive: null, attribute: null, subset: ['age'] } });
    expect(tableResult(report([subset]), 'qi_distinction')).toBeUndefined();
  });

  it('recognise an error of the binding, and make anything else an internal one', () => {
    expect(toWireError({ kind: 'input', code: 'ragged_row', message: 'm', line: 3, column: 'age' })).toEqual({
      kind: 'input',
      code: 'ragged_row',
      message: 'm',
      line: 3,
      column: 'age',
    });
    expect(toWireError({ kind: 'other', code: 'x', message: 'm' })).toEqual({ kind: 'internal', code: 'x', message: 'm', line: null, column: null });
    expect(toWireError(new Error('boom'))).toEqual({ kind: 'internal', code: 'internal', message: 'boom', line: null, column: null });
  });
});

describe('balance readers', () => {
  it('make a candidate of a report with R and U, or name the one missing', () => {
    expect(candidateOf('a', report([result('risk_r', 0.2), result('utility_u', 0.8)]))).toEqual({ name: 'a', risk_r: 0.2, utility_u: 0.8 });
    expect(candidateOf('a', report([result('risk_r', 0.2)]))).toEqual({ missing: 'utility_u' });
    expect(candidateOf('a', report([result('utility_u', 0.8)]))).toEqual({ missing: 'risk_r' });
  });

  it('name the preset of a weight, from the core presets', () => {
    for (const [id, alpha] of RUT_PRESETS) expect(presetOf(alpha)).toBe(id);
    expect(presetOf(0.55)).toBeNull();
  });

  it('keep the candidates no other beats on both counts, by risk', () => {
    const a = { name: 'a', risk_r: 0.1, utility_u: 0.5 };
    const b = { name: 'b', risk_r: 0.3, utility_u: 0.9 };
    const c = { name: 'c', risk_r: 0.3, utility_u: 0.4 };
    expect(paretoFrontier([b, c, a])).toEqual([a, b]);
  });
});
