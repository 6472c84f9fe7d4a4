// Attribute disclosure on the page: l-diversity, t-closeness (equal distance for text, ordered
// for numbers), beta-likeness, delta-disclosure, (alpha,k) and the SCORR verdict; on the
// bundled sample (its `diagnosis` column is proposed "Sensitive") and on the spec's golden G2
// table (a nominal and a numeric sensitive column).

import { expect, test, type Locator, type Page } from '@playwright/test';
import { coreFixture, expectNoHorizontalOverflow, openApp, openSection, runSample } from './helpers.ts';

async function setRoles(page: Page, roles: Record<string, string>): Promise<void> {
  for (const select of await page.locator('#profile-panel select[data-column]').all()) {
    const column = (await select.getAttribute('data-column'))!;
    await select.selectOption(roles[column] ?? 'insensitive');
  }
}

/** The per-SA block of the attribute section. */
const block = (page: Page, sa: string) => page.locator(`#attribute-section .sa-block[data-sensitive="${sa}"]`);
const measure = (b: Locator, id: string) => b.locator(`tr[data-metric="${id}"] .measure-cell`);

const G2_ROLES = { zip: 'quasi_identifier', age: 'quasi_identifier', disease: 'sensitive', salary: 'sensitive' };

async function openG2(page: Page): Promise<void> {
  await openApp(page);
  await page.locator('#file-input').setInputFiles(coreFixture('g2.csv'));
  await expect(page.locator('#profile-panel')).toContainText('g2.csv');
  await setRoles(page, G2_ROLES);
}

test('the sample shows attribute disclosure for its diagnosis column and the SCORR decision', async ({ page }) => {
  await openApp(page);
  await runSample(page);
  await expect(page.locator('#results-panel .lead')).toContainText('Sensitive: diagnosis.');
  await openSection(page, 'attribute-title');
  await openSection(page, 'scorr-verdict-title');

  const b = block(page, 'diagnosis');
  await expect(b).toBeVisible();
  await expect(measure(b, 'l_distinct').locator('.measure-value')).toHaveText(/^\d+$/);
  await expect(measure(b, 't_closeness').locator('.measure-value')).toHaveText(/^0\.\d{4}$/);
  await expect(measure(b, 't_closeness')).toContainText('equal distance');
  await expect(measure(b, 'beta_likeness_basic').locator('.measure-value')).toHaveText(/^\d+\.\d{4}$/);
  await expect(measure(b, 'delta_disclosure')).toContainText('natural log');
  await expect(measure(b, 'delta_disclosure')).toContainText('log base 2');
  for (const text of await b.locator('.measure-explain').allInnerTexts()) expect(text.length).toBeGreaterThan(30);

  // The worst class against the whole file: two bars per value, widths set through the CSSOM.
  const chart = page.locator('#worst-distribution-0');
  await expect(chart).toBeVisible();
  const rows = chart.locator('.dist-rows').first().locator('.dist-row');
  expect(await rows.count()).toBeGreaterThan(1);
  const widest = await rows
    .first()
    .locator('.dist-fill.in-class')
    .evaluate((e) => e.getBoundingClientRect().width);
  expect(widest).toBeGreaterThan(50);

  // Default thresholds l 2 and t 0.5 are checked; beta is not.
  await expect(page.locator('#attribute-section .attribute-thresholds')).toHaveText('Thresholds used: l 2, t 0.5, β not checked.');
  await expect(b.locator('.failing[data-check="t"] .failing-line')).toContainText(/classes fail/);
  await expect(b.locator('.failing[data-check="beta"]')).toContainText('not checked');

  // The SCORR decision as a badge next to the ARX traffic light, and its section.
  const badge = page.locator('#verdict #scorr-badge');
  await expect(badge).toHaveAttribute('data-decision', 'not_approved');
  await expect(badge).toContainText('Not approved');
  await expect(page.locator('#scorr-conventional')).toContainText('Not compliant');
  await expect(page.locator('#scorr-verdict .verdict-reasons li').first()).toHaveText('k = 1 is not above 10.');
  await expect(page.locator('#scorr-bands tr[data-row="uq_qi"]')).toHaveAttribute('data-band', 'high');
  await expect(page.locator('#scorr-thresholds')).toContainText('k above 10 (counted in records), t at most 0.5');
  await expect(page.locator('#results-panel')).not.toContainText('NaN');

  await expectNoHorizontalOverflow(page);
  await page.locator('#attribute-section').screenshot({ path: 'test-results/attribute-disclosure.png' });
  await page.locator('#scorr-verdict').screenshot({ path: 'test-results/scorr-verdict.png' });
  await page.locator('#verdict').screenshot({ path: 'test-results/verdict-badge.png' });
});

test('the golden G2 table: l, t with both distances, beta, delta, alpha and failing classes', async ({ page }) => {
  await openG2(page);
  await page.getByRole('button', { name: 'Run audit' }).click();
  await openSection(page, 'attribute-title');
  await openSection(page, 'scorr-verdict-title');
  const disease = block(page, 'disease');
  const salary = block(page, 'salary');
  await expect(disease).toBeVisible();

  await expect(measure(disease, 'l_distinct').locator('.measure-value')).toHaveText('2');
  await expect(measure(salary, 'l_distinct').locator('.measure-value')).toHaveText('3');
  await expect(measure(disease, 't_closeness').locator('.measure-value')).toHaveText('0.6154');
  await expect(measure(disease, 't_closeness').locator('.distance')).toHaveAttribute('data-distance', 'equal');
  await expect(measure(salary, 't_closeness').locator('.measure-value')).toHaveText('0.3333');
  await expect(measure(salary, 't_closeness').locator('.distance')).toHaveAttribute('data-distance', 'ordered');
  await expect(measure(disease, 'delta_disclosure').locator('.measure-value')).toHaveText('1.4663 (natural log)');
  await expect(measure(disease, 'alpha_k_anonymity').locator('.measure-value')).toHaveText('α 0.7500');
  await expect(measure(salary, 'alpha_k_anonymity').locator('.measure-value')).toHaveText('α 0.5000');
  for (const b of [disease, salary]) {
    await expect(measure(b, 'beta_likeness_enhanced').locator('.measure-value')).toHaveText('cannot be satisfied');
  }
  // Two sensitive columns: the overview with the worst case over both.
  const all = page.locator('#attribute-overview tr[data-sensitive="*"]');
  await expect(all).toContainText('All sensitive columns');
  await expect(all).toContainText('0.6154');

  await expect(page.locator('#scorr-badge')).toHaveAttribute('data-decision', 'not_approved');
  await expect(page.locator('#scorr-bands tbody tr')).toHaveCount(8);
  await expect(page.locator('#scorr-bands tr[data-row="co_zip_disease"]')).toContainText('Correlation, zip → disease');
  await page.locator('#attribute-section').screenshot({ path: 'test-results/attribute-g2.png' });
  await page.locator('#scorr-verdict').screenshot({ path: 'test-results/scorr-verdict-g2.png' });
});

test('the t threshold lists the failing classes; without a sensitive column the page says how to set one', async ({ page }) => {
  await openG2(page);
  await page.locator('#t-threshold').fill('0.5');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await openSection(page, 'attribute-title');
  await openSection(page, 'scorr-verdict-title');
  const failing = block(page, 'disease').locator('.failing[data-check="t"]');
  await expect(failing.locator('.failing-line')).toHaveText('t-closeness above 0.5: 2 classes fail.');
  await failing.locator('summary').click();
  const listed = failing.locator('tbody tr');
  await expect(listed).toHaveCount(2);
  await expect(listed.first()).toContainText('476**');
  await expect(block(page, 'salary').locator('.failing[data-check="t"] .failing-line')).toHaveText('t-closeness above 0.5: no class fails.');

  // No sensitive column: one sentence each, and the badge says what is missing.
  await setRoles(page, { zip: 'quasi_identifier', age: 'quasi_identifier' });
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#attribute-none')).toContainText('needs a sensitive column');
  await expect(page.locator('#attribute-none')).toContainText('"Sensitive"');
  await expect(page.locator('#scorr-none')).toBeVisible();
  await expect(page.locator('#scorr-badge')).toHaveAttribute('data-decision', 'none');
});

test('the attribute settings are checked before the audit runs', async ({ page }) => {
  await openG2(page);
  await expect(page.locator('#l-threshold')).toHaveValue('2');
  await expect(page.locator('#t-threshold')).toHaveValue('0.5');
  await expect(page.locator('#beta-threshold')).toHaveValue('');
  await expect(page.locator('#scorr-k-min')).toHaveValue('10');
  await expect(page.locator('#scorr-t-max')).toHaveValue('0.5');
  await expect(page.locator('#scorr-k-records')).toBeChecked();
  for (const id of ['l-threshold', 't-threshold', 'beta-threshold', 'scorr-k-min', 'scorr-t-max']) {
    expect((await page.locator(`#${id}-help`).innerText()).length).toBeGreaterThan(30);
  }
  await page.locator('#profile-panel .options').screenshot({ path: 'test-results/attribute-settings.png' });
  await page.locator('#beta-threshold').fill('1');
  await page.locator('#scorr-k-persons').check();
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#audit-problem')).toContainText('Person id');
  await page.locator('#scorr-k-records').check();
  await page.locator('#scorr-k-min').fill('2');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(block(page, 'disease').locator('.failing[data-check="beta"] .failing-line')).toContainText('β-likeness above 1');
  await expect(page.locator('#scorr-thresholds')).toContainText('k above 2');
  // k = 3 is above 2 but t of disease is above 0.5: still not compliant, for that reason only.
  await expect(page.locator('#scorr-verdict .verdict-reasons li')).toHaveText(['t-closeness of disease is 0.6154, above 0.5.']);

  // With a person id column, k can be counted in persons (every rid is a different person).
  await page.locator('select[data-column="rid"]').selectOption('person_id');
  await page.locator('#scorr-k-persons').check();
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#scorr-thresholds')).toContainText('(counted in persons)');
  await expect(page.locator('#scorr-conventional')).toContainText('k = 3 (counted in persons)');
});

test('attribute disclosure stays legible at 200 % zoom', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 683, height: 384 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await openApp(page);
  await runSample(page);
  await openSection(page, 'attribute-title');
  await expect(page.locator('#worst-distribution-0')).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await page.locator('#attribute-section').screenshot({ path: 'test-results/attribute-disclosure-zoom200.png' });
  await page.locator('#verdict').screenshot({ path: 'test-results/verdict-badge-zoom200.png' });
  await context.close();
});

test('the options of issue 15: hierarchical distance, an ordinal column, the SA mode', async ({ page }, testInfo) => {
  await openG2(page);
  // golden.md G2's disease hierarchy in ARX's layout, and salary declared ordinal (numeric order).
  const hierarchy = testInfo.outputPath('disease.csv');
  const rows = [
    ['flu', 'Respiratory'],
    ['pneumonia', 'Respiratory'],
    ['bronchitis', 'Respiratory'],
    ['gastric ulcer', 'Digestive'],
    ['gastritis', 'Digestive'],
    ['stomach cancer', 'Digestive'],
  ];
  const { writeFileSync } = await import('node:fs');
  writeFileSync(hierarchy, rows.map(([leaf, node]) => `${leaf};${node};*\n`).join(''));
  await page.locator('#t-distance').selectOption('hierarchical');
  await page.locator('#sa-hierarchy-column').fill('disease');
  await page.locator('#sa-hierarchy-file').setInputFiles(hierarchy);
  await page.locator('#sa-orders').fill('salary: 3, 4, 5, 6, 7, 8, 9, 10, 11, 12');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await openSection(page, 'attribute-title');
  const disease = block(page, 'disease');
  const salary = block(page, 'salary');
  // golden.md G2: hierarchical t 21/39 = 0.5385; the equal distance beside it.
  await expect(measure(disease, 't_closeness').locator('.measure-value')).toHaveText('0.5385');
  await expect(measure(disease, 't_closeness').locator('.distance')).toHaveAttribute('data-distance', 'hierarchical');
  await expect(measure(disease, 't_closeness')).toContainText('equal distance would give 0.6154');
  await expect(measure(disease, 't_closeness_hierarchical').locator('.measure-value')).toHaveText('0.5385');
  // salary has no hierarchy: t is not applicable with the hierarchical distance, said in words.
  await expect(measure(salary, 't_closeness')).toContainText('No generalization hierarchy');
  await expect(measure(salary, 't_closeness_hierarchical')).toHaveCount(0);

  // Back to the automatic distance: the ordinal salary uses the ordered distance (1/3).
  await page.locator('#t-distance').selectOption('auto');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await openSection(page, 'attribute-title');
  await expect(measure(salary, 't_closeness').locator('.measure-value')).toHaveText('0.3333');
  await expect(measure(salary, 't_closeness')).toContainText('ordinal');

  // The combined mode: one pseudo-column of the tuples.
  await page.locator('#sa-mode').selectOption('combined');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await openSection(page, 'attribute-title');
  await expect(block(page, 'disease + salary')).toBeVisible();
  await expect(measure(block(page, 'disease + salary'), 't_closeness').locator('.distance')).toHaveAttribute('data-distance', 'equal');
  await expect(page.locator('#results-panel')).not.toContainText('NaN');
  await page.locator('#attribute-section').screenshot({ path: 'test-results/attribute-options.png' });
});
