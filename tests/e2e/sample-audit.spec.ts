// The sample audit on the page agrees with the native CLI on the same file and the same
// quasi-identifiers (read back from the downloaded JSON report), and stays legible on a laptop
// screen and at 200 % zoom.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { cardValue, expectNoHorizontalOverflow, openApp, runSample } from './helpers.ts';

const CLI = process.env.PSEUDOLENS_CLI || 'target/release/pseudolens';

interface Metric {
  id: string;
  value: unknown;
  status: string;
}

function metricValue(report: { metrics: Metric[] }, id: string): number {
  const m = report.metrics.find((x) => x.id === id);
  expect(m, `metric ${id}`).toBeDefined();
  expect(m!.status, `status of ${id}`).toBe('ok');
  expect(typeof m!.value, `value of ${id}`).toBe('number');
  return m!.value as number;
}

function cliAudit(csvPath: string, qis: string[]): { metrics: Metric[] } {
  const out = execFileSync(CLI, ['audit', csvPath, '--qi', qis.join(','), '--json'], {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  return JSON.parse(out) as { metrics: Metric[] };
}

test('the sample audit matches the CLI and reads well', async ({ page }, testInfo) => {
  expect(existsSync(CLI), `the CLI ${CLI} must be built first (cargo build --release)`).toBe(true);
  await openApp(page);
  await runSample(page);

  // The full report, generated in the page and saved through the Download JSON button.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON report' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^pseudolens-report-.*\.json$/);
  const report = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
    params: { quasi_identifiers: string[] };
    metrics: Metric[];
  };
  const qis = report.params.quasi_identifiers;
  expect(qis.length).toBeGreaterThan(0);

  // The CLI on the very same sample bytes, with the same quasi-identifiers.
  const csvPath = testInfo.outputPath('sample.csv');
  writeFileSync(csvPath, execFileSync(CLI, ['sample'], { maxBuffer: 256 << 20 }));
  const cli = cliAudit(csvPath, qis);

  const k = metricValue(cli, 'k_anonymity');
  const uniques = metricValue(cli, 'sample_uniques');
  const rInternal = metricValue(cli, 'r_internal');

  // What the page shows…
  expect(await cardValue(page, 'k_anonymity')).toBe(k.toLocaleString('en-US'));
  expect(await cardValue(page, 'sample_uniques')).toBe(uniques.toLocaleString('en-US'));
  expect(await cardValue(page, 'r_internal')).toBe(rInternal.toFixed(4));
  // …and what it saved.
  expect(metricValue(report, 'k_anonymity')).toBe(k);
  expect(metricValue(report, 'sample_uniques')).toBe(uniques);
  expect(metricValue(report, 'r_internal')).toBeCloseTo(rInternal, 12);

  // Every headline number comes with its explanation.
  const cards = page.locator('#results-panel .card');
  await expect(cards).toHaveCount(6);
  for (const text of await cards.locator('.card-explain').allInnerTexts()) expect(text.length).toBeGreaterThan(30);

  // The closed table of every metric is built once the results are drawn, without being
  // opened: the browser's find-in-page searches closed details too.
  await expect(page.locator('#all-metrics tbody tr')).toHaveCount(report.metrics.length);
  await expect(page.locator('#all-metrics')).not.toHaveAttribute('open');

  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: 'test-results/sample-audit.png', fullPage: true });
});

test('at 200 % zoom the results stay on screen', async ({ browser }) => {
  // 1366 x 768 at 200 % = a 683 x 384 CSS-pixel viewport drawn at device scale factor 2.
  const context = await browser.newContext({ viewport: { width: 683, height: 384 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await openApp(page);
  await runSample(page);
  await expect(page.locator('#risk-chart canvas').first()).toBeVisible();
  await expectNoHorizontalOverflow(page);
  // The wide column table scrolls inside its own box, not the page.
  const wrap = page.locator('#profile-panel .table-wrap').first();
  const scrolls = await wrap.evaluate((el) => getComputedStyle(el).overflowX);
  expect(scrolls).toBe('auto');
  await page.screenshot({ path: 'test-results/sample-audit-zoom200.png', fullPage: true });
  await context.close();
});
