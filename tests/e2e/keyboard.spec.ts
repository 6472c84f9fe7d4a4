// Step 2 with the keyboard alone: moving the focus through every field never changes a
// setting. The configuration the page sends to the worker is recorded and compared with the one
// of a plain click on "Run audit".

import { expect, test, type Page } from '@playwright/test';
import { coreFixture, openApp } from './helpers.ts';

/** Records the configuration of every audit request the page posts to its worker. */
async function recordAudits(page: Page): Promise<() => Promise<unknown[]>> {
  await page.addInitScript(() => {
    const sent: unknown[] = [];
    (window as unknown as { __audits: unknown[] }).__audits = sent;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
      const m = message as { type?: string; pass?: string; config?: unknown };
      if (m && m.type === 'run' && m.pass === 'audit') sent.push(JSON.parse(JSON.stringify(m.config)));
      return (post as (...a: unknown[]) => void).call(this, message, ...rest);
    } as typeof Worker.prototype.postMessage;
  });
  return () => page.evaluate(() => (window as unknown as { __audits: unknown[] }).__audits);
}

async function openFile(page: Page): Promise<void> {
  await openApp(page);
  await page.locator('#file-input').setInputFiles(coreFixture('g3_released.csv'));
  await expect(page.locator('#run-audit')).toBeVisible();
}

test('tabbing through the whole of step 2 changes no setting', async ({ page }) => {
  const audits = await recordAudits(page);

  // The configuration of a plain run, nothing touched.
  await openFile(page);
  await page.locator('#run-audit').click();
  await expect.poll(async () => (await audits()).length).toBe(1);
  const [untouched] = await audits();

  // The same file again; this time every field of step 2 gets the focus before the run.
  await openFile(page);
  await page.locator('#profile-title').evaluate((h) => {
    h.setAttribute('tabindex', '-1');
    h.focus();
  });
  const visited = new Set<string>();
  for (let i = 0; i < 500; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null;
      return a ? a.id || `${a.tagName.toLowerCase()}[name=${a.getAttribute('name') ?? ''}]` : '';
    });
    visited.add(id);
    if (id === 'run-audit') break;
  }
  // The focus did pass the boxes whose focus used to select a radio button.
  for (const id of ['population-size', 'sampling-fraction', 'population-region', 'risk-weight-internal', 'run-audit']) expect(visited, id).toContain(id);
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await audits()).length).toBe(1);
  const [tabbed] = await audits();
  expect(tabbed).toEqual(untouched);
  expect(tabbed).toMatchObject({ population_size: null, sampling_fraction: null, population_region: null, risk_combination: 'max' });
  await expect(page.locator('input[name="population-kind"]:checked')).toHaveValue('none');
  await expect(page.locator('input[name="risk-combination"]:checked')).toHaveValue('max');
});
