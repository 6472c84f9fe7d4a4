// The population table's column names come from the core (issue 13: header reading is kept
// once, in the core): the worker reads the header as the audit will, so a Windows-1252 header
// shows its accented names, which the page's own UTF-8 reading of the bytes garbled.

import { expect, test } from '@playwright/test';
import { expandedE3, openG3 } from './helpers.ts';

test('a Windows-1252 population table shows its column names as the core reads them', async ({ page }) => {
  await openG3(page);
  await page.locator('#reference-input').setInputFiles({
    name: 'e3-latin1.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(expandedE3({ age: 'Âge (années)' }), 'latin1'),
  });
  const age = page.locator('#reference-matching select[data-qi="age"]');
  await expect(age.locator('option')).toHaveText(['not in the reference table', 'Âge (années)', 'zip', 'sex']);
  await age.selectOption('Âge (années)');
  await expect(page.locator('#reference-matching select[data-qi="zip"]')).toHaveValue('zip');
});
