// Dates in every written form on the page (issue 36, spec README Sec 4.4): a German export
// (`;`, CRLF, dd.mm.yyyy, decimal commas) shows its date of birth as a date written
// DD.MM.YYYY and proposed as a quasi-identifier, its weights as numbers; a column both
// day-first and month-first read offers the forms in its profile row, and the chosen one is
// the audit's (`date_form`).

import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { cardValue, openApp } from './helpers.ts';

function german(): string {
  const rows = ['PLZ;Geburtsdatum;Geschlecht;Gewicht'];
  for (let i = 0; i < 24; i++) {
    const dd = String(1 + (i % 28)).padStart(2, '0');
    const mm = String(1 + (i % 12)).padStart(2, '0');
    rows.push(`${10115 + (i % 3)};${dd}.${mm}.${1950 + i};${i % 2 ? 'm' : 'w'};${60 + i},${i % 10}`);
  }
  return `${rows.join('\r\n')}\r\n`;
}

// 24 visits, day and month never above 12 (every value reads both ways), two sexes.
function ambiguous(): string {
  const rows = ['visit,sex'];
  for (let i = 0; i < 24; i++)
    rows.push(`${String(1 + (i % 12)).padStart(2, '0')}/${String(1 + Math.floor(i / 2)).padStart(2, '0')}/2020,${i % 2 ? 'm' : 'f'}`);
  return `${rows.join('\n')}\n`;
}

test('a German export reads its dates of birth and decimal commas', async ({ page }, testInfo) => {
  await openApp(page);
  await page.locator('#file-input').setInputFiles({ name: 'export.csv', mimeType: 'text/csv', buffer: Buffer.from(german()) });
  await expect(page.locator('#profile-panel')).toContainText('export.csv');
  const born = page.locator('#profile-panel tr[data-column="Geburtsdatum"]');
  await expect(born).toContainText('date written DD.MM.YYYY, dates (1950-01-01 to 1973-12-24)');
  await expect(born.locator('select[data-column="Geburtsdatum"]')).toHaveValue('quasi_identifier');
  await expect(page.locator('#profile-panel tr[data-column="Gewicht"]')).toContainText('numeric with decimal commas, numbers (60 to 83.3)');
  await page.screenshot({ path: testInfo.outputPath('german-profile.png'), fullPage: true });
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel .card[data-metric="k_anonymity"] .card-value')).toHaveText('1', { timeout: 30_000 });
});

test('an ambiguous date column is read in the form chosen in its profile row', async ({ page }, testInfo) => {
  await openApp(page);
  await page.locator('#file-input').setInputFiles({ name: 'visits.csv', mimeType: 'text/csv', buffer: Buffer.from(ambiguous()) });
  await expect(page.locator('#profile-panel')).toContainText('visits.csv');
  await expect(page.locator('#read-warnings-title')).toBeVisible();
  await expect(page.locator('li[data-code="date_form_ambiguous"]')).toContainText('DD/MM/YYYY or MM/DD/YYYY');
  const form = page.locator('select[data-date-form="visit"]');
  await expect(form).toHaveValue('');
  // Read as text, 24 distinct values: proposed a direct identifier, left out of the audit.
  await expect(page.locator('select[data-column="visit"]')).toHaveValue('direct_identifier');
  await page.locator('select[data-column="sex"]').selectOption('quasi_identifier');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel .card[data-metric="k_anonymity"] .card-value')).toHaveText('12', { timeout: 30_000 });

  await form.selectOption('DD/MM/YYYY');
  await expect(page.locator('select[data-column="visit"]')).toHaveValue('quasi_identifier');
  await expect(page.locator('#role-note')).toContainText('visit is now a quasi-identifier');
  await page.screenshot({ path: testInfo.outputPath('ambiguous-profile.png'), fullPage: true });
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel .card[data-metric="k_anonymity"] .card-value')).toHaveText('1', { timeout: 30_000 });
  expect(await cardValue(page, 'k_anonymity')).toBe('1');
});

test('a settings file keeps the date form it sets on a column that offers no choice', async ({ page }, testInfo) => {
  await openApp(page);
  await page.locator('#file-input').setInputFiles({ name: 'export.csv', mimeType: 'text/csv', buffer: Buffer.from(german()) });
  await expect(page.locator('#profile-panel')).toContainText('export.csv');
  // Geburtsdatum reads in one form only: its row has no select of forms.
  await expect(page.locator('select[data-date-form="Geburtsdatum"]')).toHaveCount(0);
  const settings = { quasi_identifiers: ['PLZ', 'Geburtsdatum'], attributes: { Geburtsdatum: { date_form: 'DD.MM.YYYY' } } };
  const path = testInfo.outputPath('date-form-settings.json');
  writeFileSync(path, JSON.stringify(settings));
  await page.locator('#settings-input').setInputFiles(path);
  await expect(page.locator('#messages')).toContainText('Roles and settings set from date-form-settings.json');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel .card[data-metric="k_anonymity"] .card-value')).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download-json').click()]);
  const report = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { params: { attributes: Record<string, { date_form: string | null }> } };
  expect(report.params.attributes.Geburtsdatum?.date_form).toBe('DD.MM.YYYY');
});
