// Installable and offline (issue 13): once loaded, the service worker keeps every file of the
// deployment, so the page reloads with no network, audits, and cancels (a new standby worker
// comes from the cache). A new deployment's service worker deletes the old caches. The config
// blocks service workers for every other spec; these allow them.

import { expect, test } from '@playwright/test';
import { cancelWhileReading, fixture, largeCsv, openApp, runSample } from './helpers.ts';

test.use({ serviceWorkers: 'allow' });

/** Waits until the service worker controls the page (it has cached every file by then). */
async function controlled(page: import('@playwright/test').Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
}

test('loaded once, the page reloads offline, audits the sample and cancels with no network', async ({ page, context, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL!).origin;
  const foreign: string[] = [];
  context.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin) foreign.push(url);
  });
  const path = largeCsv(testInfo);

  await openApp(page);
  await controlled(page);
  // Chromium's own check that the page can be installed (manifest, icons, service worker);
  // a test's browser context is incognito, which alone forbids installing.
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);

  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('html[data-engine="ready"]')).toBeAttached();
  await runSample(page);
  // The Parquet and Excel readers, fetched only when such a file is chosen, come from the cache.
  await page.locator('#file-input').setInputFiles(fixture('formats.parquet'));
  await expect(page.locator('#profile-panel p.lead')).toContainText('50 rows, 6 columns, read from a Parquet file');

  // Cancel twice: the standby takes over, and the next standby comes from the cache.
  await expect(page.locator('html[data-standby="ready"]')).toBeAttached();
  await cancelWhileReading(page, path);
  await expect(page.locator('html[data-standby="ready"]')).toBeAttached();
  await cancelWhileReading(page, path);
  await runSample(page);
  await expect(page.locator('#messages')).not.toContainText('Cancelled');

  expect(foreign, 'requests to other origins').toEqual([]);
});

test("a new deployment's service worker deletes the old caches, and only its own", async ({ page }) => {
  // A page of the origin that registers nothing, to leave caches as an older deployment would.
  await page.goto('/manifest.webmanifest');
  await page.evaluate(() => Promise.all([caches.open('pseudolens-0ld0ld0ld0ld0ld0'), caches.open('another-app')]));

  await openApp(page);
  await controlled(page);
  const names = await page.evaluate(() => caches.keys());
  expect(names).toContain('another-app');
  const ours = names.filter((n) => n.startsWith('pseudolens-'));
  expect(ours).toHaveLength(1);
  expect(ours[0]).not.toBe('pseudolens-0ld0ld0ld0ld0ld0');
  // The cache holds the page itself, the first and the full engine, and the Parquet and Excel readers.
  const kept = await page.evaluate(
    (name) =>
      caches
        .open(name)
        .then((c) => c.keys())
        .then((rs) => rs.map((r) => new URL(r.url).pathname)),
    ours[0]!,
  );
  expect(kept).toContain('/');
  expect(kept.filter((p) => /\/pseudolens_wasm_bg-[\w-]+\.wasm$/.test(p))).toHaveLength(1);
  expect(kept.filter((p) => /\/pseudolens_readers_bg-[\w-]+\.wasm$/.test(p))).toHaveLength(1);
  expect(kept.filter((p) => /\/pseudolens_full_bg-[\w-]+\.wasm$/.test(p))).toHaveLength(1);
  expect(kept.filter((p) => /worker-[\w-]+\.js$/.test(p))).toHaveLength(2);
});
