import { expect, type Page } from '@playwright/test';

/** Opens the page and waits until the worker has loaded the wasm engine. */
export async function openApp(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.locator('html[data-engine="ready"]')).toBeAttached();
}

/** Clicks "Try the sample" and waits for the audit results (the sample audits itself). */
export async function runSample(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Try the sample' }).click();
  await expect(page.locator('#results-panel [data-metric="k_anonymity"] .card-value')).toBeVisible({
    timeout: 30_000,
  });
}

/** The text of a headline card's number. */
export async function cardValue(page: Page, id: string): Promise<string> {
  return (await page.locator(`#results-panel .card[data-metric="${id}"] .card-value`).innerText()).trim();
}

/** Asserts the page does not scroll sideways (tables scroll inside their own boxes). */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'page is wider than the viewport').toBeLessThanOrEqual(0);
}
