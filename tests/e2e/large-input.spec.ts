// Files that are large in the wrong direction: 20,000 columns, and a 2 MB field. The page
// stays responsive and of a readable height: the column table shows a bounded number of rows
// (with a search and a count of the hidden ones), and long values are cut wherever they are
// shown, with their length.

import { expect, test, type Page } from '@playwright/test';
import { openApp } from './helpers.ts';

/** The page's height and its longest text node (a value printed whole would show here). */
async function pageSize(page: Page): Promise<{ height: number; longestText: number }> {
  return page.evaluate(() => {
    let longestText = 0;
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) longestText = Math.max(longestText, n.textContent?.length ?? 0);
    return { height: document.documentElement.scrollHeight, longestText };
  });
}

test('20,000 columns: a bounded column table with a search, and the audit of two of them', async ({ page }) => {
  const columns = 20_000;
  const names = Array.from({ length: columns }, (_, j) => `c${j}`);
  const rows = Array.from({ length: 20 }, (_, i) => names.map((_, j) => String((i * 7 + j) % 6)).join(','));
  const csv = `${names.join(',')}\n${rows.join('\n')}\n`;
  await openApp(page);
  const started = Date.now();
  await page.locator('#file-input').setInputFiles({ name: 'wide.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const profile = page.locator('#profile-panel');
  await expect(profile).toContainText('20 rows, 20,000 columns');
  // Before: 34 s or more of layout for 20,000 rows of selects.
  expect(Date.now() - started, 'profile shown within 15 s').toBeLessThan(15_000);
  await expect(profile.locator('tbody tr')).toHaveCount(100);
  await expect(page.locator('#column-count')).toContainText('Showing 100 of 20,000 columns; 19,900 are hidden');
  expect((await pageSize(page)).height, 'page height').toBeLessThan(30_000);

  // "Show more" adds the next hundred.
  await page.locator('#more-columns').click();
  await expect(profile.locator('tbody tr')).toHaveCount(200);

  // A hidden column is found by name; its role is set there and kept when the search changes.
  await page.locator('#column-search').fill('c19999');
  await expect(profile.locator('tbody tr')).toHaveCount(1);
  await expect(page.locator('#column-count')).toContainText('1 column matches “c19999”');
  await page.locator('select[data-column="c19999"]').selectOption('quasi_identifier');
  await page.locator('#column-search').fill('c5');
  await page.locator('select[data-column="c5"]').selectOption('quasi_identifier');
  await page.locator('#column-search').fill('c1999');
  await expect(page.locator('select[data-column="c19999"]')).toHaveValue('quasi_identifier');
  await page.locator('#column-search').fill('');
  await expect(profile.locator('tbody tr')).toHaveCount(100);

  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel')).toContainText('Quasi-identifiers: c5, c19999.', { timeout: 30_000 });
  await expect(page.locator('#results-panel .card[data-metric="k_anonymity"] .card-value')).toBeVisible();
});

test('a 2 MB field is cut to its start and length wherever it is shown', async ({ page }) => {
  test.setTimeout(120_000);
  const big = (c: string) => c.repeat(2_000_000);
  const lines = ['id,age,sex,notes', `1,30,F,${big('a')}`, `2,30,F,${big('a')}`, `3,40,M,${big('b')}`, '4,40,M,short', '5,40,M,short'];
  const buffer = Buffer.from(`${lines.join('\n')}\n`);
  await openApp(page);
  await page.locator('#file-input').setInputFiles({ name: 'notes.csv', mimeType: 'text/csv', buffer });
  const profile = page.locator('#profile-panel');
  await expect(profile).toContainText('notes.csv');
  const top = profile.locator('tr[data-column="notes"] .top-values');
  await expect(top).toContainText('… (2,000,000 characters) (2)');
  await expect(top).toContainText('short (2)');
  expect((await pageSize(page)).longestText, 'longest text in step 2').toBeLessThan(1_000);

  // As a sensitive column (its distribution in the worst class), then as a quasi-identifier
  // (the riskiest groups): every place that shows the value shows it cut. The release is its
  // own original, so the utility distributions show it too.
  for (const [column, role] of [
    ['age', 'quasi_identifier'],
    ['sex', 'quasi_identifier'],
    ['notes', 'sensitive'],
    ['id', 'insensitive'],
  ]) {
    await page.locator(`select[data-column="${column}"]`).selectOption(role!);
  }
  await page.locator('#original-input').setInputFiles({ name: 'notes-original.csv', mimeType: 'text/csv', buffer });
  await page.getByRole('button', { name: 'Run audit' }).click();
  const results = page.locator('#results-panel');
  await expect(results.locator('.card[data-metric="k_anonymity"] .card-value')).toBeVisible({ timeout: 60_000 });
  await expect(results.locator('.dist-label').first()).toContainText('characters)');
  let size = await pageSize(page);
  expect(size.longestText, 'longest text with notes sensitive').toBeLessThan(1_000);
  expect(size.height, 'page height with notes sensitive').toBeLessThan(60_000);

  await page.locator('select[data-column="notes"]').selectOption('quasi_identifier');
  await expect(page.locator('#results-freshness')).toHaveAttribute('data-state', 'fresh', { timeout: 60_000 });
  await expect(results).toContainText('Quasi-identifiers: age, sex, notes.');
  await expect(results.locator('#drilldown-section, .result-section').filter({ hasText: '(2,000,000 characters)' }).first()).toBeVisible();
  size = await pageSize(page);
  expect(size.longestText, 'longest text with notes a quasi-identifier').toBeLessThan(1_000);
  expect(size.height, 'page height with notes a quasi-identifier').toBeLessThan(60_000);
});
