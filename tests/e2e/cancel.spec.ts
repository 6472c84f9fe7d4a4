// Cancel really stops the work: the worker is terminated (a running wasm call cannot be
// interrupted), the page says so, and a fresh worker takes the next job.

import { openSync, writeSync, closeSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openApp, runSample } from './helpers.ts';

// About 3 s of work at the ~18 MB/s of the profile pass in headless Chromium here: ample time
// to press Cancel while it runs.
const TARGET_BYTES = 60 * 1000 * 1000;

test('cancel stops a large audit and the sample still runs afterwards', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  // A large file from a repetitive pattern (written to disk: too big to pass as a buffer).
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

  await openApp(page);
  const busy = page.workers().find((w) => /worker-[\w-]+\.js$/.test(w.url()));
  expect(busy, 'the audit worker').toBeDefined();
  const terminated = new Promise<void>((resolve) => busy!.once('close', () => resolve()));

  await page.locator('#file-input').setInputFiles(path);
  const progress = page.locator('#progress-panel');
  await expect(progress).toBeVisible();
  await expect(page.locator('#progress-text')).toContainText('rows');
  await page.getByRole('button', { name: 'Cancel' }).click();
  // The worker doing the work is really gone, not just ignored.
  await terminated;

  await expect(page.locator('#messages')).toContainText('Cancelled');
  await expect(progress).toBeHidden();
  // Nothing of the cancelled file shows up later.
  await page.waitForTimeout(1_000);
  await expect(page.locator('#profile-panel')).toBeHidden();
  await expect(page.locator('#results-panel')).toBeHidden();

  await runSample(page);
  await expect(page.locator('#messages')).not.toContainText('Cancelled');
});
