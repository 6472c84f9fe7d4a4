// A hospital-like German export for protect's tests (issue 38): `;`, CRLF, dates written
// DD.MM.YYYY, postcodes of two cities; seeded; and its audit with the roles of
// a hospital's export.

import { expect, type Page } from '@playwright/test';

export const ROLES: Record<string, string> = {
  Alter: 'quasi_identifier',
  PLZ: 'quasi_identifier',
  Aufnahme: 'quasi_identifier',
  Geschlecht: 'quasi_identifier',
  Diagnose: 'sensitive',
};

/** `count` admissions (600 by default), seeded: ages 18-89, 5-digit postcodes of two cities,
 * admissions over 2023-2024. */
export function hospitalExport(count = 600): string {
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const rows = ['Alter;PLZ;Aufnahme;Geschlecht;Diagnose'];
  for (let i = 0; i < count; i++) {
    const dd = String(1 + next(28)).padStart(2, '0');
    const mm = String(1 + next(12)).padStart(2, '0');
    const plz = (next(2) ? 10115 : 80331) + next(40);
    rows.push(`${18 + next(72)};${plz};${dd}.${mm}.${2023 + next(2)};${next(2) ? 'm' : 'w'};${['I10', 'E11', 'J45', 'K21'][next(4)]}`);
  }
  return `${rows.join('\r\n')}\r\n`;
}

/** Audits `body` as the file `name` with the hospital's roles; resolves once results are shown. */
export async function auditExport(page: Page, name: string, body: Buffer): Promise<void> {
  await page.locator('#file-input').setInputFiles({ name, mimeType: 'text/csv', buffer: body });
  await expect(page.locator('#profile-panel')).toContainText(name);
  for (const [column, role] of Object.entries(ROLES)) await page.locator(`select[data-column="${column}"]`).selectOption(role);
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel .card[data-metric="k_anonymity"] .card-value')).toBeVisible({ timeout: 30_000 });
}
