// Defects a first-time user met with ordinary but unusual files: a header-only file, blank
// quasi-identifiers, two files dropped at once, "1 rows", a share rounded to 0.00 %, and a page
// that showed more warnings than its JSON report.

import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { openApp, runSample } from './helpers.ts';

async function choose(page: Page, name: string, text: string): Promise<void> {
  await page.locator('#file-input').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
  await expect(page.locator('#profile-panel')).toContainText(name);
}

async function roles(page: Page, qis: string[]): Promise<void> {
  for (const select of await page.locator('#profile-panel select[data-column]').all()) {
    const column = (await select.getAttribute('data-column'))!;
    await select.selectOption(qis.includes(column) ? 'quasi_identifier' : 'insensitive');
  }
}

test('a header-only file is said to have no records, once', async ({ page }) => {
  await openApp(page);
  await choose(page, 'empty.csv', 'age,sex,zip,diagnosis\n');
  await expect(page.locator('#no-records-note')).toContainText('empty.csv has no records');
  await roles(page, ['age', 'sex']);
  await page.getByRole('button', { name: 'Run audit' }).click();
  const results = page.locator('#results-panel');
  await expect(results.locator('#no-records')).toContainText('empty.csv has no records: it holds only its header row');
  // Before: every measure said "Not available" (7,500 px of it).
  await expect(results.locator('.card, .verdict, .result-section:has(h3:text("Population uniqueness"))')).toHaveCount(0);
  expect((await results.boundingBox())!.height).toBeLessThan(1_500);
});

test('every quasi-identifier blank: no verdict, and the warnings above the cards', async ({ page }) => {
  await openApp(page);
  const rows = Array.from({ length: 30 }, (_, i) => `${i + 1},,,${['flu', 'cold', 'asthma'][i % 3]}`);
  await choose(page, 'blank-qis.csv', `id,age,sex,diagnosis\n${rows.join('\n')}\n`);
  await roles(page, ['age', 'sex']);
  await page.getByRole('button', { name: 'Run audit' }).click();
  const verdict = page.locator('#verdict');
  await expect(verdict).toHaveAttribute('data-light', 'none');
  await expect(verdict).toContainText('Not assessable: every quasi-identifier is blank');
  await expect(verdict).not.toContainText('Green');
  await expect(page.locator('#scorr-badge')).toContainText('Not assessable');
  const warning = page.locator('#warnings-section li[data-code="quasi_identifiers_all_blank"]');
  await expect(warning).toContainText('Every quasi-identifier (age, sex) is blank in every audited record');
  // The warnings come before the headline cards.
  const before = await page.evaluate(() => {
    const w = document.getElementById('warnings-section')!;
    const cards = document.querySelector('#results-panel .cards')!;
    return !!(w.compareDocumentPosition(cards) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  expect(before, 'warnings above the cards').toBe(true);
});

test('two files dropped at once are refused with a message, and fresh results clear it', async ({ page }) => {
  await openApp(page);
  await runSample(page);
  const transfer = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['a,b\n1,2\n'], 'first.csv', { type: 'text/csv' }));
    dt.items.add(new File(['a,b\n3,4\n'], 'second.csv', { type: 'text/csv' }));
    return dt;
  });
  await page.dispatchEvent('#drop-zone', 'drop', { dataTransfer: transfer });
  const message = page.locator('#messages .message-error');
  await expect(message).toContainText('2 files were dropped; drop one file at a time.');
  await expect(message).toContainText('first.csv, second.csv');
  // Nothing of either was read: the sample is still the file of step 2.
  await expect(page.locator('#profile-panel')).toContainText('Sample');
  // A change of settings recomputes the results: the old error goes with the old results.
  await page.getByLabel('Risk threshold τ').fill('0.3');
  await expect(page.locator('#results-freshness')).toHaveAttribute('data-state', 'fresh');
  await expect(page.locator('.card[data-metric="prosecutor_records_at_risk"]')).toContainText('τ = 0.3');
  await expect(message).toHaveCount(0);
});

test('one row is "1 row", and one record singled out of 100,000 is not "0.00%"', async ({ page }) => {
  await openApp(page);
  await choose(page, 'one.csv', 'age,sex\n30,F\n');
  await expect(page.locator('#profile-panel .lead')).toContainText('one.csv: 1 row, 2 columns');

  // 100,000 records in 4 groups of age x sex, and one record of its own.
  const rows = Array.from({ length: 99_999 }, (_, i) => `${30 + (i % 2)},${i % 4 < 2 ? 'F' : 'M'}`);
  await choose(page, 'big.csv', `age,sex\n${rows.join('\n')}\n99,X\n`);
  await roles(page, ['age', 'sex']);
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel .card[data-metric="k_anonymity"] .card-value')).toHaveText('1', { timeout: 30_000 });
  const singling = page.locator('#singling-out');
  await expect(singling).toContainText('singles out 1 record (< 0.01% of the file)');
  await expect(singling).not.toContainText('0.00%');
  await expect(page.locator('.card[data-metric="sample_uniques"] .card-sub')).toHaveText('< 0.01% of audited records');
});

test('the page shows the warnings of the JSON report, all of them', async ({ page }) => {
  await openApp(page);
  await runSample(page);
  const shown = await page.locator('#warnings-section li[data-code]').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-code')));
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download-json').click()]);
  const report = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { warnings: { code: string }[]; metrics: { warnings: string[] }[] };
  expect(shown).toEqual(report.warnings.map((w) => w.code));
  // Every warning a metric carries is in the report's list.
  for (const code of new Set(report.metrics.flatMap((m) => m.warnings))) expect(shown).toContain(code);
  expect(shown.length).toBeGreaterThanOrEqual(3);
});
