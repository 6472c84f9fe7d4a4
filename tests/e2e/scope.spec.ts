// The rows an audit covers (issue 36, item 6): "Drop the row" on a mostly blank
// quasi-identifier audited 11 of 10,000 rows while the account said "10,000 audited", with no
// warning. The results now say how many rows are in scope, beside the account, and warn.

import { expect, test, type Page } from '@playwright/test';
import { openApp } from './helpers.ts';

// 1,000 rows whose zip is blank in 900 (90 %).
const CSV = ['record_no,age,zip', ...Array.from({ length: 1000 }, (_, i) => `${i},${20 + (i % 50)},${i % 10 === 0 ? `75${i % 7}` : ''}`)].join('\n');

async function audit(page: Page, policy: string): Promise<void> {
  await openApp(page);
  await page.locator('#file-input').setInputFiles({ name: 'blank-zip.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  const profile = page.locator('#profile-panel');
  await expect(profile).toContainText('blank-zip.csv');
  for (const select of await profile.locator('select[data-column]').all()) {
    const column = await select.getAttribute('data-column');
    await select.selectOption(column === 'age' || column === 'zip' ? 'quasi_identifier' : 'insensitive');
  }
  await page.getByLabel(policy).check();
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel')).toContainText('Quasi-identifiers: age, zip');
}

test('dropping rows with a blank QI says how many are in scope and warns', async ({ page }) => {
  await audit(page, 'Drop the row');
  const results = page.locator('#results-panel');
  await expect(results.locator('.read-account')).toContainText('1,001 records = 1 header + 1,000 rows + 0 blank + 0 in error');
  const scope = results.locator('.scope-account');
  await expect(scope).toHaveText('Audited: 100 of 1,000 rows in scope (900 left out: 900 with a blank quasi-identifier (“Drop the row”)).');
  const warning = results.locator('.scope-warning[data-code="rows_left_out"]');
  await expect(warning).toContainText('900 of the 1000 rows (90.0 %) were left out of the audit');
  await expect(warning).toContainText('"zip" blank in 900');
  // Said once: beside the rows in scope, not again in the list of warnings.
  await expect(results.locator('[data-code="rows_left_out"]')).toHaveCount(1);
  await page.locator('#results-panel .scope-account').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('scope.png') });
});

test('a mostly blank QI under the ordinary policy is warned of', async ({ page }) => {
  await audit(page, 'Ordinary value');
  const results = page.locator('#results-panel');
  await expect(results.locator('.scope-account')).toHaveText('Audited: 1,000 of 1,000 rows in scope.');
  await expect(results.locator('.scope-warning[data-code="rows_left_out"]')).toHaveCount(0);
  await expect(results.locator('.scope-warning[data-code="qi_mostly_blank"]')).toContainText(
    'The quasi-identifier "zip" is blank in 900 of the 1000 rows (90.0 %)',
  );
});
