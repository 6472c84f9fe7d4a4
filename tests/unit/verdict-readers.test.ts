// The readers of the verdicts and per-column results (suite.ts, attribute-data.ts).

import { describe, expect, it } from 'vitest';
import { failing, sensitiveColumns } from '../../web/src/shared/attribute-data';
import { arxVerdict, perAttribute } from '../../web/src/shared/suite';
import { report, result } from './fixtures';

const checks = (records_at_risk: boolean, highest_risk: boolean, success_rate: boolean) => ({ records_at_risk, highest_risk, success_rate });

function arx(prosecutor: ReturnType<typeof checks>, journalist = prosecutor, all_pass = false, light = 'red') {
  return report([
    result(
      'verdict_arx_thresholds',
      { prosecutor, journalist, marketer: { success_rate: true }, all_pass },
      {
        details: { reasons: ['one', 2], thresholds: { highest_risk: 0.2, records_at_risk: 0.05, success_rate: 0.05 }, light },
      },
    ),
  ]);
}

describe('the ARX verdict', () => {
  it('is read with its reasons and thresholds', () => {
    const v = arxVerdict(arx(checks(true, true, true), checks(true, true, true), true, 'green'))!;
    expect(v.all_pass).toBe(true);
    expect(v.reasons).toEqual(['one']);
    expect(v.thresholds).toEqual({ highest_risk: 0.2, records_at_risk: 0.05, success_rate: 0.05 });
    expect(v.light).toBe('green');
  });

  it('takes its traffic light from the core (the rule: crate/core/src/verdict/arx.rs)', () => {
    expect(arxVerdict(arx(checks(true, true, false), undefined, false, 'amber'))!.light).toBe('amber');
    expect(arxVerdict(arx(checks(true, false, true)))!.light).toBe('red');
    expect(arxVerdict(arx(checks(true, true, true), undefined, true, 'purple'))).toBeNull();
  });

  it('is absent when the result is malformed', () => {
    expect(arxVerdict(report([result('verdict_arx_thresholds', { prosecutor: {} })]))).toBeNull();
  });
});

describe('per-column results', () => {
  it('are listed per attribute of their scope, in report order', () => {
    const scope = (attribute: string | null) => ({ table: 'P', quasi_identifiers: ['age', 'sex'], sensitive: null, attribute, subset: null });
    const r = report([
      result('qi_contribution', 0.1, { scope: scope('sex') }),
      result('qi_contribution', 0.2, { scope: scope(null) }),
      result('qi_contribution', 0.3, { scope: scope('age') }),
    ]);
    expect(perAttribute(r, 'qi_contribution').map((p) => [p.attribute, p.metric.value])).toEqual([
      ['sex', 0.1],
      ['age', 0.3],
    ]);
  });

  it('list the failing classes with the threshold, dropping malformed ones', () => {
    const m = result('l_distinct', 1, { details: { threshold: 2, failing: { classes: 3, listed: [{ age: '30', sex: null }, { age: 4 }] } } });
    expect(failing(m)).toEqual({ threshold: 2, classes: 3, listed: [{ age: '30', sex: null }] });
    expect(failing(result('l_distinct', 1))).toBeNull();
  });

  it('name the sensitive columns the audit was given', () => {
    const r = report([]);
    r.params.sensitive = ['diagnosis', 'procedure'];
    expect(sensitiveColumns(r)).toEqual(['diagnosis', 'procedure']);
  });
});
