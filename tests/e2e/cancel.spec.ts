// Cancel really stops the work: the worker is terminated (a running wasm call cannot be
// interrupted), the page says so, and a fresh worker takes the next job. The worker that takes
// over was started with the page, so a cancel needs no fetch: it works offline too.

import { expect, test, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import { cancelWhileReading, largeCsv, openApp, runSample, workerNamed } from './helpers.ts';

/**
 * Opens the page, goes offline once its standby worker is ready, and cancels a large read: the
 * standby takes over, and the next standby cannot be fetched offline (no service worker in
 * these tests). Returns the large file.
 */
async function cancelOffline(page: Page, context: BrowserContext, testInfo: TestInfo): Promise<string> {
  const path = largeCsv(testInfo);
  await openApp(page);
  await expect(page.locator('html[data-standby="ready"]')).toBeAttached();
  await context.setOffline(true);
  await cancelWhileReading(page, path);
  await expect(page.locator('html[data-standby="failed"]')).toBeAttached();
  return path;
}

test('cancel stops a large audit and the sample still runs afterwards', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const path = largeCsv(testInfo);
  await openApp(page);
  // The audit worker started first, not its standby or a reader.
  const busy = await workerNamed(page, 'pseudolens-audit');
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
  const path = largeCsv(testInfo);
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
  const path = await cancelOffline(page, context, testInfo);
  await cancelWhileReading(page, path);

  await page.getByRole('button', { name: 'Try the sample' }).click();
  await expect(page.locator('#messages')).toContainText('could not be started');
  await expect(page.locator('#messages')).toContainText('offline');
  await expect(page.locator('#progress-panel')).toBeHidden();
});

test('back online, a standby that could not start offline is started again', async ({ page, context }, testInfo) => {
  test.setTimeout(120_000);
  const path = await cancelOffline(page, context, testInfo);

  await context.setOffline(false);
  await expect(page.locator('html[data-standby="ready"]')).toBeAttached();
  await context.setOffline(true);
  await cancelWhileReading(page, path);
  await runSample(page);
});
