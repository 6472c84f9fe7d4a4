// Files the audit cannot read get a clear message that says where the problem is.

import { expect, test } from '@playwright/test';
import { openApp } from './helpers.ts';

test('a ragged row is reported with its line number', async ({ page }) => {
  await openApp(page);
  const csv = 'age,sex,postcode\n34,F,7501\n51,M\n29,F,7502\n';
  await page.locator('#file-input').setInputFiles({ name: 'ragged.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const error = page.locator('#messages .message-error');
  await expect(error).toBeVisible();
  await expect(error.locator('.message-title')).toContainText(/line 3\b/);
  await expect(error).toContainText('ragged_row');
  await expect(page.locator('#profile-panel')).toBeHidden();
});

test('an empty file gets a clear message', async ({ page }) => {
  await openApp(page);
  await page.locator('#file-input').setInputFiles({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) });
  const error = page.locator('#messages .message-error');
  await expect(error).toBeVisible();
  await expect(error.locator('.message-title')).toHaveText('The file is empty.');
  await expect(page.locator('#progress-panel')).toBeHidden();
});

test('a Windows-1252 file is read with its accents intact', async ({ page }) => {
  await openApp(page);
  // "José, München / Anna, Köln" in Windows-1252: not valid UTF-8.
  const bytes = Buffer.from('name,city\nJos\xe9,M\xfcnchen\nAnna,K\xf6ln\nJos\xe9,M\xfcnchen\n', 'latin1');
  await page.locator('#file-input').setInputFiles({ name: 'latin1.csv', mimeType: 'text/csv', buffer: bytes });
  const profile = page.locator('#profile-panel');
  await expect(profile).toBeVisible();
  await expect(profile).toContainText('München');
  await expect(profile).toContainText('windows-1252');
  await expect(page.locator('#messages .message-error')).toHaveCount(0);
});

test('a file that turns out not to be UTF-8 late is read again as Windows-1252', async ({ page }) => {
  await openApp(page);
  // 3 MB of plain ASCII (detected as UTF-8 from its start), then one Windows-1252 row.
  const head = `name,city\n${'Anna,Koeln\n'.repeat(280_000)}`;
  const bytes = Buffer.concat([Buffer.from(head), Buffer.from('Jos\xe9,M\xfcnchen\n', 'latin1')]);
  await page.locator('#file-input').setInputFiles({ name: 'late-latin1.csv', mimeType: 'text/csv', buffer: bytes });
  const note = page.locator('#messages .message-note');
  await expect(note).toContainText('reading it again as Windows-1252');
  const profile = page.locator('#profile-panel');
  await expect(profile).toContainText('windows-1252');
  await expect(profile).toContainText('München');

  // The audit pass starts as windows-1252 right away: the note is not repeated.
  await profile.locator('select[data-column="city"]').selectOption('quasi_identifier');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel .card[data-metric="k_anonymity"] .card-value')).toHaveText('1');
  await expect(page.locator('#messages .message-note')).toHaveCount(0);
  await expect(page.locator('#messages .message-error')).toHaveCount(0);
});
