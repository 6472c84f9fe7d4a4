// Protect's form in the page (protect-data.ts): a ladder read from its kind and text and
// written back, the settings of a search, a node in words, and the ladder an advice change
// asks for.

import { describe, expect, it } from 'vitest';
import type { LadderView } from '../../web/src/shared/contract';
import {
  adviceLadder,
  auditHeadline,
  ladderOf,
  ladderText,
  levelsOf,
  nodeWords,
  protectForm,
  protectionReport,
  protectParams,
  protectSettings,
} from '../../web/src/shared/protect-data';
import { linkSettings } from '../../web/src/setup/settings-share';
import type { AuditConfig } from '../../web/src/shared/report';
import { report, result } from './fixtures';
import type { Effect } from '../../web/src/shared/advice-data';

const ladders: LadderView[] = [
  { qi: 'age', kind: 'bands', levels: ['value', 'bands of 10', '*'].map((name) => ({ name, labels: 1, largest: [] })) },
  { qi: 'zip', kind: 'prefix', levels: ['value', '104**', '*'].map((name) => ({ name, labels: 1, largest: [] })) },
];

describe('protect form', () => {
  it('reads each kind of ladder and writes it back', () => {
    const bands = ladderOf('age', { kind: 'bands', text: '5, 10,20,bottom=18,top=90' });
    expect(bands).toEqual({ kind: 'bands', widths: [5, 10, 20], bottom: 18, top: 90 });
    expect(ladderText(bands!)).toBe('5,10,20,bottom=18,top=90');
    expect(ladderOf('d', { kind: 'dates', text: 'month, year' })).toEqual({ kind: 'dates', levels: ['month', 'year'] });
    expect(ladderOf('zip', { kind: 'prefix', text: '4,3' })).toEqual({ kind: 'prefix', lengths: [4, 3] });
    expect(ladderOf('x', { kind: 'none', text: '5' })).toBeNull();
    expect(ladderOf('w', { kind: 'hierarchy', text: 'a;A\n' })).toEqual({ kind: 'hierarchy', csv: 'a;A\n' });
  });

  it('names the column and the part a ladder cannot read', () => {
    expect(() => ladderOf('age', { kind: 'bands', text: '5,ten' })).toThrow('“age” needs numbers separated by commas; “ten” is not one');
    expect(() => ladderOf('d', { kind: 'dates', text: 'week' })).toThrow('“week” is none of them');
    expect(() => ladderOf('w', { kind: 'hierarchy', text: ' ' })).toThrow('Choose the hierarchy file of “w”');
  });

  it('makes the settings of a search: sensitive columns only with l or t, wildcard read as ordinary', () => {
    const choice = { k: 5, l: null, t: null, averageRisk: 0.05, suppression: 0.01 };
    const p = protectParams(['age', 'zip'], ['dx'], { age: { kind: 'bands', text: '10' } }, choice, 'wildcard', 0.2);
    expect(p.ladders).toEqual({ age: { kind: 'bands', widths: [10], bottom: null, top: null } });
    expect([p.sensitive, p.missing_policy, p.suppression_limit, p.criteria.k, p.criteria.average_risk]).toEqual([[], 'ordinary', 0.01, 5, 0.05]);
    expect(protectParams(['age'], ['dx'], {}, { ...choice, l: 2 }, 'drop', 0.2).sensitive).toEqual(['dx']);
  });

  it('says a node in words, leaving out the columns kept as they are', () => {
    expect(nodeWords(ladders, [1, 0])).toBe('age: bands of 10');
    expect(nodeWords(ladders, [0, 0])).toBe('every value as it is');
    expect(levelsOf(ladders, { zip: 2 })).toEqual([0, 2]);
  });

  it('turns an advice change into a ladder and a level', () => {
    const effect = (change: Effect['change']) => ({ change }) as Effect;
    expect(adviceLadder(effect({ kind: 'bands', column: 'age', width: 5 }))).toEqual({ qi: 'age', choice: { kind: 'bands', text: '5' }, level: 1 });
    expect(adviceLadder(effect({ kind: 'truncate', column: 'zip', keep: 3 }))?.choice).toEqual({ kind: 'prefix', text: '3' });
    expect(adviceLadder(effect({ kind: 'drop', column: 'zip' }))).toEqual({ qi: 'zip', choice: null, level: 'top' });
    expect(adviceLadder(effect({ kind: 'suppress', below: 3 }))).toBeNull();
  });

  it('sets the original and the release side by side in the protection report', () => {
    const audit = (light: string, k: number, r: number) =>
      report([result('verdict_arx_thresholds', {}, { details: { light } }), result('k_anonymity', k), result('r_internal', r), result('n_records', 10)]);
    expect(auditHeadline(audit('red', 1, 0.8))).toEqual({ verdict: 'red', records: 10, k: 1, uniques: null, records_at_risk: null, average_risk: 0.8 });
    const figures = { records_suppressed: 2, classes: 2, k: 4, average_risk: 0.25, records_at_risk: 0, loss: 0.5, discernibility: 36 };
    const doc = protectionReport(result('protect', { age: 1 }), ladders, { levels: [1, 2], figures, feasible: true }, { age: 'a;A\n' }, audit('red', 1, 0.8), {
      report: audit('green', 4, 0.25),
      checked: true,
    });
    expect(doc.written).toEqual({ levels: { age: 1, zip: 2 }, labels: { age: 'bands of 10', zip: '*' }, feasible: true, predicted: figures });
    expect([doc.before?.verdict, doc.after.verdict, doc.checked]).toEqual(['red', 'green', true]);
  });
});

describe('protect settings', () => {
  const params = protectParams(
    ['age', 'zip', 'ward'],
    [],
    { age: { kind: 'bands', text: '10,20' }, zip: { kind: 'prefix', text: '4,3' }, ward: { kind: 'hierarchy', text: 'W1;north\nW2;north\n' } },
    { k: 5, l: null, t: null, averageRisk: 0.05, suppression: 0.05 },
    'ordinary',
    0.2,
  );

  it('carries the ladders, criteria and node chosen, and sets the form again from them', () => {
    const s = protectSettings(params, { age: 1, zip: 2, ward: 0 });
    expect(s.node).toEqual({ age: 1, zip: 2, ward: 0 });
    expect((s as Record<string, unknown>).quasi_identifiers).toBeUndefined();
    const form = protectForm(s);
    // ARX's green thresholds: k 5, average risk 5 %, 5 % suppressed.
    expect(form.preset).toBe('arx_green');
    expect(form.ladders).toEqual({
      age: { kind: 'bands', text: '10,20' },
      zip: { kind: 'prefix', text: '4,3' },
      ward: { kind: 'hierarchy', text: 'W1;north\nW2;north\n' },
    });
    expect(protectForm({ ...s, suppression_limit: 0.02 })).toMatchObject({ preset: 'custom', criteria: { k: 5, averageRisk: 0.05, suppression: 0.02 } });
  });

  it('leaves the hierarchy ladders out of a link, and says so', () => {
    const config = { quasi_identifiers: ['age', 'zip', 'ward'], protect: protectSettings(params, null) } as unknown as AuditConfig;
    const { config: link, left } = linkSettings(config);
    expect(left).toEqual(['protect_hierarchies']);
    expect(Object.keys(link.protect?.ladders ?? {})).toEqual(['age', 'zip']);
    expect(JSON.stringify(link)).not.toContain('W1');
    // Without a hierarchy nothing is said to be left out.
    const plain = { ...config, protect: { ...config.protect!, ladders: { age: config.protect!.ladders.age } } };
    expect(linkSettings(plain).left).toEqual([]);
  });
});
