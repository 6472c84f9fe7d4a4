// Utility against the original table (spec utility.md Sec 11, the permutation model): the
// Census IPSO release 01 against its original, paired by record id, must show the CLI's
// UM, CM1, CM2 and CM3; a row-order pairing of tables of different length must say why the
// paired measures are missing while UM is still shown; a problem in the original names it.

import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { expectNoHorizontalOverflow, openApp } from './helpers.ts';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const csv = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

const utility = (page: Page) => page.locator('#utility-section');
const cardValue = (page: Page, id: string) => utility(page).locator(`.card[data-metric="${id}"] .card-value`);

async function openReleased(page: Page, file: string | ReturnType<typeof csv>, label: string): Promise<void> {
  await page.locator('#file-input').setInputFiles(file);
  await expect(page.locator('#profile-panel')).toContainText(label);
}

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
  await expect(cardValue(page, 'perm_um')).toHaveText('0.9547', { timeout: 30_000 });
  await expect(cardValue(page, 'perm_cm1')).toHaveText('0.9880');
  await expect(cardValue(page, 'perm_cm2')).toHaveText('0.9832');
  await expect(cardValue(page, 'perm_cm3')).toHaveText('0.6612');
  await expect(page.locator('#utility-weakest')).toHaveText('Weakest column: FEDTAX');
  await expect(utility(page).locator('.card[data-metric="perm_um"]')).toContainText('higher = more useful');
  await expect(utility(page).locator('.card[data-metric="perm_cm3"]')).toContainText('higher = more protective');
  await expect(page.locator('#utility-alignment')).toContainText('Rows paired by the record id column “record_id”');
  await expect(page.locator('#utility-alignment')).toContainText('every original record is in the released file');
  await expect(page.locator('#utility-alignment')).toContainText('1,080 pairs');
  await expect(page.locator('#utility-pairing-error')).toHaveCount(0);

  const rows = page.locator('#reverse-mapping tbody tr');
  await expect(rows).toHaveCount(4);
  await expect(rows.first()).toHaveText(/^FICA\s*368\.7\s*1,063\s*0\.19%\s*186\.39$/);

  // Utility only: no identity results, no error, no stray numbers.
  await expect(page.locator('#results-panel .lead')).toContainText('only the utility results are shown');
  await expect(page.locator('#verdict')).toHaveCount(0);
  await expect(page.locator('#messages .message-error')).toHaveCount(0);
  await expect(page.locator('#results-panel')).not.toContainText('NaN');
  await expect(page.locator('#results-panel [style]')).toHaveCount(0);
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
  await expect(cardValue(page, 'perm_cm3')).toHaveText('0.6612', { timeout: 30_000 });
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
  const head = 'rid,city,a,b\n' + Array.from({ length: 80_000 }, (_, i) => `${i + 10},Koeln,${i % 7},${i % 11}\n`).join('');
  const tail = Buffer.from('A1,M\xfcnchen,1,2\nB2,K\xf6ln,2,5\nC\xe93,K\xf6ln,3,1\nD4,Ulm,4,4\n', 'latin1');
  await page.locator('#original-input').setInputFiles({ name: 'before.csv', mimeType: 'text/csv', buffer: Buffer.concat([Buffer.from(head), tail]) });
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(cardValue(page, 'perm_cm1')).toHaveText(/^\d\.\d{4}$/);
  await expect(page.locator('#utility-alignment')).toContainText('80,000 original records are not in the released file');
  await expect(page.locator('#messages .message-error')).toHaveCount(0);
  await expect(page.locator('#messages .message-note')).toContainText('The original table is not UTF-8 text');
});
