// The page and the CLI run the same core, so they must print the same numbers, to the last bit:
// the page's JSON report and `pseudolens audit --settings <the page's settings> --retain --json` on
// the same generated file hold the same metrics and the same column profiles. Before the core took its
// logarithms, exponentials and powers from one portable library (libm) and its distinct-count
// sketch hashed with XXH64 everywhere, the wasm build differed in the last bits of several
// values and in the iterate a failed Pitman fit stopped at (docs/decisions/numeric/same-bits-everywhere.md). On this file the
// population-uniqueness curve differs between glibc's logarithms and libm's: a call back to
// the platform's functions fails here.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openApp } from './helpers.ts';

const CLI = process.env.PSEUDOLENS_CLI || 'target/release/pseudolens';
const QIS = ['age', 'sex', 'region', 'admission_date', 'ward'];
const SENSITIVE = ['diagnosis', 'procedure'];

test('the page reports the same metrics and column profiles as the CLI, value for value', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  expect(existsSync(CLI), `the CLI ${CLI} must be built first (cargo build --release)`).toBe(true);
  const path = testInfo.outputPath('generated.csv');
  writeFileSync(path, execFileSync(CLI, ['generate', '--rows', '30000', '--seed', '7'], { maxBuffer: 64 << 20 }));
  await openApp(page);
  await page.locator('#file-input').setInputFiles(path);
  const profile = page.locator('#profile-panel');
  await expect(profile).toContainText('generated.csv');
  for (const select of await profile.locator('select[data-column]').all()) {
    const column = (await select.getAttribute('data-column'))!;
    await select.selectOption(QIS.includes(column) ? 'quasi_identifier' : SENSITIVE.includes(column) ? 'sensitive' : 'insensitive');
  }
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-freshness')).toHaveAttribute('data-state', 'fresh', { timeout: 60_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download-json').click()]);
  const shown = JSON.parse(readFileSync((await download.path())!, 'utf8')) as Report;
  expect(shown.params.quasi_identifiers).toEqual(QIS);
  expect(shown.params.sensitive).toEqual(SENSITIVE);
  // The CLI with the page's settings (its report's `params` is a settings file).
  const settings = testInfo.outputPath('settings.json');
  writeFileSync(settings, JSON.stringify(shown.params));
  const cli = JSON.parse(
    execFileSync(CLI, ['audit', path, '--settings', settings, '--retain', '--json'], { encoding: 'utf8', maxBuffer: 256 << 20 }),
  ) as Report;

  // Every metric, value and details, as the CLI computed it (the population estimators'
  // fits, the entropies and the closeness distances included).
  expect(shown.metrics.map((m) => m.id)).toEqual(cli.metrics.map((m) => m.id));
  for (const [i, m] of shown.metrics.entries()) expect(m, m.id).toEqual(cli.metrics[i]);
  expect(shown.columns).toEqual(cli.columns);
});

interface Report {
  params: { quasi_identifiers: string[]; sensitive: string[] };
  metrics: { id: string }[];
  columns: unknown[];
}
