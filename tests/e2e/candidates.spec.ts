// Balance of risk and utility (spec balance.md) on the page. Comparing candidates: the CLI
// generates an original (level 0) and three releases generalized further and further (levels
// 1-3); the page audits the three against the original with the CLI's roles, shows every
// measure per candidate (R and U fall from level 1 to 3, as the CLI computes them), the
// risk-utility map and the alpha sweep, and names the same best candidate as
// `pseudolens compare` at the default weights, at another preset and with a utility limit,
// without auditing again. One release: the G3 release with its original and the reference
// table E3 shows R_external 0.5028 (golden G3.3), the overall risk, safety and the RUT score of
// the CLI, re-scored by the weight presets and a custom alpha; the risk combination of step 2
// changes R. Without a reference table or an original there is no balance section.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { coreFixture, expandedE3, expectNoHorizontalOverflow, G3_ROLES, openApp, openG3, openSection, runSample } from './helpers.ts';

const CLI = process.env.PSEUDOLENS_CLI || 'target/release/pseudolens';

interface CliMetric {
  id: string;
  scope: { attribute: string | null; sensitive?: string | null };
  value: unknown;
  status: string;
  reason: string | null;
  details: Record<string, unknown>;
}

function cli(args: string[], cwd?: string): string {
  expect(existsSync(CLI), `the CLI ${CLI} must be built first (cargo build --release -p pseudolens)`).toBe(true);
  return execFileSync(resolve(CLI), args, { cwd, encoding: 'utf8', maxBuffer: 256 << 20 });
}

function tableMetric(metrics: CliMetric[], id: string): CliMetric {
  const m = metrics.find((x) => x.id === id && (x.scope.attribute ?? null) === null);
  expect(m, `${id} in the CLI report`).toBeDefined();
  return m!;
}

// --- comparing candidates --------------------------------------------------------------------

const QI = 'age,sex,region,admission_date';
const ROLES: Record<string, string> = {
  record_id: 'insensitive',
  age: 'quasi_identifier',
  sex: 'quasi_identifier',
  region: 'quasi_identifier',
  admission_date: 'quasi_identifier',
  ward: 'insensitive',
  diagnosis: 'insensitive',
  procedure: 'insensitive',
  length_of_stay: 'insensitive',
  note: 'ignored',
};

interface Comparison {
  candidates: { file: string; metrics: CliMetric[] }[];
  metrics: CliMetric[];
}

/** `pseudolens compare lvl0.csv lvl1.csv lvl2.csv lvl3.csv ... --json` run in `dir`. */
function cliCompare(dir: string, extra: string[] = []): Comparison {
  const args = ['compare', 'lvl0.csv', 'lvl1.csv', 'lvl2.csv', 'lvl3.csv', '--qi', QI, '--record-id', 'record_id', '--ignore', 'note', ...extra, '--json'];
  return JSON.parse(cli(args, dir)) as Comparison;
}
const chosen = (c: Comparison) => c.metrics.find((m) => m.id === 'rut_constrained_choice')!.value as string | null;

function generate(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pseudolens-candidates-'));
  for (const level of [0, 1, 2, 3]) writeFileSync(join(dir, `lvl${level}.csv`), cli(['generate', '--rows', '2000', '--level', String(level)]));
  return dir;
}

/** Collects the page's CSP violations (and those the worker forwards): the map is plain SVG
 * and every colour comes from a class, so there must be none. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __balanceCsp: string[] }).__balanceCsp = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    window.addEventListener('pseudolens:csp-violation', (e) => seen.push(JSON.stringify((e as CustomEvent).detail)));
  });
  return () => page.evaluate(() => (window as unknown as { __balanceCsp: string[] }).__balanceCsp);
}

const cell = (page: Page, id: string, file: string) => page.locator(`#candidates-table tr[data-metric="${id}"] td[data-candidate="${file}"]`);

async function cellNumber(page: Page, id: string, file: string): Promise<number> {
  return Number(await cell(page, id, file).getAttribute('data-value'));
}

test('compare candidates: every measure per candidate, the map, the sweep and the CLI’s best candidate', async ({ page }) => {
  test.setTimeout(120_000);
  const dir = generate();
  const files = ['lvl1.csv', 'lvl2.csv', 'lvl3.csv'];
  const base = cliCompare(dir);

  const violations = await watchCsp(page);
  await openApp(page);
  await page.locator('#candidates-input').setInputFiles(files.map((f) => join(dir, f)));
  await expect(page.locator('#profile-panel')).toContainText('lvl1.csv (first of 3 candidates)');
  await expect(page.locator('#compare-note')).toContainText('lvl1.csv, lvl2.csv, lvl3.csv');
  await page.locator('section.panel').first().screenshot({ path: 'test-results/candidates-step1.png' });
  await page.locator('.balance-settings').screenshot({ path: 'test-results/balance-settings.png' });
  for (const [column, role] of Object.entries(ROLES)) await page.locator(`select[data-column="${column}"]`).selectOption(role);

  // The original is required to compare.
  await page.getByRole('button', { name: 'Compare candidates' }).click();
  await expect(page.locator('#audit-problem')).toContainText('needs the original table');
  await page.locator('#original-input').setInputFiles(join(dir, 'lvl0.csv'));
  await expect(page.locator('#record-id')).toHaveValue('record_id');
  // Each title the progress panel takes: the audit of each candidate shows its own steps.
  await page.evaluate(() => {
    const titles: string[] = [];
    (window as unknown as { titles: string[] }).titles = titles;
    const title = document.getElementById('progress-title')!;
    new MutationObserver(() => titles.push(title.textContent ?? '')).observe(title, { childList: true, characterData: true, subtree: true });
  });
  await page.getByRole('button', { name: 'Compare candidates' }).click();

  const best = page.locator('#best-candidate');
  await expect(best).toHaveAttribute('data-candidate', /.+/, { timeout: 60_000 });
  await expect(page.locator('#results-title')).toHaveText('3. Compare candidates');
  await expect(page.locator('#messages .message-error')).toHaveCount(0);
  const titles = await page.evaluate(() => (window as unknown as { titles: string[] }).titles);
  expect(titles.filter((t) => t.endsWith(': computing the measures…')).length, titles.join(' | ')).toBeGreaterThanOrEqual(files.length);

  // Every measure per candidate, as the CLI computes it; R and U fall from level 1 to 3.
  for (const [i, file] of files.entries()) {
    const metrics = base.candidates[i]!.metrics;
    expect(base.candidates[i]!.file).toBe(file);
    for (const id of ['risk_r', 'utility_u', 'r_internal', 'l_total', 's_total', 'il1s']) {
      await expect(cell(page, id, file), `${id} of ${file}`).toHaveText((tableMetric(metrics, id).value as number).toFixed(4));
    }
    await expect(cell(page, 'k_anonymity', file)).toHaveText(String(tableMetric(metrics, 'k_anonymity').value));
  }
  for (const id of ['risk_r', 'utility_u']) {
    const [a, b, c] = [await cellNumber(page, id, 'lvl1.csv'), await cellNumber(page, id, 'lvl2.csv'), await cellNumber(page, id, 'lvl3.csv')];
    expect(a, `${id} falls from level 1 to 2`).toBeGreaterThan(b);
    expect(b, `${id} falls from level 2 to 3`).toBeGreaterThan(c);
  }
  // No reference table: no R_external row.
  await expect(page.locator('#candidates-table tr[data-metric="r_external"]')).toHaveCount(0);

  // The best candidate is the CLI's, at the default weights (balanced, alpha 0.5).
  const atDefault = chosen(base);
  expect(atDefault).not.toBeNull();
  await expect(best).toHaveAttribute('data-candidate', atDefault!);
  await expect(best).toContainText(`Best candidate: ${atDefault}`);
  await expect(best).toContainText('α = 0.50 (utility) and β = 0.50 (safety), the “Balanced” preset');
  const sweep = base.metrics.find((m) => m.id === 'rut_alpha_sweep')!;
  await expect(best.locator('.stability')).toHaveAttribute('data-stable', String(sweep.details.stable));
  await expect(page.locator('#candidates-table thead th.chosen')).toHaveAttribute('data-candidate', atDefault!);
  const rutAtDefault = base.metrics.find((m) => m.id === 'rut_constrained_choice')!.details.rut_per_candidate as number[];
  for (const [i, file] of files.entries()) await expect(cell(page, 'rut', file)).toHaveText(rutAtDefault[i]!.toFixed(4));

  // The map: one point per candidate, the frontier; the sweep: a chart and its table.
  await expect(page.locator('#risk-utility-map .candidate-point')).toHaveCount(3);
  await expect(page.locator(`#risk-utility-map .candidate-point[data-candidate="${atDefault}"] .chosen-ring`)).toHaveCount(1);
  await expect(page.locator('#risk-utility-map .frontier')).toHaveCount(1);
  await expect(page.locator('#candidates-sweep canvas')).toHaveCount(1);
  await expect(page.locator('#candidates-sweep .chart-data tbody tr')).toHaveCount(7);
  await expectNoHorizontalOverflow(page);
  await page.locator('#results-panel').screenshot({ path: 'test-results/candidates-compare.png' });

  // Another preset re-runs only the choice: no progress, the same best candidate as the CLI.
  const publicRun = cliCompare(dir, ['--alpha', 'public']);
  await page.locator('#choice-preset-public').check();
  await expect(page.locator('#results-panel')).toHaveAttribute('data-alpha', '0.3');
  await expect(best).toHaveAttribute('data-candidate', chosen(publicRun)!);
  await expect(best).toContainText('the “Public release” preset');
  const rutPublic = publicRun.metrics.find((m) => m.id === 'rut_constrained_choice')!.details.rut_per_candidate as number[];
  for (const [i, file] of files.entries()) await expect(cell(page, 'rut', file)).toHaveText(rutPublic[i]!.toFixed(4));
  await expect(page.locator('#progress-panel')).toBeHidden();

  // A utility limit: the candidate below it is not eligible, and the CLI agrees on the rest.
  const limited = cliCompare(dir, ['--alpha', 'public', '--tau-u', '0.7']);
  await page.locator('#choice-tau-u').fill('0.7');
  await expect(best).toHaveAttribute('data-candidate', chosen(limited) ?? '');
  await expect(best.locator('li.infeasible')).toContainText(['lvl3.csv is not eligible: its utility U']);
  await expect(page.locator('#risk-utility-map .feasible-area')).toHaveCount(1);
  await page.locator('#results-panel').screenshot({ path: 'test-results/candidates-limit.png' });

  // An impossible limit: nothing is chosen, and the page says why.
  await page.locator('#choice-tau-r').fill('0.01');
  await expect(best).toHaveAttribute('data-candidate', '');
  await expect(best).toContainText('No candidate is chosen');
  await expect(best).toContainText('No candidate is within the risk and utility limits');
  expect(chosen(cliCompare(dir, ['--alpha', 'public', '--tau-u', '0.7', '--tau-r', '0.01']))).toBeNull();
  // None of this read a file again.
  await expect(page.locator('#progress-panel')).toBeHidden();

  // A narrow screen: the page does not scroll sideways (the table scrolls in its own box).
  await page.setViewportSize({ width: 400, height: 800 });
  await expectNoHorizontalOverflow(page);
  await page.locator('#results-panel').screenshot({ path: 'test-results/candidates-narrow.png' });
  expect(await violations()).toEqual([]);
});

test('compare candidates needs at least two releases', async ({ page }) => {
  await openApp(page);
  await page.locator('#candidates-input').setInputFiles(coreFixture('g3_released.csv'));
  await expect(page.locator('#messages .message-error')).toContainText('Choose at least two candidate releases.');
  await expect(page.locator('#profile-panel')).toBeHidden();
});

// --- one release -----------------------------------------------------------------------------

test('one release with its original and a reference table: R_external, R, safety and the RUT score', async ({ page }) => {
  const e3 = expandedE3();
  const dir = mkdtempSync(join(tmpdir(), 'pseudolens-e3-'));
  writeFileSync(join(dir, 'e3.csv'), e3);
  const args = (extra: string[] = []) => [
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
    '--reference',
    join(dir, 'e3.csv'),
    ...extra,
    '--json',
  ];
  const metrics = (JSON.parse(cli(args())) as { metrics: CliMetric[] }).metrics;
  const value = (id: string) => tableMetric(metrics, id).value as number;

  const violations = await watchCsp(page);
  await openG3(page);
  await page.locator('#reference-input').setInputFiles({ name: 'e3.csv', mimeType: 'text/csv', buffer: Buffer.from(e3) });
  await page.getByRole('button', { name: 'Run audit' }).click();

  const balance = page.locator('#balance-section');
  await openSection(page, 'balance-title');
  await expect(balance).toBeVisible({ timeout: 30_000 });
  // Golden G3.3: R_external 0.5027777778 over 11 of 12 matched records; R = max = 10/12.
  expect(value('r_external')).toBeCloseTo(0.5027777778, 9);
  await expect(balance.locator('.fact[data-metric="r_external"] .fact-value')).toHaveText('0.5028');
  await expect(balance.locator('.fact[data-metric="r_external"] .fact-explain')).toContainText('1 divided by the number of its look-alikes');
  await expect(balance.locator('.fact[data-metric="r_external_match_rate"] .fact-value')).toHaveText('91.67%');
  await expect(balance.locator('.fact[data-metric="r_external_match_rate"] .fact-explain')).toContainText(
    '11 of 12 records have look-alikes among the 21 rows',
  );
  await expect(balance.locator('.fact[data-metric="r_unique"] .fact-value')).toHaveText(value('r_unique').toFixed(4));
  const factors = tableMetric(metrics, 'r_external_probability').details.per_attribute as Record<string, number>;
  await expect(balance.locator('.fact[data-metric="r_external_probability"] .fact-explain')).toContainText(
    `The product of ${['age', 'zip', 'sex'].map((a) => `${a} ${factors[a]!.toFixed(4)}`).join(' × ')}.`,
  );
  await expect(balance.locator('.fact[data-metric="r_external_correlation"] .fact-value')).toHaveText(value('r_external_correlation').toFixed(4));
  await expect(balance.locator('.fact[data-metric="r_external_correlation"] .fact-explain')).toContainText('Pearson correlation');
  await expect(balance.locator('.card[data-metric="risk_r"] .card-value')).toHaveText('0.8333');
  await expect(balance.locator('.card[data-metric="risk_r"] .card-explain')).toContainText('R = the larger of R_internal 0.8333 and R_external 0.5028');
  await expect(balance.locator('.card[data-metric="safety"] .card-value')).toHaveText('0.1667');
  const rut = page.locator('#balance-section .card[data-metric="rut"]');
  await expect(rut.locator('.card-value')).toHaveText(value('rut').toFixed(4));
  await expect(page.locator('#rut-live')).toContainText(`= ${value('rut').toFixed(4)}`);
  await expect(page.locator('#rut-sweep canvas')).toHaveCount(1);
  await expect(page.locator('#rut-presets tr.chosen-row')).toHaveAttribute('data-preset', 'balanced');
  await expectNoHorizontalOverflow(page);
  await balance.screenshot({ path: 'test-results/balance-g3.png' });

  // A preset and a custom weight re-score the release without a new audit.
  const presets = tableMetric(metrics, 'rut').details.presets as Record<string, number>;
  await page.locator('#balance-preset-analytics').check();
  await expect(rut).toHaveAttribute('data-alpha', '0.7');
  await expect(rut.locator('.card-value')).toHaveText(presets.analytics!.toFixed(4));
  await expect(page.locator('#rut-presets tr.chosen-row')).toHaveAttribute('data-preset', 'analytics');
  await page.locator('#balance-alpha').fill('0.9');
  await expect(rut).toHaveAttribute('data-alpha', '0.9');
  await expect(rut.locator('.card-value')).toHaveText((0.9 * value('utility_u') + 0.1 * (1 - value('risk_r'))).toFixed(4));
  await page.locator('#balance-alpha').fill('1.5');
  await expect(page.locator('#balance-problem')).toContainText('from 0 to 1');
  await expect(page.locator('#progress-panel')).toBeHidden();

  // The risk combination of step 2: the weighted mean (golden 0.6680555556) after a new audit.
  const weighted = (JSON.parse(cli(args(['--risk-combination', 'weighted']))) as { metrics: CliMetric[] }).metrics;
  await page.locator('#risk-combination-weighted').check();
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#balance-section .card[data-metric="risk_r"] .card-value')).toHaveText('0.6681', { timeout: 30_000 });
  await expect(page.locator('#balance-section .card[data-metric="risk_r"] .card-explain')).toContainText(
    'R = 0.50 × R_internal 0.8333 + 0.50 × R_external 0.5028',
  );
  await expect(page.locator('#balance-section .card[data-metric="rut"] .card-value')).toHaveText((tableMetric(weighted, 'rut').value as number).toFixed(4));
  await expect(page.locator('#messages .message-error')).toHaveCount(0);
  expect(await violations()).toEqual([]);
});

test('only a reference table: linkage risk and R, and the RUT score asks for the original', async ({ page }) => {
  const e3 = expandedE3();
  await openG3(page, G3_ROLES, false);
  await page.locator('#reference-input').setInputFiles({ name: 'e3.csv', mimeType: 'text/csv', buffer: Buffer.from(e3) });
  await page.getByRole('button', { name: 'Run audit' }).click();
  const balance = page.locator('#balance-section');
  await expect(balance.locator('.fact[data-metric="r_external"] .fact-value')).toHaveText('0.5028', { timeout: 30_000 });
  await expect(balance.locator('.card[data-metric="risk_r"] .card-value')).toHaveText('0.8333');
  await expect(page.locator('#balance-no-utility')).toContainText('Give the original table');
  await expect(page.locator('#rut-sweep')).toHaveCount(0);
});

test('without a reference table or an original there is no balance section', async ({ page }) => {
  await openApp(page);
  await runSample(page);
  await expect(page.locator('#balance-section')).toHaveCount(0);
});
