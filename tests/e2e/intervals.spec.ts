// Confidence intervals on the page (issue 15, Deliver 1; docs/ci.md): the population-uniqueness
// estimates show their range under the value and as error bars / ranges on the curve, the
// weighted risk and R_external theirs; the level is a setting of the form and changes them.

import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { coreFixture, expectNoHorizontalOverflow, openApp, openSection } from './helpers.ts';

const G1_ROLES: Record<string, string> = { age: 'quasi_identifier', zip: 'quasi_identifier', sex: 'quasi_identifier', w: 'weight' };

async function auditG1(page: Page, level: string | null): Promise<void> {
  await openApp(page);
  await page.locator('#file-input').setInputFiles(coreFixture('g1.csv'));
  await expect(page.locator('#profile-panel')).toContainText('g1.csv');
  for (const select of await page.locator('#profile-panel select[data-column]').all()) {
    const column = (await select.getAttribute('data-column'))!;
    await select.selectOption(G1_ROLES[column] ?? 'insensitive');
  }
  await page.locator('#sampling-fraction').fill('0.1');
  await page.locator('#reference-input').setInputFiles(coreFixture('e1.csv'));
  await expect(page.locator('#reference-chosen')).toContainText('e1.csv');
  if (level !== null) await page.locator('#ci-level').fill(level);
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('.headline-stat[data-metric="population_uniqueness_dankar"]')).toBeAttached({ timeout: 30_000 });
}

/** The `[low, high]` an element's `data-ci` holds. */
async function ends(page: Page, selector: string): Promise<[number, number]> {
  const [low, high] = (await page.locator(selector).getAttribute('data-ci'))!.split(',').map(Number);
  return [low!, high!];
}

test('the estimates show their 95% intervals: headline, facts, curve, weighted risk and R_external', async ({ page }) => {
  await auditG1(page, null);
  await openSection(page, 'population-title');
  const interval = page.locator('#population-interval');
  await expect(interval).toContainText(/^95% interval: [\d.]+% to [\d.]+%\./);
  await expect(interval).toContainText('does not cover an error in the model');
  const [low, high] = await ends(page, '#population-interval');
  expect(low).toBeLessThanOrEqual(high);
  // Zayatz has a value and its range; Pitman none, so no range either.
  await expect(page.locator('.fact[data-metric="population_uniqueness_zayatz"] .fact-interval')).toContainText('95% interval:');
  await expect(page.locator('.fact[data-metric="population_uniqueness_pitman"] .fact-interval')).toHaveCount(0);
  // The curve: the key names the bars, the table gives each estimate with its range.
  const curve = page.locator('#uniqueness-curve');
  await expect(curve.locator('.key-interval')).toHaveText('bars: 95% intervals');
  await expect(curve.locator('table')).toContainText(/\d% \([\d.]+% to [\d.]+%\)/);
  await page.locator('section[aria-labelledby="population-title"]').screenshot({ path: 'test-results/intervals-population.png' });
  // The weighted risk (a weight column) and R_external (a reference table).
  const weights = page.locator('section[aria-labelledby="weights-title"]');
  await expect(weights.locator('[data-metric="global_risk"] .fact-interval')).toContainText(/^95% interval: [\d.]+% to [\d.]+%$/);
  await expect(weights.locator('[data-metric="global_risk_er"] .fact-interval')).toContainText('95% interval:');
  await expect(page.locator('[data-metric="r_external"] .fact-interval')).toContainText(/^95% interval: 0\.\d{4} to [01]\.\d{4}$/);
  await expect(page.locator('#results-panel')).not.toContainText('NaN');
  // The HTML report gives each interval beside its value, with its method and seed.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download HTML report' }).click()]);
  const html = readFileSync((await download.path())!, 'utf8');
  const row = (id: string) => html.slice(html.indexOf(`<tr data-metric="${id}"`), html.indexOf('</tr>', html.indexOf(`<tr data-metric="${id}"`)));
  expect(row('population_uniqueness_zayatz')).toMatch(
    /class="metric-interval"[^>]*>95% interval: [\d.e-]+ to [\d.e-]+ \(bootstrap over the classes, seed 15\)/,
  );
  expect(row('global_risk')).toContain('(linearisation over the classes)');
  expect(row('r_external')).toContain('95% interval:');
  expect(row('k_anonymity')).not.toContain('metric-interval');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: 'test-results/intervals.png', fullPage: true });
});

test('the confidence level is a setting: 0.99 gives a range around the 0.5 one', async ({ page }) => {
  await auditG1(page, '0.5');
  await expect(page.locator('#population-interval')).toContainText(/^50% interval:/);
  const narrow = await ends(page, '#population-interval');
  await auditG1(page, '0.99');
  await expect(page.locator('#population-interval')).toContainText(/^99% interval:/);
  const wide = await ends(page, '#population-interval');
  expect(wide[0]).toBeLessThanOrEqual(narrow[0]);
  expect(wide[1]).toBeGreaterThanOrEqual(narrow[1]);
  // A level outside (0, 1) is refused with a sentence before any audit.
  await page.locator('#ci-level').fill('1');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('body')).toContainText('The confidence level must be a number above 0 and below 1');
});
