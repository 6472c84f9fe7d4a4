// Option case_insensitive on the page: "Compare values case-insensitively" in step 2 makes
// Male, male and MALE one value (spec README Sec 5 step 5), the results follow at once, and the
// setting travels in the settings link.

import { expect, test } from '@playwright/test';
import { cardValue, openApp } from './helpers.ts';

// sex: Male, male, MALE, Female, female. Case-sensitively five classes of 1 (k = 1);
// case-insensitively male x3 and female x2 (k = 2).
const CSV = 'sex,note\nMale,a\nmale,b\nMALE,c\nFemale,d\nfemale,e\n';

test('comparing values case-insensitively merges Male, male and MALE', async ({ page }) => {
  await openApp(page);
  await page.locator('#file-input').setInputFiles({ name: 'case.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await expect(page.locator('#profile-panel')).toContainText('case.csv');
  await page.locator('select[data-column="sex"]').selectOption('quasi_identifier');
  const box = page.locator('#case-insensitive');
  await expect(box).not.toBeChecked();
  await expect(page.getByLabel('Compare values case-insensitively')).toBeVisible();
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel .card[data-metric="k_anonymity"] .card-value')).toHaveText('1', { timeout: 30_000 });

  await box.check();
  await expect(page.locator('#results-panel .card[data-metric="k_anonymity"] .card-value')).toHaveText('2', { timeout: 30_000 });
  expect(await cardValue(page, 'k_anonymity')).toBe('2');
});
