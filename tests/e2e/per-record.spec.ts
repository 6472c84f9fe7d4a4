// Per-record risks on the page (spec README Sec 10; identity-risk.md Sec 4): after an audit,
// "Download per-record risks (CSV)" saves each record's group size and risk, from the table the
// worker keeps, or, when the file was not kept (UTF-16 is streamed), by a second read of the
// file, and the page says which.

import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { openApp, openSection } from './helpers.ts';

// a = 1, 1, 2, 3: groups of 2, 2, 1 and 1 records; risks 1/2, 1/2, 1, 1.
const TEXT = 'a,b\n1,x\n1,y\n2,y\n3,y\n';
const WANT = 'row,class_size,f,record_risk\n1,2,2,0.5\n2,2,2,0.5\n3,1,1,1\n4,1,1,1\n';

async function audit(page: Page, buffer: Buffer, inReport = false): Promise<void> {
  await openApp(page);
  await page.locator('#file-input').setInputFiles({ name: 'records.csv', mimeType: 'text/csv', buffer });
  const profile = page.locator('#profile-panel');
  await profile.locator('select[data-column="a"]').selectOption('quasi_identifier');
  await profile.locator('select[data-column="b"]').selectOption('insensitive');
  if (inReport) {
    const box = page.locator('#per-record');
    await box.focus();
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
  }
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel [data-metric="k_anonymity"] .card-value')).toBeVisible({ timeout: 30_000 });
}

async function auditAndDownload(page: Page, buffer: Buffer): Promise<string> {
  await audit(page, buffer);
  await openSection(page, 'top-title');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download per-record risks (CSV)' }).click()]);
  expect(download.suggestedFilename()).toBe('pseudolens-per-record-records.csv');
  await expect(page.locator('#per-record-status')).toHaveAttribute('data-kind', 'done');
  await expect(page.locator('#per-record-status')).toContainText('Saved the risks of 4 records');
  return readFileSync((await download.path())!, 'utf8');
}

test('per-record risks come from the kept table', async ({ page }) => {
  expect(await auditAndDownload(page, Buffer.from(TEXT))).toBe(WANT);
  await expect(page.locator('#per-record-status')).toContainText('from the table kept in memory');
  await expect(page.locator('#results-freshness')).toHaveAttribute('data-kept', 'true');
});

test('a file not kept is read a second time for the per-record risks, as the page says', async ({ page }) => {
  expect(await auditAndDownload(page, Buffer.from(`\ufeff${TEXT}`, 'utf16le'))).toBe(WANT);
  await expect(page.locator('#per-record-status')).toContainText('by reading the file a second time');
  await expect(page.locator('#messages .message-error')).toHaveCount(0);
});

test('the setting per_record puts each record’s risk in the JSON report, marked record-level', async ({ page }) => {
  await audit(page, Buffer.from(TEXT), true);
  await expect(page.locator('#warnings-section li[data-code="record_level_values"]')).toHaveCount(1);
  const [json] = await Promise.all([page.waitForEvent('download'), page.locator('#download-json').click()]);
  const report = JSON.parse(readFileSync((await json.path())!, 'utf8')) as {
    params: { per_record: boolean };
    metrics: { id: string; details: { per_record?: Record<string, number> } }[];
  };
  expect(report.params.per_record).toBe(true);
  expect(report.metrics.find((m) => m.id === 'record_risk')!.details.per_record).toEqual({ '1': 0.5, '2': 0.5, '3': 1, '4': 1 });
});
