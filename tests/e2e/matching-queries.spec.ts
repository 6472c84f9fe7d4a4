// Two settings of step 2 that feed the core's AuditConfig. Reference matching (balance.md
// Sec 1): the G3 release with its original and the reference table E3 whose `age` column is
// named `AGE`; the page sniffs E's header, matches zip and sex by name, shows age as "not in the
// reference table" (R_external on zip and sex only), and once the user maps age to AGE,
// R_external is golden G3.3's 0.5028. A header with a BOM, a quoted cell and `;` is read too.
// User queries (utility.md Sec 10): mean(income) by sex added to the workload gives the CLI's
// relative error 0.3869 % (tier good), listed per query in the utility section.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { coreFixture, expandedE3, expectNoHorizontalOverflow, openG3, openSection } from './helpers.ts';

const CLI = process.env.PSEUDOLENS_CLI || 'target/release/pseudolens';

const rExternal = (page: Page) => page.locator('#balance-section .fact[data-metric="r_external"] .fact-value');

test('reference table: QIs matched by name, and the user corrects the matching', async ({ page }) => {
  await openG3(page);
  await page.locator('#reference-input').setInputFiles({ name: 'e3-renamed.csv', mimeType: 'text/csv', buffer: Buffer.from(expandedE3({ age: 'AGE' })) });

  const matching = page.locator('#reference-matching');
  await expect(matching).toBeVisible();
  const age = matching.locator('select[data-qi="age"]');
  await expect(age).toHaveValue('');
  await expect(age.locator('option')).toHaveText(['not in the reference table', 'AGE', 'zip', 'sex']);
  await expect(matching.locator('select[data-qi="zip"]')).toHaveValue('zip');
  await expect(matching.locator('select[data-qi="sex"]')).toHaveValue('sex');
  // A QI that stops being one leaves the matching; it comes back with its choice.
  await page.locator('select[data-column="sex"]').selectOption('insensitive');
  await expect(matching.locator('select[data-qi]')).toHaveCount(2);
  await page.locator('select[data-column="sex"]').selectOption('quasi_identifier');
  await expect(matching.locator('select[data-qi]')).toHaveCount(3);

  // Before the correction: matched on zip and sex only.
  await page.getByRole('button', { name: 'Run audit' }).click();
  const balance = page.locator('#balance-section');
  await expect(balance).toBeVisible({ timeout: 30_000 });
  await expect(balance).toContainText('The reference table lacks age; records were matched on the other quasi-identifiers only.');
  await expect(rExternal(page)).toHaveText('0.1958'); // the CLI with the renamed table: 0.19583

  // Age is the reference table's AGE: golden G3.3.
  await age.selectOption('AGE');
  await matching.screenshot({ path: 'test-results/reference-matching.png' });
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(rExternal(page)).toHaveText('0.5028', { timeout: 30_000 });
  await expect(balance).not.toContainText('The reference table lacks');
  await expect(page.locator('#messages .message-error')).toHaveCount(0);

  // Another header: a BOM, a quoted cell holding the delimiter, `;` between cells.
  await page.locator('#reference-input').setInputFiles({
    name: 'semicolon.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('\uFEFF"Age; years";"zip";sex\r\n30-39;130**;F\r\n'),
  });
  await expect(age.locator('option')).toHaveText(['not in the reference table', 'Age; years', 'zip', 'sex']);
  await expect(age).toHaveValue('');
  await page.locator('#reference-remove').click();
  await expect(matching).toBeHidden();
});

test('user queries: mean(income) by sex joins the workload, each query listed with its error', async ({ page }) => {
  expect(existsSync(CLI), `the CLI ${CLI} must be built first`).toBe(true);
  const cli = JSON.parse(
    execFileSync(
      resolve(CLI),
      [
        'audit',
        coreFixture('g3_released.csv'),
        '--original',
        coreFixture('g3_original.csv'),
        '--record-id',
        'rid',
        '--qi',
        'age,zip,sex',
        '--sensitive',
        'diag',
        '--query',
        'sex:mean(income)',
        '--json',
      ],
      { encoding: 'utf8' },
    ),
  ) as { metrics: { id: string; value: number; params: { source: string; query: unknown }; details: { tier: string } }[] };
  const mine = cli.metrics.find((m) => m.id === 'query_relative_error' && m.params.source === 'user')!;
  expect(mine.value).toBeCloseTo(0.3869082069, 9);
  expect(mine.details.tier).toBe('good');
  const all = cli.metrics.filter((m) => m.id === 'query_relative_error');

  await openG3(page);
  const settings = page.locator('#query-settings');
  await expect(settings).toBeVisible();
  // A count over the whole table, added and removed again.
  await page.locator('#query-add').click();
  await expect(page.locator('#query-list li')).toHaveText(['count Remove']);
  await page.getByRole('button', { name: 'Remove the query count' }).click();
  await expect(page.locator('#query-list li')).toHaveCount(0);
  // A share needs its value.
  await page.locator('#query-aggregate').selectOption('share');
  await expect(page.locator('#query-value')).toBeVisible();
  await page.locator('#query-add').click();
  await expect(page.locator('#query-problem')).toContainText('Give the value');

  await page.locator('#query-group-by').selectOption(['sex']);
  await page.locator('#query-aggregate').selectOption('mean');
  await expect(page.locator('#query-value')).toBeHidden();
  await page.locator('#query-column').selectOption('income');
  await page.locator('#query-add').click();
  await expect(page.locator('#query-list li')).toHaveText(['mean(income) by sex Remove']);
  await settings.screenshot({ path: 'test-results/query-settings.png' });

  await page.getByRole('button', { name: 'Run audit' }).click();
  await openSection(page, 'utility-title');
  const results = page.locator('#query-results');
  await expect(results).toBeVisible({ timeout: 30_000 });
  await expect(results.locator('tbody tr')).toHaveCount(all.length);
  const row = results.locator('tr[data-source="user"]');
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-query', 'mean(income) by sex');
  await expect(row).toHaveAttribute('data-tier', 'good');
  expect(Number(await row.getAttribute('data-value'))).toBeCloseTo(mine.value, 9);
  await expect(row.locator('td')).toHaveText(['mean(income) by sex', 'yours', '0.39%', 'good', '0', '0']);
  await expect(results.locator('tr[data-query="count by age"] td').nth(2)).toHaveText('20.00%');
  await expect(results.locator('tr[data-query="count by age"]')).toHaveAttribute('data-tier', 'poor');
  await expect(page.locator('#utility-summary .fact[data-metric="query_accuracy_summary"]')).toContainText(`${all.length} queries`);
  await expectNoHorizontalOverflow(page);
  await results.screenshot({ path: 'test-results/query-results.png' });
});
