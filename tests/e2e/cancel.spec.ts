// Cancel really stops the work: the worker is terminated (a running wasm call cannot be
// interrupted), the page says so, and a fresh worker takes the next job. The worker that takes
// over was started with the page, so a cancel needs no fetch: it works offline too.

import { openSync, writeSync, closeSync } from 'node:fs';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { openApp, runSample } from './helpers.ts';

// About 3 s of work at the ~18 MB/s of the profile pass in headless Chromium here: ample time
// to press Cancel while it runs.
const TARGET_BYTES = 60 * 1000 * 1000;

/** A large file from a repetitive pattern (written to disk: too big to pass as a buffer). */
function largeFile(testInfo: TestInfo): string {
  const path = testInfo.outputPath('large.csv');
  const fd = openSync(path, 'w');
  writeSync(fd, 'patient,age,sex,postcode,admitted,ward\n');
  const block: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    block.push(`P${i},${20 + (i % 70)},${i % 2 ? 'F' : 'M'},75${String(i % 100).padStart(2, '0')},2023-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')},W${i % 9}\n`);
  }
  const chunk = Buffer.from(block.join(''));
  for (let written = 0; written < TARGET_BYTES; written += chunk.length) writeSync(fd, chunk);
  closeSync(fd);
  return path;
}

/** Chooses `path`, waits until rows are being read, and presses Cancel. */
async function cancelWhileReading(page: Page, path: string): Promise<void> {
  await page.locator('#file-input').setInputFiles(path);
  await expect(page.locator('#progress-panel')).toBeVisible();
  await expect(page.locator('#progress-text')).toContainText('rows');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('#messages')).toContainText('Cancelled');
  await expect(page.locator('#progress-panel')).toBeHidden();
}

test('cancel stops a large audit and the sample still runs afterwards', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const path = largeFile(testInfo);
  await openApp(page);
  const busy = page.workers().find((w) => /worker-[\w-]+\.js$/.test(w.url()));
  expect(busy, 'the audit worker').toBeDefined();
  const terminated = new Promise<void>((resolve) => busy!.once('close', () => resolve()));

  await cancelWhileReading(page, path);
  // The worker doing the work is really gone, not just ignored.
  await terminated;

  // Nothing of the cancelled file shows up later.
  await page.waitForTimeout(1_000);
  await expect(page.locator('#profile-panel')).toBeHidden();
  await expect(page.locator('#results-panel')).toBeHidden();

  await runSample(page);
  await expect(page.locator('#messages')).not.toContainText('Cancelled');
});

test('cancel offline needs no fetch: the standby worker takes over and audits', async ({ page, context }, testInfo) => {
  test.setTimeout(90_000);
  const path = largeFile(testInfo);
  await openApp(page);
  // The standby worker has its script and its wasm: from here on nothing can be fetched.
  await expect(page.locator('html[data-standby="ready"]')).toBeAttached();
  await context.setOffline(true);

  await cancelWhileReading(page, path);
  await runSample(page);
  await expect(page.locator('#messages')).not.toContainText('Cancelled');
});

test('a second cancel offline, with no offline copy, says so instead of hanging', async ({ page, context }, testInfo) => {
  test.setTimeout(120_000);
  const path = largeFile(testInfo);
  await openApp(page);
  await expect(page.locator('html[data-standby="ready"]')).toBeAttached();
  await context.setOffline(true);

  await cancelWhileReading(page, path);
  // The next standby could not be fetched offline (no service worker in this test).
  await expect(page.locator('html[data-standby="failed"]')).toBeAttached();
  await cancelWhileReading(page, path);

  await page.getByRole('button', { name: 'Try the sample' }).click();
  await expect(page.locator('#messages')).toContainText('could not be started');
  await expect(page.locator('#messages')).toContainText('offline');
  await expect(page.locator('#progress-panel')).toBeHidden();
});
