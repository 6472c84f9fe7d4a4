// Utility against the original table (spec utility.md): the G3 release against its original
// must show the CLI's utility U, loss and similarity in the summary with their sentences, the
// per-column table, each column's distribution before and after, the three correlation heat
// maps, and leave out a column marked "Ignored"; the Census IPSO release 01 against its
// original, paired by record id, must show the CLI's UM, CM1, CM2 and CM3 (Sec 11); a
// row-order pairing of tables of different length must say why the paired measures are
// missing while UM is still shown; a problem in the original names it.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { coreFixture, expectNoHorizontalOverflow, fixture, G3_ROLES, openApp, openG3, openSection } from './helpers.ts';

const CLI = process.env.PSEUDOLENS_CLI || 'target/release/pseudolens';

const csv = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

const utility = (page: Page) => page.locator('#utility-section');
const cardValue = (page: Page, id: string) => utility(page).locator(`.card[data-metric="${id}"] .card-value`);

async function openReleased(page: Page, file: string | ReturnType<typeof csv>, label: string): Promise<void> {
  await page.locator('#file-input').setInputFiles(file);
  await expect(page.locator('#profile-panel')).toContainText(label);
}

interface CliMetric {
  id: string;
  scope: { attribute: string | null };
  value: unknown;
  status: string;
  details: Record<string, unknown>;
}

/** The CLI's report of a release against its original (paths), paired by `recordId`. */
function cliUtility(released: string, original: string, recordId: string, extra: string[] = []): CliMetric[] {
  expect(existsSync(CLI), `the CLI ${CLI} must be built first (cargo build --release)`).toBe(true);
  const args = ['audit', released, '--original', original, '--record-id', recordId, ...extra, '--json'];
  return (JSON.parse(execFileSync(CLI, args, { encoding: 'utf8', maxBuffer: 64 << 20 })) as { metrics: CliMetric[] }).metrics;
}

/** The G3 release against its original with the page's roles (G3_ROLES). */
const cliG3 = (extra: string[] = []) =>
  cliUtility(coreFixture('g3_released.csv'), coreFixture('g3_original.csv'), 'rid', ['--qi', 'age,zip,sex', '--sensitive', 'diag', ...extra]);

function cliResult(metrics: CliMetric[], id: string, attribute: string | null = null): CliMetric {
  const m = metrics.find((x) => x.id === id && (x.scope.attribute ?? null) === attribute);
  expect(m, `${id} ${attribute ?? ''} in the CLI report`).toBeDefined();
  expect(m!.status, `status of ${id}`).toBe('ok');
  return m!;
}

const cliNumber = (metrics: CliMetric[], id: string, attribute: string | null = null) => cliResult(metrics, id, attribute).value as number;

/** The page's correlation format: two decimals, a true minus sign, "+" on differences. */
const coefficient = (v: number, plus = false) => {
  const text = Math.abs(v).toFixed(2);
  return text === '0.00' ? text : `${v < 0 ? '−' : plus ? '+' : ''}${text}`;
};

/** Opens the G3 release with its original and sets the roles the CLI run uses. */
async function auditG3(page: Page, roles: Record<string, string>): Promise<void> {
  await openG3(page, roles);
  await page.getByRole('button', { name: 'Run audit' }).click();
  await openSection(page, 'utility-title');
  await expect(page.locator('#utility-summary')).toBeVisible({ timeout: 30_000 });
}

test('G3 against its original: summary, per-column table, distributions and correlation maps agree with the CLI', async ({ page }) => {
  const cli = cliG3();
  await auditG3(page, G3_ROLES);
  const summary = page.locator('#utility-summary');

  // Utility U, L_total and S_total with their sentences, as the CLI computes them.
  for (const id of ['utility_u', 'l_total', 's_total']) {
    await expect(summary.locator(`.card[data-metric="${id}"] .card-value`)).toHaveText(cliNumber(cli, id).toFixed(4));
  }
  await expect(summary.locator('.card[data-metric="utility_u"] .card-explain')).toContainText('How useful the release is overall');
  await expect(summary.locator('.card[data-metric="utility_u"]')).toContainText('Higher = more useful');
  await expect(summary.locator('.fact[data-metric="ctbil_normalized"] .fact-value')).toHaveText(cliNumber(cli, 'ctbil_normalized').toFixed(4));
  await expect(summary.locator('.fact[data-metric="il1s"] .fact-value')).toHaveText(cliNumber(cli, 'il1s').toFixed(4));
  await expect(summary.locator('.fact[data-metric="eigen_diff"] .fact-value')).toHaveText(cliNumber(cli, 'eigen_diff').toFixed(4));
  const query = cliResult(cli, 'query_accuracy_summary').value as { mean: number };
  await expect(summary.locator('.fact[data-metric="query_accuracy_summary"] .fact-value')).toHaveText(`${query.mean.toFixed(2)}%`);
  await expect(summary.locator('.fact[data-metric="query_accuracy_summary"] .fact-explain')).toContainText(/\d+ good, \d+ moderate, \d+ poor/);

  // One row per utility attribute: the record id is not one; loss and similarity as the CLI's.
  const rows = page.locator('#utility-attributes tbody tr');
  await expect(rows).toHaveCount(5);
  await expect(rows.locator('td:first-child')).toHaveText(['age', 'zip', 'sex', 'income', 'diag']);
  const age = rows.filter({ hasText: /^age/ });
  await expect(age.locator('td').nth(1)).toHaveText(cliNumber(cli, 'attribute_loss', 'age').toFixed(4));
  await expect(age.locator('td').nth(2)).toHaveText(cliNumber(cli, 'attribute_similarity', 'age').toFixed(4));
  // The components the engine chose for a generalized numeric column.
  const components = cliResult(cli, 'attribute_loss', 'age').details.components as string[];
  expect(components).toContain('gen_loss');
  await expect(age.locator('[data-component="gen_loss"]')).toContainText(`generalization ${cliNumber(cli, 'gen_loss', 'age').toFixed(4)}`);
  // Age 91 was suppressed in the release.
  await expect(age.locator('td').nth(6)).toHaveText(`${cliNumber(cli, 'suppressed_cells', 'age')} (8.3%)`);

  // The distribution of age: a chart with both tables and a key, the mean and spread beside it.
  const ageCard = page.locator('.dist-card[data-attribute="age"]');
  await expect(ageCard.locator('canvas')).toHaveCount(1);
  await expect(ageCard.locator('[role="img"]')).toHaveAttribute('aria-label', /^Bar chart: share of rows per value of age, original then released\./);
  await expect(ageCard.locator('.chart-key')).toHaveText(/Original\s*Released/);
  const mean = cliResult(cli, 'mean_diff', 'age').value as { original: number };
  await expect(ageCard.locator('dd[data-metric="mean_diff"]')).toHaveText(new RegExp(`^${mean.original} → [\\d.,]+ \\(−[\\d.,]+, −[\\d.]+%\\)$`));
  await expect(ageCard.locator('dd[data-metric="variance_diff"]')).toHaveText(/^[\d.,]+ → [\d.,]+ \([+−][\d.,]+, [+−][\d.]+%\)$/);
  // The numbers as a table; fine bins are joined so that a chart has at most 40 bars (+ blank).
  await ageCard.locator('.chart-data summary').click();
  await expect(ageCard.locator('.chart-data tbody tr').first()).toBeVisible();
  const bars = await ageCard.locator('.chart-data tbody tr').count();
  expect(bars).toBeGreaterThan(5);
  expect(bars).toBeLessThanOrEqual(43);
  await expect(ageCard.locator('.chart-data tbody tr').last()).toHaveText(/^blank\s*0\.00%\s*8\.33%\s*\+8\.33 pts$/);
  await ageCard.locator('.chart-data summary').click();
  // Text columns get a chart too, without mean and spread.
  await expect(page.locator('.dist-card[data-attribute="sex"] canvas')).toHaveCount(1);
  await expect(page.locator('.dist-card[data-attribute="sex"] dd[data-metric="mean_diff"]')).toHaveCount(0);

  // The correlation matrices of the numeric columns, side by side with their difference.
  const cor = cliResult(cli, 'cor_discrepancy');
  const names = (cor.details.attributes ?? cor.details.matrix_variables) as string[];
  const [o, r] = [cor.details.original as number[][], cor.details.released as number[][]];
  const p = names.length;
  for (const id of ['heatmap-original', 'heatmap-released', 'heatmap-difference']) {
    await expect(page.locator(`#${id} tbody td`)).toHaveCount(p * p);
    await expect(page.locator(`#${id} thead th`)).toHaveText(names);
  }
  const [i, j] = [names.indexOf('age'), names.indexOf('income')];
  const cell = (id: string) => page.locator(`#${id} tbody tr`).nth(i).locator('td').nth(j);
  await expect(cell('heatmap-original')).toHaveText(coefficient(o[i]![j]!));
  await expect(cell('heatmap-released')).toHaveText(coefficient(r[i]![j]!));
  await expect(cell('heatmap-difference')).toHaveText(coefficient(r[i]![j]! - o[i]![j]!, true));
  await expect(cell('heatmap-original')).toHaveClass(/heat-(0|[pn][1-5])/);
  await expect(page.locator('#heatmap-original caption')).toHaveText('Original');
  await expect(page.locator('#heatmap-difference caption')).toHaveText('Released − original');

  // The permutation block still follows.
  await expect(page.locator('#utility-permutation .card[data-metric="perm_um"] .card-value')).toHaveText(cliNumber(cli, 'perm_um').toFixed(4));
  await expect(page.locator('#results-panel')).not.toContainText('NaN');
  await expect(page.locator('#messages .message-error')).toHaveCount(0);
  await expectNoHorizontalOverflow(page);
  await utility(page).screenshot({ path: 'test-results/utility-g3.png' });
});

test('a column marked "Ignored" is left out of the utility results', async ({ page }) => {
  const cli = cliG3(['--ignore', 'income']);
  await auditG3(page, { ...G3_ROLES, income: 'ignored' });
  await expect(page.locator('#utility-summary .card[data-metric="utility_u"] .card-value')).toHaveText(cliNumber(cli, 'utility_u').toFixed(4));
  await expect(page.locator('#utility-attributes tbody tr td:first-child')).toHaveText(['age', 'zip', 'sex', 'diag']);
  await expect(page.locator('.dist-card[data-attribute="income"]')).toHaveCount(0);
  await expect(page.locator('#heatmap-original thead th')).toHaveText(['age', 'zip']);
  await expect(page.locator('#reverse-mapping tbody tr td:first-child')).toHaveText(['age', 'zip']);
});

test('Census IPSO 01 against its original shows the CLI values of UM, CM1, CM2 and CM3', async ({ page }) => {
  await openApp(page);
  await openReleased(page, fixture('census-ipso-01.csv'), 'census-ipso-01.csv');
  // No column is a quasi-identifier here: without an original the page asks for one or the other.
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#audit-problem')).toContainText('or give an original table');
  await expect(page.locator('#record-id')).toBeHidden();

  await page.locator('#original-input').setInputFiles(fixture('census-ipso-original.csv'));
  await expect(page.locator('#original-chosen')).toContainText('census-ipso-original.csv');
  // The record id column is proposed for pairing; "Row order" is the other choice.
  await expect(page.locator('#record-id')).toBeVisible();
  await expect(page.locator('#record-id')).toHaveValue('record_id');
  await expect(page.locator('#record-id option').first()).toHaveText('Row order');
  await page.locator('.original-settings').screenshot({ path: 'test-results/utility-settings.png' });
  await page.getByRole('button', { name: 'Run audit' }).click();

  // The values of `pseudolens audit ipso-01.csv --original original.csv --record-id record_id`.
  const cli = cliUtility(fixture('census-ipso-01.csv'), fixture('census-ipso-original.csv'), 'record_id');
  await expect(cardValue(page, 'perm_um')).toHaveText(cliNumber(cli, 'perm_um').toFixed(4), { timeout: 30_000 });
  for (const id of ['perm_cm1', 'perm_cm2', 'perm_cm3']) await expect(cardValue(page, id)).toHaveText(cliNumber(cli, id).toFixed(4));
  expect(cliResult(cli, 'perm_cm3').details.weakest).toBe('FEDTAX');
  await expect(page.locator('#utility-weakest')).toHaveText('Weakest column: FEDTAX');
  await expect(utility(page).locator('.card[data-metric="perm_um"]')).toContainText('higher = more useful');
  await expect(utility(page).locator('.card[data-metric="perm_cm3"]')).toContainText('higher = more protective');
  await expect(page.locator('#utility-alignment')).toContainText('Rows paired by the record id column “record_id”');
  await expect(page.locator('#utility-alignment')).toContainText('every original record is in the released file');
  await expect(page.locator('#utility-alignment')).toContainText('1,080 pairs');
  await expect(page.locator('#utility-pairing-error')).toHaveCount(0);

  const rows = page.locator('#reverse-mapping tbody tr');
  await expect(rows).toHaveCount(4);
  const fica = cliResult(cli, 'perm_reverse_mapping', 'FICA').value as { mean_d: number; max_d: number; share_d0: number; mean_abs_e: number };
  expect(fica.max_d).toBe(1063);
  const [meanD, share, noise] = [fica.mean_d.toFixed(1), (fica.share_d0 * 100).toFixed(2), fica.mean_abs_e.toFixed(2)];
  await expect(rows.first()).toHaveText(new RegExp(`^FICA\\s*${meanD}\\s*1,063\\s*${share}%\\s*${noise}$`));

  // Utility only: no identity results, no error, no stray numbers.
  await expect(page.locator('#results-panel .lead')).toContainText('only the utility results are shown');
  await expect(page.locator('#verdict')).toHaveCount(0);
  await expect(page.locator('#messages .message-error')).toHaveCount(0);
  await expect(page.locator('#results-panel')).not.toContainText('NaN');
  // Inline styles only where charts set sizes through the CSSOM (uPlot), never in markup.
  expect(await page.locator('#results-panel [style]').count()).toBe(await page.locator('#results-panel .uplot [style]').count());
  await expectNoHorizontalOverflow(page);
  await utility(page).screenshot({ path: 'test-results/utility.png' });
});

test('row order with tables of different length: paired measures explain why, UM is shown', async ({ page }) => {
  await openApp(page);
  await openReleased(page, csv('released.csv', 'a,b,city\n1.1,2.2,Bonn\n2.5,4,Köln\n3.2,1.5,Bonn\n4.4,3.9,Ulm\n'), 'released.csv');
  await page.locator('#original-input').setInputFiles(csv('before.csv', 'a,b,city\n1,2,Bonn\n2,5,Köln\n3,1,Bonn\n4,4,Ulm\n5,3,Jena\n'));
  await expect(page.locator('#record-id')).toHaveValue(''); // no id-like column: row order
  await page.getByRole('button', { name: 'Run audit' }).click();

  const error = page.locator('#utility-pairing-error');
  await expect(error).toContainText('CM1, CM2 and the reverse mapping could not be computed');
  await expect(error).toContainText('different numbers of rows');
  await expect(error).toContainText('(5 in the original, 4 released)');
  await expect(error).toContainText('Pair rows by');
  await expect(cardValue(page, 'perm_um')).toHaveText(/^\d\.\d{4}$/);
  await expect(cardValue(page, 'perm_cm1')).toHaveText('—');
  await expect(utility(page).locator('.card[data-metric="perm_cm1"] .card-explain')).toContainText('Could not be computed');
  await expect(page.locator('#utility-skipped')).toContainText('city');
  await expect(page.locator('#reverse-mapping')).toHaveCount(0);
  // The unpaired utility measures are still there; the paired ones say why once.
  await expect(page.locator('#utility-summary .card[data-metric="utility_u"] .card-value')).toHaveText(/^\d\.\d{4}$/);
  await expect(page.locator('#utility-attributes-pairing')).toContainText('need paired rows: the two tables have different numbers of rows');
  await expect(page.locator('#utility-attributes tbody tr').first().locator('[data-component="proximity_loss"]')).toContainText('needs paired rows');
  await utility(page).screenshot({ path: 'test-results/utility-mismatch.png' });
  await expect(page.locator('#results-panel')).not.toContainText('NaN');
});

test('with quasi-identifiers, the utility section joins the privacy results; a bad original is named', async ({ page }) => {
  await openApp(page);
  const released = 'rid,age,sex,income\n1,30,F,100\n2,30,F,250\n3,40,M,300\n4,40,M,180\n5,50,F,90\n';
  await openReleased(page, csv('people.csv', released), 'people.csv');
  for (const column of ['age', 'sex']) await page.locator(`select[data-column="${column}"]`).selectOption('quasi_identifier');

  // The original lacks the record id column: the message names the original table.
  await page.locator('#original-input').setInputFiles(csv('before.csv', 'id2,age,income\n1,31,110\n'));
  await expect(page.locator('#record-id')).toHaveValue('rid');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#messages .message-error .message-title')).toContainText('The original table before.csv');
  await expect(page.locator('#results-panel')).toBeHidden();

  const original = 'rid,age,sex,income\n5,52,F,95\n4,41,M,170\n3,38,M,320\n2,33,F,240\n1,29,F,120\n';
  await page.locator('#original-input').setInputFiles(csv('before.csv', original));
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel [data-metric="k_anonymity"] .card-value')).toBeVisible();
  await expect(cardValue(page, 'perm_um')).toHaveText(/^\d\.\d{4}$/);
  await expect(page.locator('#utility-alignment')).toContainText('“rid”');
  await expect(page.locator('#reverse-mapping tbody tr')).toHaveCount(2);
  await expect(page.locator('#messages .message-error')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/utility-with-qis.png', fullPage: true });
});

test('at 200 % zoom the utility results stay on screen', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 683, height: 384 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await openApp(page);
  await openReleased(page, fixture('census-ipso-01.csv'), 'census-ipso-01.csv');
  await page.locator('#original-input').setInputFiles(fixture('census-ipso-original.csv'));
  await page.getByRole('button', { name: 'Run audit' }).click();
  const cm3 = cliNumber(cliUtility(fixture('census-ipso-01.csv'), fixture('census-ipso-original.csv'), 'record_id'), 'perm_cm3');
  await expect(cardValue(page, 'perm_cm3')).toHaveText(cm3.toFixed(4), { timeout: 30_000 });
  await expectNoHorizontalOverflow(page);
  await utility(page).screenshot({ path: 'test-results/utility-zoom200.png' });
  await context.close();
});

test('an original that turns out not to be UTF-8 late is read again as Windows-1252', async ({ page }) => {
  await openApp(page);
  const released = 'rid,city,a,b\nA1,München,1.1,2.2\nB2,Köln,2.5,4\nCé3,Köln,3.2,1.5\nD4,Ulm,4.4,3.9\n';
  await openReleased(page, csv('released.csv', released), 'released.csv');
  // 1.4 MB of ASCII (detected as UTF-8 from its first slice), then the four released records in
  // Windows-1252: the id "Cé3" only matches once the original is decoded as such.
  const head = `rid,city,a,b\n${Array.from({ length: 80_000 }, (_, i) => `${i + 10},Koeln,${i % 7},${i % 11}\n`).join('')}`;
  const tail = Buffer.from('A1,M\xfcnchen,1,2\nB2,K\xf6ln,2,5\nC\xe93,K\xf6ln,3,1\nD4,Ulm,4,4\n', 'latin1');
  await page.locator('#original-input').setInputFiles({ name: 'before.csv', mimeType: 'text/csv', buffer: Buffer.concat([Buffer.from(head), tail]) });
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(cardValue(page, 'perm_cm1')).toHaveText(/^\d\.\d{4}$/);
  await expect(page.locator('#utility-alignment')).toContainText('80,000 original records are not in the released file');
  await expect(page.locator('#messages .message-error')).toHaveCount(0);
  await expect(page.locator('#messages .message-note')).toContainText('The original table is not UTF-8 text');
});
