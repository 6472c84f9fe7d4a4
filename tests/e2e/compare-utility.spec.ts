// A comparison on utility alone (issue 36): without quasi-identifiers no candidate has a risk,
// so the risk-utility charts have nothing to place and are left out rather than drawn empty;
// the permutation model's UM and CM1-CM3 are rows of the measures table, as in the CLI.

import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { fixture, openApp } from './helpers.ts';

test('a comparison without quasi-identifiers shows UM and CM and no empty chart', async ({ page }) => {
  await openApp(page);
  const release = readFileSync(fixture('census-ipso-01.csv'));
  await page.locator('#candidates-input').setInputFiles([
    { name: 'ipso-a.csv', mimeType: 'text/csv', buffer: release },
    { name: 'ipso-b.csv', mimeType: 'text/csv', buffer: release },
  ]);
  await expect(page.locator('#compare-note')).toContainText('ipso-a.csv, ipso-b.csv');
  await page.locator('#original-input').setInputFiles(fixture('census-ipso-original.csv'));
  await expect(page.locator('#record-id')).toHaveValue('record_id');
  await page.getByRole('button', { name: 'Compare candidates' }).click();
  await expect(page.locator('#best-candidate')).toBeVisible({ timeout: 60_000 });
  const results = page.locator('#results-panel');
  await expect(results.locator('.lead')).toContainText('compared on utility alone');
  for (const id of ['perm_um', 'perm_cm1', 'perm_cm2', 'perm_cm3']) {
    await expect(page.locator(`#candidates-table tr[data-metric="${id}"] td[data-candidate="ipso-a.csv"]`)).toHaveAttribute('data-value', /\d/);
  }
  await expect(results.locator('.candidates-charts')).toHaveCount(0);
  await expect(results.locator('#ru-map-title, #candidates-sweep-title')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('compare-utility.png'), fullPage: true });
});
