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
