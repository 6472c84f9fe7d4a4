// Parquet and Excel input in the page (issue 14): dropped like a CSV file, read by the reader
// workers into the kept table (a Parquet file's row groups in runs, one run per worker), the profile naming the format; the same figures as the same
// table as CSV (tests/e2e/fixtures/formats.*, which crate/formats/tests/fixtures.rs writes and
// checks); a corrupt file gives a clear message; no request is made after the page loads.

import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { cardValue, fixture, openApp } from './helpers.ts';

const ROLES: Record<string, string> = {
  age: 'quasi_identifier',
  sex: 'quasi_identifier',
  zip: 'quasi_identifier',
  code: 'insensitive',
  amount: 'insensitive',
  note: 'sensitive',
};

const CARDS = ['k_anonymity', 'sample_uniques', 'prosecutor_records_at_risk', 'r_internal'];

/** Drops a file of these bytes on the drop zone, as a person would from the file manager. */
async function drop(page: Page, name: string, bytes: Buffer): Promise<void> {
  const transfer = await page.evaluateHandle(
    ({ name, base64 }) => {
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([data], name));
      return dt;
    },
    { name, base64: bytes.toString('base64') },
  );
  await page.dispatchEvent('#drop-zone', 'dragenter', { dataTransfer: transfer });
  await page.dispatchEvent('#drop-zone', 'drop', { dataTransfer: transfer });
}

/** Drops a fixture, checks its profile, sets the roles, runs the audit; returns the profile's
 * sentence, its column rows and the headline figures. */
async function audit(page: Page, name: string): Promise<{ lead: string; columns: string[]; cards: string[] }> {
  await drop(page, name, readFileSync(fixture(name)));
  const profile = page.locator('#profile-panel');
  await expect(profile).toContainText(name);
  await expect(profile.locator('tbody tr')).toHaveCount(6);
  const lead = await profile.locator('p.lead').innerText();
  const columns = await profile.locator('tbody tr').allInnerTexts();
  for (const [column, role] of Object.entries(ROLES)) await page.locator(`select[data-column="${column}"]`).selectOption(role);
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel')).toContainText('Quasi-identifiers: age, sex, zip');
  const cards = [];
  for (const id of CARDS) cards.push(await cardValue(page, id));
  return { lead, columns, cards };
}

test('a Parquet file and an Excel workbook give the figures of the same CSV; the only requests are the readers, once', async ({ page, context }) => {
  await openApp(page);
  // The standby worker loads its engine once the page's is ready.
  await expect(page.locator('html[data-standby="ready"]')).toBeAttached();
  let loaded = true;
  const after: string[] = [];
  context.on('request', (r) => {
    if (loaded) after.push(r.url());
  });
  const csv = await audit(page, 'formats.csv');
  expect(csv.lead).toContain('50 rows, 6 columns, read as utf-8 with comma as delimiter');
  // A CSV needs only the engine the page loaded.
  expect(after, 'requests after the page loaded, for a CSV').toEqual([]);

  const parquet = await audit(page, 'formats.parquet');
  expect(parquet.lead).toContain('50 rows, 6 columns, read from a Parquet file');
  expect(parquet.cards).toEqual(csv.cards);
  expect(parquet.columns).toEqual(csv.columns);
  // Its 4 row groups were read in runs by the reader workers (one per core, up to 4).
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  if (cores >= 2) await expect(page.locator('#read-note')).toContainText(`by ${Math.min(cores, 4)} workers in parallel`);

  const xlsx = await audit(page, 'formats.xlsx');
  expect(xlsx.lead).toContain('50 rows, 6 columns, read from sheet “Release” of an Excel workbook');
  expect(xlsx.cards).toEqual(csv.cards);
  expect(xlsx.columns).toEqual(csv.columns);
  loaded = false;
  // The Parquet and Excel readers, a module of their own, fetched from the page's origin when
  // the first such file was chosen (issue 40), and nothing else: the wasm once (compiled by the
  // audit worker), its script once per worker that reads such a file.
  const origin = new URL(page.url()).origin;
  const wasm = new RegExp(`^${origin}/assets/pseudolens_readers_bg-[\\w-]+\\.wasm$`);
  const glue = new RegExp(`^${origin}/assets/pseudolens_readers-[\\w-]+\\.js$`);
  expect(
    after.filter((u) => wasm.test(u)),
    'the readers fetched once',
  ).toHaveLength(1);
  expect(
    after.filter((u) => !wasm.test(u) && !glue.test(u)),
    'requests after the page loaded, not the readers',
  ).toEqual([]);
});

test('a corrupt Parquet file gives a clear message, and the next file reads', async ({ page }) => {
  await openApp(page);
  const bytes = readFileSync(fixture('formats.parquet'));
  await drop(page, 'cut.parquet', bytes.subarray(0, bytes.length - 30));
  const messages = page.locator('#messages');
  await expect(messages).toContainText('cut.parquet could not be read as a table: it is not a readable Parquet file.');
  await expect(messages).toContainText('unreadable_parquet');
  // A file named as Parquet that is not one.
  await drop(page, 'text.parquet', Buffer.from('a,b\n1,2\n'));
  await expect(messages).toContainText('PAR1');
  const after = await audit(page, 'formats.xlsx');
  expect(after.lead).toContain('Excel workbook');
});

test('a Parquet file on which the reader panics stops one reader worker, with a clear message', async ({ page }) => {
  await openApp(page);
  // Found by the fuzz target parquet_file: the Parquet reader panics on it, which aborts the
  // WebAssembly instance of the reader worker that read it.
  await drop(page, 'panics.parquet', readFileSync(fixture('panics.parquet')));
  const messages = page.locator('#messages');
  await expect(messages).toContainText('panics.parquet stopped the file reader: it may be damaged or cut short.');
  await expect(messages).toContainText('The Parquet reader stopped on this file');
  // The page goes on: the next file is read by another reader.
  const after = await audit(page, 'formats.parquet');
  expect(after.lead).toContain('read from a Parquet file');
});

test('a workbook of several sheets: step 2 offers them, and choosing one reads it instead', async ({ page }) => {
  await openApp(page);
  await page.locator('#file-input').setInputFiles(fixture('formats.xlsx'));
  const profile = page.locator('#profile-panel');
  await expect(profile.locator('p.lead')).toContainText('50 rows, 6 columns, read from sheet “Release” of an Excel workbook');
  const sheet = page.getByLabel('Sheet read:');
  await expect(sheet).toHaveValue('Release');
  expect(await sheet.locator('option').allInnerTexts()).toEqual(['Release', 'Codes']);

  // The keyboard alone: focus the field, pick the next sheet.
  await sheet.focus();
  await sheet.selectOption('Codes');
  await expect(profile.locator('p.lead')).toContainText('3 rows, 2 columns, read from sheet “Codes” of an Excel workbook');
  await expect(profile.locator('tbody tr')).toHaveCount(2);
  await expect(page.getByLabel('Sheet read:')).toHaveValue('Codes');
  await page.locator('select[data-column="code"]').selectOption('quasi_identifier');
  await page.locator('select[data-column="label"]').selectOption('insensitive');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel')).toContainText('Quasi-identifiers: code');
  expect(await cardValue(page, 'k_anonymity')).toBe('1');

  // A CSV or a one-sheet file offers no choice.
  await page.locator('#file-input').setInputFiles(fixture('formats.csv'));
  await expect(profile.locator('p.lead')).toContainText('read as utf-8');
  await expect(page.getByLabel('Sheet read:')).toHaveCount(0);
});

test('offline before the first Parquet file: the page says the readers could not be fetched, and reads it once back online', async ({ page, context }) => {
  await openApp(page);
  await expect(page.locator('html[data-standby="ready"]')).toBeAttached();
  await context.setOffline(true);
  await page.locator('#file-input').setInputFiles(fixture('formats.parquet'));
  const messages = page.locator('#messages');
  await expect(messages).toContainText('formats.parquet needs the Parquet and Excel readers, which could not be fetched.');
  await expect(messages).toContainText('This browser is offline and the page is not installed for offline use.');
  await expect(messages).not.toContainText('inside the audit engine');
  await context.setOffline(false);
  await page.locator('#file-input').setInputFiles(fixture('formats.parquet'));
  await expect(page.locator('#profile-panel p.lead')).toContainText('50 rows, 6 columns, read from a Parquet file');
});
