// The header row (issue 36): an export's title above its header is skipped and named in a
// warning; the "Header row" field names the header's row and reads the file again; a
// settings file's `header_row` fills the field; the roles come from German column names; the
// file button names no single format.

import { expect, test, type Page } from '@playwright/test';
import { fixture, openApp } from './helpers.ts';

async function roleOf(page: Page, column: string): Promise<string> {
  return page.locator(`select[data-column="${column}"]`).inputValue();
}

test('a title row is skipped, the header row can be named, and German names get roles', async ({ page }, testInfo) => {
  await openApp(page);
  await expect(page.locator('.file-label', { has: page.locator('#file-input') })).toHaveText('Choose a file…');
  for (const [name, at] of [
    ['titled.csv', 'line 3'],
    ['titled.xlsx', 'row 3'],
  ]) {
    await page.locator('#file-input').setInputFiles(fixture(name));
    const profile = page.locator('#profile-panel');
    await expect(profile).toContainText(name);
    await expect(profile.locator('tbody tr')).toHaveCount(5);
    await expect(profile.locator('li[data-code="header_row"]')).toContainText(`The header was read from ${at}`);
    await expect(profile.locator('li[data-code="empty_column_name"]')).toHaveCount(0);
    expect(await roleOf(page, 'Nachname')).toBe('direct_identifier');
    for (const column of ['Geburtsdatum', 'Geschlecht', 'PLZ']) expect(await roleOf(page, column)).toBe('quasi_identifier');
    expect(await roleOf(page, 'Diagnose')).toBe('sensitive');
  }
  await page.screenshot({ path: testInfo.outputPath('titled.png'), fullPage: true });
  // Row 4 named: the first data row becomes the header, the file is read again.
  await page.locator('#header-row').fill('4');
  await page.locator('#header-row').press('Tab');
  const profile = page.locator('#profile-panel');
  await expect(profile.locator('select[data-column="Müller"]')).toHaveCount(1);
  await expect(profile.locator('li[data-code="header_row"]')).toContainText('The header was read from row 4');
  await page.screenshot({ path: testInfo.outputPath('named.png'), fullPage: true });
  // Blank again: detected.
  await page.locator('#header-row').fill('');
  await page.locator('#header-row').press('Tab');
  await expect(profile.locator('select[data-column="Nachname"]')).toHaveCount(1);
});

test("a settings file's header_row fills the field before a file is chosen", async ({ page }) => {
  await openApp(page);
  await page.locator('#settings-input').setInputFiles({
    name: 'settings.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ header_row: 2 })),
  });
  await expect(page.locator('#header-row')).toHaveValue('2');
  await page.locator('#file-input').setInputFiles(fixture('formats.csv'));
  const profile = page.locator('#profile-panel');
  await expect(profile.locator('li[data-code="header_row"]')).toContainText('The header was read from line 2');
  await expect(profile.locator('select[data-column="20"]')).toHaveCount(1);
});
