// The household risk (peer-measures.md Sec 2; issue 39, Deliver 4): a column given the role
// "Household id" in step 2 gives the section "Households" with the CLI's figures for the same
// file (`--household`), and a note on the records without a household id.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { expectNoHorizontalOverflow, openApp } from './helpers.ts';

const CLI = process.env.PSEUDOLENS_CLI || 'target/release/pseudolens';

const FILE = `hid,age,sex,zip
A,30,F,100
A,30,F,100
A,41,M,100
B,41,M,200
B,52,F,200
B,52,F,200
C,30,F,100
C,63,M,300
,63,M,300
`;

interface CliMetric {
  id: string;
  value: number;
  details: { households: number; max_h: number };
}

test('a household id column gives the household risk as the CLI computes it', async ({ page }) => {
  expect(existsSync(CLI), `the CLI ${CLI} must be built first (cargo build --release)`).toBe(true);
  const dir = mkdtempSync(join(tmpdir(), 'household-'));
  writeFileSync(join(dir, 'h.csv'), FILE);
  const report = JSON.parse(execFileSync(CLI, ['audit', join(dir, 'h.csv'), '--qi', 'age,sex,zip', '--household', 'hid', '--json'], { encoding: 'utf8' })) as {
    metrics: CliMetric[];
  };
  const er = report.metrics.find((m) => m.id === 'household_risk_er')!;
  const share = report.metrics.find((m) => m.id === 'household_risk')!;

  await page.setViewportSize({ width: 390, height: 900 });
  await openApp(page);
  await page.locator('#file-input').setInputFiles({ name: 'households.csv', mimeType: 'text/csv', buffer: Buffer.from(FILE) });
  await expect(page.locator('#profile-panel')).toContainText('households.csv');
  for (const c of ['age', 'sex', 'zip']) await page.locator(`select[data-column="${c}"]`).selectOption('quasi_identifier');
  await page.locator('select[data-column="hid"]').selectOption('household_id');
  await page.getByRole('button', { name: 'Run audit' }).click();
  const section = page.locator('#household-section');
  await expect(section).toBeVisible({ timeout: 30_000 });
  const value = (i: number) => section.locator('.fact .fact-value').nth(i);
  await expect(value(0)).toHaveText(er.value.toLocaleString('en-US', { maximumFractionDigits: 4, minimumFractionDigits: 4 }));
  await expect(value(1)).toHaveText(`${(share.value * 100).toFixed(2)}%`);
  await expect(value(2)).toHaveText(String(er.details.households));
  await expect(value(3)).toHaveText(er.details.max_h.toFixed(4));
  await expect(section).toContainText('1 record has no household id: it adds nothing');
  await expectNoHorizontalOverflow(page);
});

test('without a household id column the section is not shown', async ({ page }) => {
  await openApp(page);
  await page.locator('#file-input').setInputFiles({ name: 'households.csv', mimeType: 'text/csv', buffer: Buffer.from(FILE) });
  await expect(page.locator('#profile-panel')).toContainText('households.csv');
  for (const c of ['age', 'sex', 'zip']) await page.locator(`select[data-column="${c}"]`).selectOption('quasi_identifier');
  await page.locator('select[data-column="hid"]').selectOption('insensitive');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-title')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('#household-section')).toHaveCount(0);
});
