// A synthetic or perturbed release (spec synthetic.md; issue 39): chosen with "Check a
// synthetic or perturbed release…", its original and a holdout given in step 2, every measure
// shown with the CLI's value for the same files and settings, the charts drawn (propensity and
// DCR histograms, correlation heat maps, the PCA scatter), the HTML report holding the section,
// the shareable JSON and HTML without the scatter's points; from the keyboard and at 390 px.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { expectNoHorizontalOverflow, openApp, openSection } from './helpers.ts';

const CLI = process.env.PSEUDOLENS_CLI || 'target/release/pseudolens';

/** A small seeded population (a linear congruential generator: the same tables every run). */
function table(seed: number, rows: number, noise: number): string {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const lines = ['age,sex,zip,income,diag'];
  for (let i = 0; i < rows; i++) {
    const age = 20 + Math.floor(next() * 60);
    const sex = next() < 0.5 ? 'F' : 'M';
    const zip = ['100', '200', '300'][Math.floor(next() * 3)];
    const income = Math.round((2000 + age * 60 + next() * 1500 + (noise ? (next() - 0.5) * noise : 0)) / 10) * 10;
    const diag = ['flu', 'cold', 'asthma', 'diabetes'][Math.floor(next() * (age > 50 ? 4 : 3))];
    lines.push(`${age},${sex},${zip},${income},${diag}`);
  }
  return `${lines.join('\n')}\n`;
}

const O = table(1, 300, 0);
// The release: the original's records with noise on the income, as a perturbed release is.
const P = O.split('\n')
  .map((line, i) => {
    if (i === 0 || line === '') return line;
    const cells = line.split(',');
    cells[3] = String(Number(cells[3]) + ((i * 37) % 7) * 50 - 150);
    return cells.join(',');
  })
  .join('\n');
const H = table(2, 300, 0);
const ROLES: Record<string, string> = { age: 'insensitive', sex: 'quasi_identifier', zip: 'quasi_identifier', income: 'insensitive', diag: 'sensitive' };
const csv = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

interface CliMetric {
  id: string;
  family: string;
  value: number | null;
  status: string;
  details: Record<string, unknown>;
}

function cliReport(): CliMetric[] {
  expect(existsSync(CLI), `the CLI ${CLI} must be built first (cargo build --release)`).toBe(true);
  const dir = mkdtempSync(join(tmpdir(), 'synthetic-'));
  for (const [name, text] of [
    ['o.csv', O],
    ['p.csv', P],
    ['h.csv', H],
  ])
    writeFileSync(join(dir, name!), text!);
  const args = ['audit', join(dir, 'p.csv'), '--original', join(dir, 'o.csv'), '--holdout', join(dir, 'h.csv'), '--synthetic'];
  args.push('--qi', 'sex,zip', '--sensitive', 'diag', '--json');
  const report = JSON.parse(execFileSync(CLI, args, { encoding: 'utf8', maxBuffer: 64 << 20 })) as { metrics: CliMetric[] };
  return report.metrics.filter((m) => m.family === 'synthetic');
}

const value = (metrics: CliMetric[], id: string): number => {
  const m = metrics.find((x) => x.id === id);
  expect(m?.status, `${id} is computed by the CLI`).toBe('ok');
  return m!.value!;
};
const fixed = (x: number, digits: number) => x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const pct = (x: number) => `${(x * 100).toFixed(2)}%`;

test('a synthetic release with its original and holdout shows every measure as the CLI computes it, charted, from the keyboard at 390 px', async ({ page }) => {
  const cli = cliReport();
  await page.setViewportSize({ width: 390, height: 900 });
  await openApp(page);
  await page.locator('#synthetic-input').setInputFiles(csv('release.csv', P));
  await expect(page.locator('#profile-panel')).toContainText('release.csv');
  await expect(page.locator('#compare-note')).toContainText('synthetic or perturbed release');
  for (const [column, role] of Object.entries(ROLES)) await page.locator(`select[data-column="${column}"]`).selectOption(role);
  // Without the original the run says what is missing.
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#audit-problem')).toContainText('measured against its original table');

  await page.locator('#original-input').setInputFiles(csv('original.csv', O));
  await page.locator('#record-id').selectOption('');
  // The mode turned the measures on; the holdout field is shown with them.
  await expect(page.locator('#synthetic-on')).toBeChecked();
  await page.locator('#holdout-input').setInputFiles(csv('holdout.csv', H));
  await expect(page.locator('#holdout-chosen')).toContainText('holdout.csv');
  await expectNoHorizontalOverflow(page);
  // Keyboard: the run button from the keyboard.
  await page.getByRole('button', { name: 'Run audit' }).focus();
  await page.keyboard.press('Enter');

  const section = page.locator('#synthetic-section');
  await expect(section).toBeAttached({ timeout: 30_000 });
  await openSection(page, 'synthetic-title');
  const factValue = (id: string) => section.locator(`[data-metric="${id}"] .fact-value`).first();
  await expect(factValue('k_marginal')).toHaveText(`${fixed(value(cli, 'k_marginal'), 0)} of 1,000`);
  await expect(factValue('unique_exact_matches')).toHaveText(pct(value(cli, 'unique_exact_matches') / 100));
  await expect(factValue('apparent_match')).toHaveText(pct(value(cli, 'apparent_match') / 100));
  await expect(factValue('pmse')).toHaveText(value(cli, 'pmse').toFixed(4));
  await expect(factValue('correlation_difference')).toHaveText(fixed(value(cli, 'correlation_difference'), 3));
  await expect(factValue('pca_comparison')).toHaveText(value(cli, 'pca_comparison').toFixed(4));
  await expect(factValue('dcr_baseline_protection')).toHaveText(value(cli, 'dcr_baseline_protection').toFixed(4));
  await expect(factValue('dcr_overfitting_protection')).toHaveText(value(cli, 'dcr_overfitting_protection').toFixed(4));
  await expect(factValue('disclosure_protection')).toHaveText(value(cli, 'disclosure_protection').toFixed(4));
  const se = cli.find((m) => m.id === 'k_marginal')!.details.sampling_equivalent as { equivalent_percent: number };
  await expect(section.locator('[data-metric="k_marginal"]').nth(1)).toContainText(`${se.equivalent_percent} % of the original`);
  // Each measure says what is good.
  await expect(section).toContainText('0 % is what a synthetic release should show');
  await expect(section).toContainText('1 is best');

  // The charts: propensity and both DCR histograms (canvas), the heat maps, the scatter.
  for (const id of ['pmse-histogram', 'dcr-baseline-histogram', 'dcr-holdout-histogram']) await expect(section.locator(`#${id} canvas`)).toBeAttached();
  await expect(section.locator('#synthetic-pearson-difference tbody td')).toHaveCount(25);
  await expect(section.locator('#synthetic-kendall-difference')).toBeAttached();
  const points = cli.find((m) => m.id === 'pca_comparison')!.details.scatter as { original: unknown[]; released: unknown[] };
  await expect(section.locator('#pca-scatter .dots-original circle')).toHaveCount(points.original.length);
  await expect(section.locator('#pca-scatter .dots-released circle')).toHaveCount(points.released.length);
  // The samples of the sampling-equivalent, opened from the keyboard.
  const samples = section.locator('.synthetic-samples');
  await samples.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(samples.locator('tbody tr')).toHaveCount(11);
  await expectNoHorizontalOverflow(page);

  // The HTML report holds the section with its scatter.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download HTML report' }).click()]);
  const html = readFileSync((await download.path())!, 'utf8');
  expect(html).toContain('id="synthetic-section"');
  expect(html).toContain('<g class="dots-released">');
  // The shareable variant leaves out the scatter's points (each is one record) in JSON and HTML.
  await page
    .getByRole('group', { name: 'Report to download' })
    .getByRole('radio', { name: /Shareable/ })
    .check();
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON report' }).click()]);
  const shared = JSON.parse(readFileSync((await json.path())!, 'utf8')) as { metrics: CliMetric[] };
  const pcaShared = shared.metrics.find((m) => m.id === 'pca_comparison')!;
  expect(pcaShared.value).toBe(value(cli, 'pca_comparison'));
  expect(pcaShared.details.scatter).toBeUndefined();
  expect(shared.metrics.find((m) => m.id === 'apparent_match')!.details.records).toBeUndefined();
  const [sharedHtml] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download HTML report' }).click()]);
  const text = readFileSync((await sharedHtml.path())!, 'utf8');
  expect(text).toContain('id="synthetic-section"');
  expect(text).not.toContain('<g class="dots-released">');
});

test('a release without a holdout says the overfitting measure needs one, and the other measures still show', async ({ page }) => {
  await openApp(page);
  await page.locator('#file-input').setInputFiles(csv('release.csv', P));
  await expect(page.locator('#profile-panel')).toContainText('release.csv');
  for (const [column, role] of Object.entries(ROLES)) await page.locator(`select[data-column="${column}"]`).selectOption(role);
  // Outside the mode the box is there once an original is given, and off.
  await expect(page.locator('#synthetic-on')).toBeHidden();
  await page.locator('#original-input').setInputFiles(csv('original.csv', O));
  await expect(page.locator('#synthetic-on')).not.toBeChecked();
  await expect(page.locator('#holdout-input')).toBeHidden();
  await page.locator('#synthetic-on').check();
  await page.getByRole('button', { name: 'Run audit' }).click();
  const section = page.locator('#synthetic-section');
  await expect(section).toBeAttached({ timeout: 30_000 });
  await openSection(page, 'synthetic-title');
  await expect(section.locator('[data-metric="dcr_overfitting_protection"]')).toContainText('no holdout table was given');
  await expect(section.locator('[data-metric="k_marginal"] .fact-value').first()).toContainText('of 1,000');
  await expect(section).toContainText('Give a holdout table');
});
