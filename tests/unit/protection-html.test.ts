// The protection part of the saved HTML report (export/protection-html.ts): the node written,
// the criteria, the figures before, predicted and after, checked by hand against a small
// protection report; the ladders in ARX's layout in the full report only.

import { describe, expect, it } from 'vitest';
import type { LadderView } from '../../web/src/shared/contract';
import { protectionReport, type ProtectionReport } from '../../web/src/shared/protect-data';
import { protectionSection } from '../../web/src/export/protection-html';
import { report, result } from './fixtures';

const ladders: LadderView[] = [
  { qi: 'age', kind: 'bands', levels: ['value', 'bands of 10', '*'].map((name) => ({ name, labels: 1, largest: [] })) },
  { qi: 'zip', kind: 'prefix', levels: ['value', 'first 3 characters', '*'].map((name) => ({ name, labels: 1, largest: [] })) },
];

/** Each ladder in ARX's layout: a value, then its label per level. */
const hierarchies = {
  age: '17;[10,20);*\n23;[20,30);*\n',
  zip: '10115;101;*\n10117;101;*\nA&B;A&B;*\n',
};

const search = result(
  'protect',
  { age: 1, zip: 1 },
  {
    family: 'protect',
    details: {
      criteria: { k: 5, l: null, t: null, t_distance: 'auto', average_risk: 0.05, sensitive: [] },
      suppression_limit: 0.05,
      suppressed: 'remove',
      nodes_total: 9,
      nodes_feasible: 4,
      records_in_scope: 10,
      ladders: {
        age: { kind: 'bands', height: 3, labels_per_level: [8, 3, 1] },
        zip: { kind: 'prefix', height: 3, labels_per_level: [6, 2, 1] },
      },
    },
  },
);

function audit(light: string, k: number, records: number, uniques: number, atRisk: number, r: number) {
  return report([
    result('verdict_arx_thresholds', {}, { details: { light } }),
    result('n_records', records),
    result('k_anonymity', k),
    result('sample_uniques', uniques),
    result('prosecutor_records_at_risk', atRisk),
    result('r_internal', r),
  ]);
}

function doc(checked = true, feasible = true): ProtectionReport {
  const figures = { records_suppressed: 2, classes: 2, k: 4, average_risk: 0.25, records_at_risk: 0, loss: 0.5, discernibility: 36 };
  return protectionReport(search, ladders, { levels: [1, 2], figures, feasible }, hierarchies, audit('red', 1, 10, 6, 0.8, 0.8), {
    report: audit('green', 4, 8, 0, 0, 0.25),
    checked,
  });
}

/** The cells of the row `attr` (`data-qi="age"`, `data-figure="k"`), its heading first. */
function cells(html: string, attr: string): string[] {
  const tr = html.match(new RegExp(`<tr ${attr}>(.*?)</tr>`))?.[1] ?? '';
  return [...tr.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((m) => m[1]!);
}

/** Every line of every hierarchy, as the HTML escapes it. */
const hierarchyLines = Object.values(hierarchies).flatMap((csv) =>
  csv
    .trim()
    .split('\n')
    .map((line) => line.replace(/&/g, '&#38;')),
);

describe('the protection part of the HTML report', () => {
  const full = protectionSection(doc(), false);
  const shareable = protectionSection(doc(), true);

  it('tells the node written, a level per column with its name and labels', () => {
    expect(cells(full, 'data-qi="age"')).toEqual(['age', 'bands', '1 of 2: bands of 10', '3']);
    expect(cells(full, 'data-qi="zip"')).toEqual(['zip', 'prefix', '2 of 2: *', '1']);
    expect(full).toContain('data-feasible="true">A protected release of this file was written in the page');
    expect(full).toContain('It meets the criteria within the suppression limit.');
  });

  it('tells the criteria and the suppression limit', () => {
    expect(cells(full, 'data-criterion="k"')).toEqual(['Smallest class k', '5']);
    expect(cells(full, 'data-criterion="l"')).toEqual(['Distinct l per sensitive column', 'not set']);
    expect(cells(full, 'data-criterion="average_risk"')).toEqual(['Average risk at most', '5.00%']);
    expect(cells(full, 'data-criterion="suppression_limit"')).toEqual(['Records suppressed at most', '5.00% of the records in scope']);
    expect(full).toContain('<td>9, of which 4 meet the criteria</td>');
  });

  it('sets the original, the prediction and the release side by side', () => {
    expect(cells(full, 'data-figure="verdict"')).toEqual(['Verdict (ARX thresholds)', 'RED', '—', 'GREEN']);
    // 10 records in scope, 2 suppressed: 8 predicted, 8 audited.
    expect(cells(full, 'data-figure="records"')).toEqual(['Records', '10', '8', '8']);
    expect(cells(full, 'data-figure="records_suppressed"')).toEqual(['Records suppressed', '—', '2 (20.00%)', '—']);
    expect(cells(full, 'data-figure="k"')).toEqual(['Smallest class k', '1', '4', '4']);
    expect(cells(full, 'data-figure="uniques"')).toEqual(['Uniques', '6', '—', '0']);
    expect(cells(full, 'data-figure="records_at_risk"')).toEqual(['Records at risk', '80.00%', '0.00%', '0.00%']);
    expect(cells(full, 'data-figure="average_risk"')).toEqual(['Average risk', '0.8000', '0.2500', '0.2500']);
    expect(cells(full, 'data-figure="loss"')).toEqual(['Information lost', '—', '0.5000', '—']);
    expect(full).toContain('<p data-checked="true">Its audit gives the figures the search predicted for the node');
  });

  it('says when the node breaks the criteria and when the audit was not compared', () => {
    const html = protectionSection(doc(false, false), false);
    expect(html).toContain('data-feasible="false"');
    expect(html).toContain('It does not meet the criteria within the suppression limit: it was written at the user’s judgement.');
    expect(html).toContain('<p data-checked="false">Its audit was not compared with the prediction: every column is at the top of its ladder');
  });

  it('lists each ladder in ARX’s layout in the full report, escaped', () => {
    expect(full).toContain('<h4>age (2 values)</h4><pre class="hierarchy-csv" data-qi="age">17;[10,20);*\n23;[20,30);*\n</pre>');
    expect(full).toContain('<h4>zip (3 values)</h4>');
    for (const line of hierarchyLines) expect(full).toContain(line);
    expect(full).not.toContain('A&B');
  });

  it('leaves every hierarchy row out of the shareable variant, keeping the levels’ names and counts', () => {
    for (const line of hierarchyLines) expect(shareable).not.toContain(line);
    expect(shareable).not.toContain('<pre');
    expect(shareable).toContain('id="protection-ladders-left-out"');
    expect(cells(shareable, 'data-qi="age"')).toEqual(['age', 'bands', '1 of 2: bands of 10', '3']);
    expect(cells(shareable, 'data-figure="k"')).toEqual(['Smallest class k', '1', '4', '4']);
  });
});
