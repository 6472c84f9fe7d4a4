// The full identity suite on the page: the ARX verdict, the attacker models with a population
// table (golden G1 / E1 of the spec), population uniqueness, attribution, sampling weights,
// event-level data and the record drill-down.

import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { coreFixture, expectNoHorizontalOverflow, openApp, openSection, runSample } from './helpers.ts';

/** Sets every column's role: those named in `roles`, the rest "Other". */
async function setRoles(page: Page, roles: Record<string, string>): Promise<void> {
  const profile = page.locator('#profile-panel');
  for (const select of await profile.locator('select[data-column]').all()) {
    const column = (await select.getAttribute('data-column'))!;
    await select.selectOption(roles[column] ?? 'insensitive');
  }
}

async function openG1(page: Page): Promise<void> {
  await openApp(page);
  await page.locator('#file-input').setInputFiles(coreFixture('g1.csv'));
  await expect(page.locator('#profile-panel')).toContainText('g1.csv');
}

const results = (page: Page) => page.locator('#results-panel');
const QI_G1 = { age: 'quasi_identifier', zip: 'quasi_identifier', sex: 'quasi_identifier' };

test('the sample shows the verdict, the attacker models, population uniqueness and attribution', async ({ page }) => {
  await openApp(page);
  await runSample(page);

  const verdict = page.locator('#verdict');
  await expect(verdict).toBeVisible();
  // The sample is far above every threshold: red, with the failed checks in words.
  await expect(verdict).toHaveAttribute('data-light', 'red');
  await expect(verdict.locator('.lamp-red.on')).toBeVisible();
  await expect(verdict.locator('.verdict-reasons li')).toHaveCount(7);
  await expect(verdict.locator('.verdict-reasons li').first()).toHaveText(/^Prosecutor records at risk is 0\.\d{4}, above the threshold 0\.05\.$/);
  await expect(verdict).toContainText('Thresholds used: highest risk 0.2, records at risk 0.05, success rate 0.05');

  // Three attacker models; without a population table the journalist equals the prosecutor.
  for (const id of ['attackers-title', 'population-title', 'attribution-title']) await openSection(page, id);
  const attackers = page.locator('#attackers-table');
  await expect(attackers.locator('tbody tr')).toHaveCount(3);
  await expect(page.locator('#no-population-note')).toContainText('No population table was given');
  const prosecutorHigh = await attackers.locator('[data-metric="prosecutor_highest_risk"]').innerText();
  expect(await attackers.locator('[data-metric="journalist_highest_risk"]').innerText()).toBe(prosecutorHigh);

  // No population size: an invitation, and the curve drawn over all sampling fractions.
  await expect(page.locator('#population-invite')).toContainText('No population size was given');
  const curve = page.locator('#uniqueness-curve canvas').first();
  await expect(curve).toBeVisible();
  expect((await curve.boundingBox())?.height ?? 0).toBeGreaterThan(100);
  await expect(results(page)).not.toContainText('NaN');

  // What drives the risk: one bar per QI, largest first.
  const bars = page.locator('#attribution-chart .bar-row');
  await expect(bars).toHaveCount(4);
  const labels = await bars.locator('.bar-label').allInnerTexts();
  expect([...labels].sort()).toEqual(['admission_month', 'age', 'postcode', 'sex']);
  const widths = await bars.locator('.bar-fill').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
  expect(widths[0]).toBeGreaterThan(50);
  for (let i = 1; i < widths.length; i++) expect(widths[i]).toBeLessThanOrEqual(widths[i - 1]! + 0.5);
  await expect(page.locator('#singling-out li').first()).toContainText(/alone single out \d+ record/);
  await page.locator('#subset-table summary').click();
  await expect(page.locator('#subset-table tbody tr')).toHaveCount(15);

  // No weight and no person id column: those sections stay away.
  await expect(page.locator('#weights-title')).toHaveCount(0);
  await expect(page.locator('#persons-section')).toHaveCount(0);

  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: 'test-results/identity-suite.png', fullPage: true });
});

test('a population table gives the journalist and marketer models (golden G1 / E1)', async ({ page }) => {
  await openG1(page);
  await setRoles(page, QI_G1);
  await page.locator('#reference-input').setInputFiles(coreFixture('e1.csv'));
  await expect(page.locator('#reference-chosen')).toContainText('e1.csv');
  await page.getByRole('button', { name: 'Run audit' }).click();

  await openSection(page, 'attackers-title');
  const attackers = page.locator('#attackers-table');
  await expect(attackers).toBeVisible();
  await expect(attackers.locator('[data-metric="journalist_highest_risk"]')).toHaveText(/^1\.0000/);
  await expect(attackers.locator('[data-metric="journalist_lowest_risk"]')).toHaveText(/^0\.0250/);
  await expect(attackers.locator('[data-metric="marketer_success_rate"]')).toHaveText(/^0\.2312/);
  await expect(page.locator('#no-population-note')).toHaveCount(0);
  await expect(page.locator('#messages .message-error')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/identity-population.png', fullPage: true });
});

test('a population size gives the population-uniqueness estimates', async ({ page }) => {
  await openG1(page);
  await setRoles(page, QI_G1);
  await page.getByLabel('Region preset').selectOption('Germany');
  await expect(page.locator('#population-kind-region')).toBeChecked();
  await page.getByRole('button', { name: 'Run audit' }).click();
  const headline = page.locator('.headline-stat[data-metric="population_uniqueness_dankar"]');
  await expect(headline).toContainText('3.11%');
  await expect(headline).toContainText('80,767,000');
  await expect(headline).toContainText('Zayatz');
  // Pitman and SNB have no valid solution on G1: said in words, never as a number.
  await expect(page.locator('.fact[data-metric="population_uniqueness_pitman"] .fact-value')).toHaveText('no valid estimate');
  await expect(page.locator('.fact[data-metric="population_uniqueness_snb"]')).toContainText('did not converge');
  await expect(results(page)).not.toContainText('NaN');
});

test('a weight column shows the weighted risk, and person id / weight are one column each', async ({ page }) => {
  await openG1(page);
  await setRoles(page, { ...QI_G1, w: 'weight', rid: 'person_id' });
  // A second person id column takes the role over: the first one goes back to "Other".
  await page.locator('select[data-column="diag"]').selectOption('person_id');
  await expect(page.locator('select[data-column="rid"]')).toHaveValue('insensitive');
  await expect(page.locator('#role-note')).toContainText('Only one column can be the person id');
  await page.locator('select[data-column="diag"]').selectOption('insensitive');
  await page.getByRole('button', { name: 'Run audit' }).click();

  const weights = page.locator('section[aria-labelledby="weights-title"]');
  await expect(weights).toBeVisible();
  await expect(weights.locator('[data-metric="global_risk_er"] .fact-value')).toHaveText('1.8614');
  await expect(weights.locator('[data-metric="global_risk"] .fact-value')).toHaveText('10.95%');
  await expect(weights.locator('[data-metric="risky_observations"] .fact-value')).toHaveText('4');
});

test('event-level data: k counted in persons is shown prominently when smaller', async ({ page }) => {
  await openApp(page);
  // Persons P1 and P2 have two stays each: every group of 2 rows is one person.
  const csv = 'person,age,sex\nP1,30-39,F\nP1,30-39,F\nP2,40-49,M\nP2,40-49,M\nP3,50-59,F\nP4,50-59,F\n';
  await page.locator('#file-input').setInputFiles({ name: 'stays.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.locator('#profile-panel')).toBeVisible();
  await setRoles(page, { person: 'person_id', age: 'quasi_identifier', sex: 'quasi_identifier' });
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#persons-alert')).toContainText('k is only 1, against 2');
  await expect(page.locator('#persons-section [data-metric="k_anonymity_person"] .fact-value').first()).toHaveText('1');
});

test('the records of the riskiest groups download as CSV', async ({ page }) => {
  await openApp(page);
  await runSample(page);
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON report' }).click()]);
  const report = JSON.parse(readFileSync((await json.path())!, 'utf8')) as {
    metrics: { id: string; details: { top?: { size: number }[] } }[];
  };
  const top = report.metrics.find((m) => m.id === 'record_risk')!.details.top!;
  const expected = top.reduce((a, t) => a + t.size, 0);
  expect(expected).toBeGreaterThan(0);

  await openSection(page, 'top-title');
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the records of these groups (CSV)' }).click()]);
  expect(csv.suggestedFilename()).toMatch(/^pseudolens-records-.*\.csv$/);
  const lines = readFileSync((await csv.path())!, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  expect(lines[0]).toMatch(/^line,/);
  expect(lines.length - 1).toBe(expected);
  await expect(page.locator('#extract-status')).toContainText(`Saved ${expected} records`);
});

test('the traffic light is amber when only the success rate fails, green when all pass', async ({ page }) => {
  await openApp(page);
  // 10 groups of 10: every risk is 0.1 (below τ = 0.2) but the average risk 0.1 is above 0.05.
  const rows = (groups: number, size: number) => Array.from({ length: groups * size }, (_, i) => `${20 + Math.floor(i / size)},F`).join('\n');
  await page.locator('#file-input').setInputFiles({ name: 'tens.csv', mimeType: 'text/csv', buffer: Buffer.from(`age,sex\n${rows(10, 10)}\n`) });
  await expect(page.locator('#profile-panel')).toBeVisible();
  await setRoles(page, { age: 'quasi_identifier', sex: 'quasi_identifier' });
  await page.getByRole('button', { name: 'Run audit' }).click();
  const verdict = page.locator('#verdict');
  await expect(verdict).toHaveAttribute('data-light', 'amber');
  await expect(verdict.locator('.verdict-reasons li')).toHaveCount(3);
  for (const reason of await verdict.locator('.verdict-reasons li').allInnerTexts()) expect(reason).toContain('success rate');

  // One group of 100 and a success-rate threshold of 0.05: every check passes.
  await page.locator('#file-input').setInputFiles({ name: 'hundred.csv', mimeType: 'text/csv', buffer: Buffer.from(`age,sex\n${rows(1, 100)}\n`) });
  await expect(page.locator('#profile-panel')).toContainText('hundred.csv');
  await setRoles(page, { age: 'quasi_identifier', sex: 'quasi_identifier' });
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel')).toContainText('hundred.csv');
  await expect(verdict).toHaveAttribute('data-light', 'green');
  await expect(verdict).toContainText('Every check passes.');
});

test('a problem in the population table is reported as such', async ({ page }) => {
  await openG1(page);
  await setRoles(page, QI_G1);
  const bad = 'age,zip,sex\n30-39,130**,F\n40-49,148**\n';
  await page.locator('#reference-input').setInputFiles({ name: 'census.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
  await page.getByRole('button', { name: 'Run audit' }).click();
  const error = page.locator('#messages .message-error');
  await expect(error.locator('.message-title')).toContainText('The population table census.csv has a problem at line 3');
  await expect(page.locator('#results-panel')).toBeHidden();
});

test('a Windows-1252 population table matches a UTF-8 file', async ({ page }) => {
  await openApp(page);
  await page.locator('#file-input').setInputFiles({ name: 'cities.csv', mimeType: 'text/csv', buffer: Buffer.from('city\nMünchen\nKöln\n') });
  await expect(page.locator('#profile-panel')).toBeVisible();
  await setRoles(page, { city: 'quasi_identifier' });
  const census = Buffer.from(`city\n${'M\xfcnchen\n'.repeat(4)}${'K\xf6ln\n'.repeat(2)}`, 'latin1');
  await page.locator('#reference-input').setInputFiles({ name: 'census.csv', mimeType: 'text/csv', buffer: census });
  await page.getByRole('button', { name: 'Run audit' }).click();
  // München: 4 people in the population, Köln: 2. Only matching keys give these risks.
  const attackers = page.locator('#attackers-table');
  await expect(attackers.locator('[data-metric="journalist_highest_risk"]')).toHaveText(/^0\.5000/);
  await expect(attackers.locator('[data-metric="journalist_lowest_risk"]')).toHaveText(/^0\.2500/);
});
