// Finding one's way in the results (issue 13, Deliver 5): a summary bar with the verdict, k,
// unique records, records at risk and U that stays in view while scrolling; a table of
// contents whose links move the focus to their section (opening it); the long sections folded
// with their headline figure showing; all of it with the keyboard alone, at 390 px wide, and
// printed (every section unfolded, no bar, no contents). A section the reader opened stays
// open when a change of settings draws the results again. The saved HTML report keeps the
// contents, unfolded, and prints without the bar.

import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { auditIpso, cardValue, expectNoHorizontalOverflow, openApp, openG3, runSample } from './helpers.ts';

const bar = (page: Page) => page.locator('#results-summary');
const toc = (page: Page) => page.locator('#results-toc');

/** The bar's box against the window: it must sit at the top, fully in view. */
async function barInView(page: Page): Promise<{ top: number; bottom: number }> {
  return bar(page).evaluate((b) => {
    const r = b.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom };
  });
}

test('the results open with a summary bar that stays in view, a table of contents and folded long sections', async ({ page }) => {
  await openApp(page);
  await runSample(page);

  // The bar: the verdict and the four figures, the same as the cards below.
  await expect(bar(page).locator('.summary-verdict')).toHaveText('Verdict: Red');
  await expect(bar(page).locator('[data-metric="k_anonymity"] strong')).toHaveText(await cardValue(page, 'k_anonymity'));
  await expect(bar(page).locator('[data-metric="sample_uniques"] strong')).toHaveText(await cardValue(page, 'sample_uniques'));
  await expect(bar(page).locator('[data-metric="prosecutor_records_at_risk"] strong')).toHaveText(await cardValue(page, 'prosecutor_records_at_risk'));
  // No original table, so no utility U.
  await expect(bar(page).locator('[data-metric="utility_u"]')).toHaveCount(0);

  // Long sections are folded, their headline figure in view; the page is far shorter.
  const attribute = page.locator('#attribute-section');
  await expect(attribute.locator('details.section-fold')).not.toHaveAttribute('open');
  await expect(attribute.locator('.section-headline')).toHaveText('Worst l 1, t 0.9890 (diagnosis)');
  await expect(attribute.locator('tr[data-metric="l_distinct"]')).toBeHidden();
  await expect(page.locator('#scorr-verdict .section-headline')).toHaveText('Not approved');
  await expect(page.locator('#verdict')).toBeVisible();
  await expect(page.locator('.card[data-metric="k_anonymity"]')).toBeVisible();
  // The results alone (step 2's settings above them grow with every measure's options): about
  // 2,400 px folded.
  expect(await page.evaluate(() => document.querySelector<HTMLElement>('#results-panel')!.scrollHeight)).toBeLessThan(3500);

  // Scrolled to the end, the bar is still at the top of the window.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const box = await barInView(page);
  expect(box.top).toBeGreaterThanOrEqual(0);
  expect(box.top).toBeLessThan(2);
  await page.screenshot({ path: 'test-results/navigation-scrolled-1366.png' });

  // The contents name every section; a link opens its section and moves the focus there,
  // below the bar, without touching the address (its fragment is for the settings).
  await expect(toc(page).locator('li')).toContainText(['Red: Fails the ARX risk thresholds', 'Attribute disclosure', 'SCORR verdict', 'All 131 metrics']);
  const url = page.url();
  await bar(page).getByRole('link', { name: 'Contents' }).click();
  await expect(toc(page)).toBeFocused();
  await toc(page).getByRole('link', { name: 'Attribute disclosure' }).click();
  await expect(attribute.locator('details.section-fold')).toHaveAttribute('open');
  await expect(attribute.locator('.section-summary')).toBeFocused();
  await expect(attribute.locator('tr[data-metric="l_distinct"]')).toBeVisible();
  const summaryTop = await attribute.locator('.section-summary').evaluate((s) => s.getBoundingClientRect().top);
  expect(summaryTop, 'the section starts below the bar').toBeGreaterThanOrEqual((await barInView(page)).bottom);
  expect(page.url()).toBe(url);
  await page.screenshot({ path: 'test-results/navigation-attribute-1366.png' });
});

test('the contents and the folded sections work with the keyboard alone', async ({ page }) => {
  await openApp(page);
  await runSample(page);
  // Tab from the last control above the results (the folded "Share these settings"): the
  // bar's link, then the contents' first links.
  await page.locator('summary', { hasText: 'Share these settings' }).focus();
  await page.keyboard.press('Tab');
  await expect(bar(page).getByRole('link', { name: 'Contents' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(toc(page).getByRole('link').first()).toBeFocused();
  // Tab on to "SCORR verdict" and follow it with Enter.
  const links = await toc(page).getByRole('link').allTextContents();
  for (let i = 0; i < links.indexOf('SCORR verdict'); i++) await page.keyboard.press('Tab');
  await expect(toc(page).getByRole('link', { name: 'SCORR verdict' })).toBeFocused();
  await page.keyboard.press('Enter');
  const fold = page.locator('#scorr-verdict details.section-fold');
  await expect(fold).toHaveAttribute('open');
  await expect(fold.locator('.section-summary')).toBeFocused();
  // The summary line folds and unfolds with Enter and Space.
  await page.keyboard.press('Enter');
  await expect(fold).not.toHaveAttribute('open');
  await page.keyboard.press(' ');
  await expect(fold).toHaveAttribute('open');
  // The next Tab goes into the section, not past it.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('#scorr-verdict'))).toBe(true);
});

test('a section the reader opened stays open when a change of settings draws the results again', async ({ page }) => {
  await openApp(page);
  await runSample(page);
  await page.locator('#attribute-section .section-summary').click();
  await expect(page.locator('#attribute-section details.section-fold')).toHaveAttribute('open');
  const freshness = page.locator('#results-freshness');
  await page.getByLabel('Risk threshold τ').fill('0.3');
  await expect(freshness).toHaveAttribute('data-state', 'fresh', { timeout: 30_000 });
  await expect(page.locator('#results-panel .lead')).toContainText('Threshold τ = 0.3');
  await expect(page.locator('#attribute-section details.section-fold')).toHaveAttribute('open');
  await expect(page.locator('#scorr-verdict details.section-fold')).not.toHaveAttribute('open');
});

test('at 390 px the bar and the contents fit, and printed every section is unfolded without them', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await openG3(page);
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(bar(page)).toBeVisible({ timeout: 30_000 });
  // With an original table the bar shows utility U too.
  await expect(bar(page).locator('[data-metric="utility_u"] strong')).toHaveText(/^0\.\d{4}$/);
  await expect(page.locator('#utility-section .section-headline')).toContainText('U 0.');
  await expectNoHorizontalOverflow(page);
  const height = await bar(page).evaluate((b) => b.getBoundingClientRect().height);
  expect(height, 'the bar takes little of a phone screen').toBeLessThan(100);
  await toc(page)
    .getByRole('link', { name: /^Utility/ })
    .click();
  await expect(page.locator('#utility-section .section-summary')).toBeFocused();
  const top = await page.locator('#utility-section .section-summary').evaluate((s) => s.getBoundingClientRect().top);
  expect(top).toBeGreaterThanOrEqual((await barInView(page)).bottom);
  expect((await barInView(page)).top).toBeLessThan(2);
  await page.screenshot({ path: 'test-results/navigation-390.png' });

  await page.setViewportSize({ width: 1366, height: 768 });
  await page.emulateMedia({ media: 'print' });
  await expect(bar(page)).toBeHidden();
  await expect(toc(page)).toBeHidden();
  // Folded sections print in full, the folded "more" lists too.
  await expect(page.locator('#attribute-section tr[data-metric="l_distinct"]')).toBeVisible();
  await expect(page.locator('#scorr-verdict details.section-fold')).not.toHaveAttribute('open');
  await expect(page.locator('#scorr-verdict .scorr-decision')).toBeVisible();
  for (const table of await page.locator('#results-panel details .table-wrap').all()) await expect(table).toBeVisible();
  await page.locator('#results-panel').screenshot({ path: 'test-results/navigation-print.png' });
});

test('the saved HTML report keeps the contents with every link leading somewhere, and prints without the bar', async ({ page, browser }) => {
  await openApp(page);
  await runSample(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download HTML report' }).click()]);
  const path = resolve('test-results/navigation-report.html');
  writeFileSync(path, readFileSync((await download.path())!, 'utf8'));
  const report = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await report.goto(pathToFileURL(path).href);

  // Unfolded, and every entry of the contents has its section in the file (no script needed).
  await expect(report.locator('#report-results details.section-fold:not([open])')).toHaveCount(0);
  const targets = await report.locator('#results-toc a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
  expect(targets.length).toBeGreaterThan(10);
  for (const href of targets) expect(await report.locator(href).count(), `the target of ${href}`).toBe(1);
  await report.locator('#results-toc').getByRole('link', { name: 'Attribute disclosure' }).click();
  await expect(report.locator('#attribute-title')).toBeInViewport();
  // Charts of folded sections are laid out at their width all the same.
  expect(await report.locator('#uniqueness-curve img.chart-image').evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(500);

  await report.emulateMedia({ media: 'print' });
  await expect(report.locator('#results-summary')).toBeHidden();
  await expect(report.locator('#results-toc')).toBeHidden();
  await report.close();
});

test('utility alone (no quasi-identifier) is the one long section: shown open, U in the bar', async ({ page }) => {
  await auditIpso(page);
  await expect(page.locator('#utility-summary')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('#utility-section details.section-fold')).toHaveCount(0);
  await expect(bar(page).locator('[data-metric="utility_u"] strong')).toHaveText(
    await page.locator('#utility-summary .card[data-metric="utility_u"] .card-value').innerText(),
  );
  await expect(bar(page).locator('.summary-verdict')).toHaveCount(0);
  await expect(toc(page).locator('li')).toContainText(['Utility: the release against the original table']);
});
