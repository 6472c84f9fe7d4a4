// The everyday path with a user's own file: drop it, check the proposed roles, change one,
// pick a missing-value policy and threshold, run the audit.

import { expect, test } from '@playwright/test';
import { cardValue, openApp } from './helpers.ts';

const CSV = [
  'record_no,age,sex,zip,diagnosis',
  '1,30-39,F,750**,I21',
  '2,30-39,F,750**,C50',
  '3,30-39,M,750**,I21',
  '4,40-49,M,751**,K35',
  '5,40-49,M,751**,',
  '6,40-49,M,751**,J18',
  '7,50-59,,752**,E11',
].join('\n');

test('drop a file, adjust the roles and run the audit', async ({ page }) => {
  await openApp(page);
  // Drag and drop, as a person would from the file manager.
  const transfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'clinic.csv', { type: 'text/csv' }));
    return dt;
  }, CSV);
  await page.dispatchEvent('#drop-zone', 'dragenter', { dataTransfer: transfer });
  await page.dispatchEvent('#drop-zone', 'drop', { dataTransfer: transfer });

  const profile = page.locator('#profile-panel');
  await expect(profile).toContainText('clinic.csv');
  await expect(profile.locator('tbody tr')).toHaveCount(5);
  // Every column shows why its role was proposed.
  for (const reason of await profile.locator('.role-reason').allInnerTexts()) expect(reason.length).toBeGreaterThan(10);

  // Audit on age and sex only, blanks dropped, tau 0.5.
  for (const select of await profile.locator('select[data-column]').all()) {
    const column = await select.getAttribute('data-column');
    await select.selectOption(column === 'age' || column === 'sex' ? 'quasi_identifier' : 'insensitive');
  }
  await page.getByLabel('Drop the row').check();
  await page.getByLabel('Risk threshold τ').fill('0.5');
  await page.getByRole('button', { name: 'Run audit' }).click();

  const results = page.locator('#results-panel');
  await expect(results).toContainText('Quasi-identifiers: age, sex');
  // Classes: (30-39,F) x2, (30-39,M) x1, (40-49,M) x3; the row with a blank sex is dropped.
  expect(await cardValue(page, 'k_anonymity')).toBe('1');
  expect(await cardValue(page, 'sample_uniques')).toBe('1');
  await expect(results.locator('.fact[data-metric="n_dropped_records"] .fact-value')).toHaveText('1');
  await expect(results.locator('.card[data-metric="prosecutor_records_at_risk"]')).toContainText('τ = 0.5');
  // Above 0.5 only the unique record (risk 1): 1 of 6.
  expect(await cardValue(page, 'prosecutor_records_at_risk')).toBe('16.67%');
  expect(await cardValue(page, 'r_internal')).toBe((3 / 6).toFixed(4));
});

test('the audit refuses to run without a quasi-identifier', async ({ page }) => {
  await openApp(page);
  await page.locator('#file-input').setInputFiles({ name: 'clinic.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  const profile = page.locator('#profile-panel');
  await expect(profile).toBeVisible();
  for (const select of await profile.locator('select[data-column]').all()) await select.selectOption('insensitive');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#audit-problem')).toContainText('at least one column as a quasi-identifier');
  await expect(page.locator('#results-panel')).toBeHidden();
});
