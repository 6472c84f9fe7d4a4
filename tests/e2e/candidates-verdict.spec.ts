// What a comparison of candidates says when it cannot crown one honestly: no quasi-identifiers
// (no risk measured at all), and every candidate at risk R = 1 (a "best" that protects no one).
// Two of the IPSO releases of the Census table (shared/data/census-ipso) with their original.

import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { openApp } from './helpers.ts';

const ipso = (name: string) => fileURLToPath(new URL(`../../../shared/data/census-ipso/${name}`, import.meta.url));

async function compare(page: Page, roles: Record<string, string>): Promise<void> {
  await openApp(page);
  await page.locator('#candidates-input').setInputFiles([ipso('ipso-01.csv'), ipso('ipso-02.csv')]);
  await expect(page.locator('#compare-note')).toContainText('ipso-01.csv, ipso-02.csv');
  for (const [column, role] of Object.entries(roles)) await page.locator(`select[data-column="${column}"]`).selectOption(role);
  await page.locator('#original-input').setInputFiles(ipso('original.csv'));
  await expect(page.locator('#record-id')).toHaveValue('record_id');
  await page.getByRole('button', { name: 'Compare candidates' }).click();
  await expect(page.locator('#best-candidate')).toBeVisible({ timeout: 60_000 });
}

test('without quasi-identifiers the comparison says no risk was measured and crowns none', async ({ page }) => {
  await compare(page, {});
  const results = page.locator('#results-panel');
  await expect(results.locator('.lead')).toContainText('No column is a quasi-identifier, so no risk was measured');
  await expect(results.locator('.lead')).not.toContainText('Quasi-identifiers: .');
  const best = page.locator('#best-candidate');
  await expect(best).toContainText('No candidate can be chosen without quasi-identifiers.');
  await expect(best).toHaveClass(/none/);
  await expect(results).not.toContainText('no reason given');
  // The utility of each candidate is still there to compare.
  await expect(page.locator('#candidates-table tr[data-metric="utility_u"] td[data-candidate="ipso-01.csv"]')).toHaveAttribute('data-value', /\d/);
});

test('when every candidate has R = 1 none is crowned the best', async ({ page }) => {
  // FICA holds a different value in every record: every record is unique, R = 1.
  await compare(page, { FICA: 'quasi_identifier' });
  for (const name of ['ipso-01.csv', 'ipso-02.csv']) {
    await expect(page.locator(`#candidates-table tr[data-metric="risk_r"] td[data-candidate="${name}"]`)).toHaveAttribute('data-value', '1');
  }
  const best = page.locator('#best-candidate');
  await expect(best).toContainText('No candidate is safe to share: every one has risk R = 1.');
  await expect(best).not.toContainText('Best candidate');
  await expect(best).toHaveClass(/none/);
  await expect(best).toHaveAttribute('data-verdict', 'all-at-full-risk');
  // Nor is it highlighted in the table of measures.
  await expect(page.locator('#candidates-table .chosen')).toHaveCount(0);
});
