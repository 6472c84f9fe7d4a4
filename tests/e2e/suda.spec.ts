// Special uniques (SUDA2 and DIS-SUDA) on the page: switched on in the settings, the section
// gives golden G1's figures (peer-measures.md Sec G1), its chart, the variables and the
// highest-scoring records; it opens from the keyboard and fits 390 px.

import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { coreFixture, expectNoHorizontalOverflow, openApp, openSection } from './helpers.ts';

const ROLES: Record<string, string> = {
  rid: 'insensitive',
  age: 'quasi_identifier',
  sex: 'quasi_identifier',
  zip: 'quasi_identifier',
  job: 'quasi_identifier',
  hid: 'insensitive',
};

async function auditG1(page: Page, suda: boolean): Promise<void> {
  await openApp(page);
  await page.locator('#file-input').setInputFiles(coreFixture('suda_g1.csv'));
  await expect(page.locator('#profile-panel')).toContainText('suda_g1.csv');
  for (const select of await page.locator('select[data-column]').all()) {
    await select.selectOption(ROLES[(await select.getAttribute('data-column'))!] ?? 'insensitive');
  }
  if (suda) await page.locator('#suda').check();
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel [data-metric="k_anonymity"] .card-value')).toBeVisible({ timeout: 30_000 });
}

test('SUDA is off unless asked for', async ({ page }) => {
  await auditG1(page, false);
  await expect(page.locator('#suda-title')).toHaveCount(0);
});

test('the SUDA section gives G1 figures, the drivers and the highest-scoring records', async ({ page }) => {
  await auditG1(page, true);
  await openSection(page, 'suda-title');
  const summary = page.locator('#suda-summary');
  await expect(summary).toContainText('6 records (50');
  await expect(summary).toContainText('highest 8');
  // Its weights with 4 QIs, (4 - k)!, and the scores scaled by the first.
  await expect(page.locator('#suda-scale')).toContainText(
    'With 4 quasi-identifiers a set of one value weighs 6.0000, a set of two 2.0000 (with q quasi-identifiers a set of k values weighs (q − k)!)',
  );
  await expect(page.locator('#suda-scale')).toContainText('highest 1.3333.');
  // The chart: the 6 records without MSU, then the bands.
  await expect(page.locator('#suda-score-chart li').first()).toContainText('6 records');
  // The variables, largest share first: age and job are each in 11 of the 17 MSUs.
  const first = await page.locator('#suda-variables li').evaluateAll((items) => items.slice(0, 2).map((li) => li.getAttribute('data-attribute')));
  expect(first.sort()).toEqual(['age', 'job']);
  // The drill-down: six records, row 9 first with {zip} and {age, job}.
  const rows = page.locator('#suda-top tbody tr');
  await expect(rows).toHaveCount(6);
  await expect(rows.first()).toContainText('9');
  await expect(rows.first()).toContainText('{zip} {age, job}');
  // The HTML report carries the section.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download HTML report' }).click()]);
  const html = readFileSync((await download.path())!, 'utf8');
  expect(html).toContain('Special uniques (SUDA)');
  expect(html).toContain('{zip} {age, job}');
});

test('the SUDA section opens from the keyboard and fits a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await auditG1(page, true);
  const summary = page.locator('section[aria-labelledby="suda-title"] > details.section-fold > .section-summary');
  await summary.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#suda-top')).toBeVisible();
  await expectNoHorizontalOverflow(page);
});

test('with 20 quasi-identifiers the scores read as powers of ten, with their weights and scaled', async ({ page }) => {
  // 40 records of 20 columns of 3 values each: a set of one value weighs 19! = 1.2e17.
  let state = 20;
  const pick = (): string => 'abc'[(state = (state * 1103515245 + 12345) % 2147483648) % 3]!;
  const columns = Array.from({ length: 20 }, (_, j) => `q${j + 1}`);
  const rows = Array.from({ length: 40 }, () => columns.map(pick).join(','));
  await openApp(page);
  await page
    .locator('#file-input')
    .setInputFiles({ name: 'twenty.csv', mimeType: 'text/csv', buffer: Buffer.from(`${columns.join(',')}\n${rows.join('\n')}\n`) });
  await expect(page.locator('#profile-panel')).toContainText('twenty.csv');
  for (const c of columns) await page.locator(`select[data-column="${c}"]`).selectOption('quasi_identifier');
  await page.locator('#suda').check();
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel [data-metric="k_anonymity"] .card-value')).toBeVisible({ timeout: 30_000 });
  await openSection(page, 'suda-title');
  const summary = page.locator('#suda-summary');
  await expect(summary).toContainText(/highest \d\.\d\d × 10\^1[78]\./);
  await expect(summary).not.toContainText(/\d{10}/);
  const scale = page.locator('#suda-scale');
  await expect(scale).toContainText('With 20 quasi-identifiers a set of one value weighs 1.22 × 10^17, a set of two 6.40 × 10^15');
  await expect(scale).toContainText('grow combinatorially');
  await expect(scale).toContainText(
    /Scaled by the weight of one value \(1 = as much as one value no other record has\): mean \d+\.\d{4}, highest \d+\.\d{4}\./,
  );
  await expect(page.locator('#suda-score-chart')).not.toContainText(/\d{10}/);
  await page.locator('section[aria-labelledby="suda-title"]').screenshot({ path: 'test-results/suda-twenty.png' });
});
