// Shareable settings (issue 13, Deliver 3): the roles and every setting of an audit travel in
// the link's fragment (format version, SHA-256 of the file) and in a settings file with the
// configuration's keys. A link made on one page, opened in a fresh browser context with the same
// file, gives the same JSON report; another file gets a warning and no audit; the settings file
// restores step 2 and the CLI reads it with --settings to the same JSON; queries (data values)
// stay out of the link, and the page says so.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import init, { sample_csv } from '../../web/pkg/pseudolens_wasm.js';
import { linkFragment } from '../../web/src/setup/settings-share.ts';
import type { AuditConfig } from '../../web/src/shared/report.ts';
import { jsonDifferences as differences, openApp, openG3 } from './helpers.ts';

const CLI = process.env.PSEUDOLENS_CLI || 'target/release/pseudolens';

type Json = Record<string, unknown>;

async function save(page: Page, button: string): Promise<{ name: string; text: string; path: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  const path = (await download.path())!;
  return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8'), path };
}

async function chooseFile(page: Page, path: string, name: string): Promise<void> {
  await page.locator('#file-input').setInputFiles(path);
  await expect(page.locator('#profile-panel')).toContainText(name);
}

async function results(page: Page): Promise<void> {
  await expect(page.locator('#results-panel [data-metric="k_anonymity"] .card-value')).toBeVisible({ timeout: 30_000 });
}

/** The settings of a link's fragment, decoded as the page does. */
function fragmentSettings(link: string): Json {
  const params = new URLSearchParams(new URL(link).hash.slice(1));
  const b64 = params.get('settings')!.replace(/-/g, '+').replace(/_/g, '/');
  return JSON.parse(Buffer.from(b64, 'base64').toString('utf8')) as Json;
}

/** A report without how its rows were read (kept in the page, streamed by the CLI). */
function withoutRead(r: Json): Json {
  const { read: _, ...rest } = r;
  return rest;
}

test('a link restores the audit exactly in a fresh browser, warns on another file, and the settings file feeds the CLI', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  await init({ module_or_path: readFileSync(new URL('../../web/pkg/pseudolens_wasm_bg.wasm', import.meta.url)) });
  const bytes = Buffer.from(sample_csv());
  const samplePath = resolve('test-results/settings-sample.csv');
  writeFileSync(samplePath, bytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const lines = bytes.toString('utf8').trimEnd().split('\n');
  const otherPath = resolve('test-results/settings-other.csv');
  writeFileSync(otherPath, `${lines.slice(0, -1).join('\n')}\n`);

  // The audit on one page, with roles and settings other than the proposed ones.
  await openApp(page);
  await chooseFile(page, samplePath, 'settings-sample.csv');
  await page.locator('select[data-column="ward"]').selectOption('quasi_identifier');
  await page.locator('select[data-column="length_of_stay"]').selectOption('sensitive');
  await page.locator('#threshold').fill('0.3');
  await page.locator('#population-region').selectOption('Germany');
  await page.locator('#l-threshold').fill('3');
  await page.locator('#scorr-k-min').fill('5');
  await page.locator('#risk-combination-sum').check();
  await page.locator('#rut-alpha-preset').selectOption('analytics');
  await page.locator('#advice-k').fill('3');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await results(page);
  const made = JSON.parse((await save(page, 'Download JSON report')).text) as Json & { params: Json; input: { sha256: string } };
  expect(made.input.sha256).toBe(sha256);
  expect(made.params.population_region).toBe('Germany');

  // The link: a format version, the file's SHA-256, the settings; no query, no data value.
  await page.getByText('Share these settings: a link or a settings file').click();
  const link = await page.locator('#settings-link').inputValue();
  expect(link.startsWith(`${baseURL}/#pseudolens=1&sha256=${sha256}&settings=`)).toBe(true);
  const inLink = fragmentSettings(link);
  expect(inLink).toEqual(Object.fromEntries(Object.entries(made.params).filter(([k]) => k !== 'queries' && k !== 'attributes')));
  await expect(page.locator('#settings-left-out')).toBeHidden();
  const settingsFile = await save(page, 'Download settings file');
  expect(settingsFile.name).toBe('pseudolens-settings-settings-sample.json');
  expect(JSON.parse(settingsFile.text)).toEqual(made.params);

  // A fresh browser context: the link, then the same file: the audit runs by itself, the same.
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  await expect(other.locator('html[data-engine="ready"]')).toBeAttached();
  await expect(other.locator('#settings-note')).toContainText(
    `The settings of the link are ready: choose the file they were made for (SHA-256 ${sha256.slice(0, 16)}…)`,
  );
  await chooseFile(other, samplePath, 'settings-sample.csv');
  await results(other);
  await expect(other.locator('#messages')).toContainText('Roles and settings set from the link');
  await expect(other.locator('#threshold')).toHaveValue('0.3');
  await expect(other.locator('select[data-column="ward"]')).toHaveValue('quasi_identifier');
  await expect(other.locator('#population-kind-region')).toBeChecked();
  const again = JSON.parse((await save(other, 'Download JSON report')).text) as Json;
  expect(again).toEqual(made);
  await fresh.close();

  // Another file: a warning naming both hashes, and no audit.
  const wrong = await browser.newContext();
  const third = await wrong.newPage();
  await third.goto(link);
  await expect(third.locator('html[data-engine="ready"]')).toBeAttached();
  await chooseFile(third, otherPath, 'settings-other.csv');
  const warning = third.locator('#messages .message-error');
  await expect(warning).toContainText('This is not the file the settings of the link were made for.');
  await expect(warning).toContainText(sha256);
  await expect(third.locator('#threshold')).toHaveValue('0.3');
  await third.waitForTimeout(500);
  await expect(third.locator('#results-panel')).toBeHidden();
  await third.screenshot({ path: 'test-results/settings-other-file.png' });
  await wrong.close();

  // The CLI on the same file with the downloaded settings: the same JSON.
  expect(existsSync(CLI), `the CLI ${CLI} must be built first`).toBe(true);
  const cli = JSON.parse(execFileSync(CLI, ['audit', samplePath, '--settings', settingsFile.path, '--json'], { maxBuffer: 256 << 20 }).toString()) as Json;
  expect(differences(withoutRead(cli), withoutRead(made))).toEqual([]);
});

test('a settings file loaded in step 2 restores the form and the audit', async ({ page }) => {
  await init({ module_or_path: readFileSync(new URL('../../web/pkg/pseudolens_wasm_bg.wasm', import.meta.url)) });
  const samplePath = resolve('test-results/settings-file-sample.csv');
  writeFileSync(samplePath, Buffer.from(sample_csv()));
  await openApp(page);
  await chooseFile(page, samplePath, 'settings-file-sample.csv');
  await page.locator('select[data-column="sex"]').selectOption('insensitive');
  await page.locator('#policy-wildcard').check();
  await page.locator('#population-size').fill('80000');
  await page.locator('#beta-threshold').fill('2');
  await page.locator('#scorr-k-persons').check();
  await page.locator('select[data-column="patient_id"]').selectOption('person_id');
  await page.locator('#rut-alpha-preset').selectOption('custom');
  await page.locator('#rut-alpha').fill('0.65');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await results(page);
  const made = JSON.parse((await save(page, 'Download JSON report')).text) as Json;
  await page.getByText('Share these settings: a link or a settings file').click();
  const saved = await save(page, 'Download settings file');
  const file = { name: saved.name, path: resolve(`test-results/${saved.name}`) };
  writeFileSync(file.path, saved.text);

  // A new page, the same file, proposed roles; then the settings file.
  await openApp(page);
  await chooseFile(page, samplePath, 'settings-file-sample.csv');
  await expect(page.locator('select[data-column="sex"]')).toHaveValue('quasi_identifier');
  await page.locator('#settings-input').setInputFiles(file.path);
  await expect(page.locator('#messages')).toContainText(`Roles and settings set from ${file.name}`);
  await expect(page.locator('select[data-column="sex"]')).toHaveValue('insensitive');
  await expect(page.locator('select[data-column="patient_id"]')).toHaveValue('person_id');
  await expect(page.locator('#policy-wildcard')).toBeChecked();
  await expect(page.locator('#population-size')).toHaveValue('80000');
  await expect(page.locator('#beta-threshold')).toHaveValue('2');
  await expect(page.locator('#scorr-k-persons')).toBeChecked();
  await expect(page.locator('#rut-alpha')).toHaveValue('0.65');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await results(page);
  expect(JSON.parse((await save(page, 'Download JSON report')).text)).toEqual(made);
});

test('queries hold data values: the link leaves them out and says so, the settings file keeps them', async ({ page }) => {
  await openG3(page);
  await page.locator('#query-group-by').selectOption(['sex']);
  await page.locator('#query-aggregate').selectOption('share');
  await page.locator('#query-column').selectOption('diag');
  await page.locator('#query-value').fill('Flu');
  await page.getByRole('button', { name: 'Add query' }).click();
  await page.getByRole('button', { name: 'Run audit' }).click();
  await results(page);
  await page.getByText('Share these settings: a link or a settings file').click();
  await expect(page.locator('#settings-left-out')).toHaveText(
    'The link leaves out your queries: they hold values of the data, so they travel only in the settings file.',
  );
  const link = await page.locator('#settings-link').inputValue();
  expect(fragmentSettings(link)).not.toHaveProperty('queries');
  expect(link).not.toContain('Flu');
  const file = JSON.parse((await save(page, 'Download settings file')).text) as { queries: unknown[] };
  expect(file.queries).toEqual([{ group_by: ['sex'], aggregate: 'share', column: 'diag', value: 'Flu' }]);
  await page.locator('#share-settings').screenshot({ path: 'test-results/share-settings.png' });
});

test('a link of another format or a damaged one is refused with a sentence', async ({ page }) => {
  await page.goto('/#pseudolens=2&settings=e30');
  await expect(page.locator('html[data-engine="ready"]')).toBeAttached();
  await expect(page.locator('#messages .message-error')).toContainText('This link holds settings of format 2; this page reads format 1.');
  await expect(page.locator('#settings-note')).toBeHidden();
  await page.goto('/#pseudolens=1&settings=bm90IGpzb24');
  await expect(page.locator('#messages .message-error')).toContainText('The settings in this link are damaged');
  // A good link pasted into the open page (only the fragment changes) is taken too.
  await page.goto('/#pseudolens=1&settings=eyJxdWFzaV9pZGVudGlmaWVycyI6WyJhZ2UiXX0');
  await expect(page.locator('#settings-note')).toHaveText(
    'The settings of the link are ready: choose the file they are for. Its roles and settings will be set from them, and the audit run.',
  );
});

test('a file read in parallel is checked against the link by its hash, which comes after its profile, and an audit run at once names it', async ({
  browser,
  baseURL,
}, testInfo) => {
  // ~30 MB: read by the reader workers, hashed beside them; the profile does not wait for the
  // hash, the link's settings do (whichever comes first, the same outcome).
  const path = testInfo.outputPath('parallel.csv');
  const rows = Array.from({ length: 20_000 }, (_, i) => `P${i},${20 + (i % 70)},${i % 2 ? 'F' : 'M'},W${i % 9}\n`).join('');
  writeFileSync(path, `patient,age,sex,ward\n${rows.repeat(90)}`);
  const sha256 = createHash('sha256').update(readFileSync(path)).digest('hex');
  const settings = { quasi_identifiers: ['age', 'sex'], sensitive: [], threshold: 0.3 } as unknown as AuditConfig;
  for (const [hash, same] of [
    [sha256, true],
    ['0'.repeat(64), false],
  ] as const) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseURL}/${linkFragment(settings, hash)}`);
    await expect(page.locator('html[data-engine="ready"]')).toBeAttached();
    await chooseFile(page, path, 'parallel.csv');
    await expect(page.locator('#read-note')).toContainText('workers in parallel');
    if (same) {
      await results(page);
      await expect(page.locator('#messages')).toContainText('Roles and settings set from the link');
      const report = JSON.parse((await save(page, 'Download JSON report')).text) as { input: { sha256: string } };
      expect(report.input.sha256).toBe(sha256);
    } else {
      await expect(page.locator('#messages .message-error')).toContainText(`The link names the file with SHA-256 ${hash}; parallel.csv has ${sha256}.`);
      await expect(page.locator('#threshold')).toHaveValue('0.3');
      await page.waitForTimeout(500);
      await expect(page.locator('#results-panel')).toBeHidden();
    }
    await context.close();
  }
  // Without a link, Run audit clicked as soon as the profile is shown: the audit may start
  // before the hash is done (it runs beside it) and its report still names the file's hash.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${baseURL}/`);
  await expect(page.locator('html[data-engine="ready"]')).toBeAttached();
  await chooseFile(page, path, 'parallel.csv');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await results(page);
  const report = JSON.parse((await save(page, 'Download JSON report')).text) as { input: { sha256: string } };
  expect(report.input.sha256).toBe(sha256);
  await context.close();
});
