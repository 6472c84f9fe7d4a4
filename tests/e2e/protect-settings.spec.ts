// Protect's settings travel (issue 38, Deliver 5): after a search and a node chosen by hand,
// the settings file holds the ladders (an uploaded hierarchy too), the criteria and the node;
// the link holds them but the hierarchy (values of the data), and says so; the link in a fresh
// browser with the same file sets the form again, and its search ends on the node chosen; the
// CLI writes that node from the settings file (`pseudolens protect --settings`).

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { openApp } from './helpers.ts';
import { auditExport, hospitalExport } from './hospital-export.ts';

const CLI = process.env.PSEUDOLENS_CLI || 'target/release/pseudolens';
const QIS = ['Alter', 'PLZ', 'Aufnahme', 'Geschlecht'];
const SEX = 'm;person\nw;person\n';

/** The part of the settings this test reads. */
interface Carried {
  protect: { ladders: Record<string, unknown>; node: Record<string, number> | null };
}

/** The level chosen of each QI. */
async function chosenNode(page: Page): Promise<Record<string, number>> {
  const node: Record<string, number> = {};
  for (const q of QIS) node[q] = Number(await page.locator(`select.protect-level[data-qi="${q}"]`).inputValue());
  return node;
}

/** The settings of a link's fragment, decoded as the page does. */
function fragmentSettings(link: string): Carried {
  const b64 = new URLSearchParams(new URL(link).hash.slice(1)).get('settings')!.replace(/-/g, '+').replace(/_/g, '/');
  return JSON.parse(Buffer.from(b64, 'base64').toString('utf8')) as Carried;
}

test('the settings file and the link carry the protection: a fresh page searches to the node chosen, the CLI writes it', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const body = Buffer.from(hospitalExport());
  const path = resolve('test-results/protect-settings.csv');
  writeFileSync(path, body);
  await openApp(page);
  await auditExport(page, 'protect-settings.csv', body);

  // Custom criteria, and an uploaded hierarchy for Geschlecht.
  await page.locator('#protect-k').fill('3');
  await page.locator('#protect-risk').fill('');
  await page.locator('#protect-suppression').fill('2');
  await expect(page.locator('#protect-preset')).toHaveValue('custom');
  await page.locator('select.protect-kind[data-qi="Geschlecht"]').selectOption('hierarchy');
  await page.locator('input.protect-file[data-qi="Geschlecht"]').setInputFiles({ name: 'sex.csv', mimeType: 'text/csv', buffer: Buffer.from(SEX) });
  await expect(page.locator('.protect-ladders')).toContainText('2 rows read');
  const ageLadder = await page.locator('input.protect-text[data-qi="Alter"]').inputValue();
  await page.locator('#protect-search').click();
  await expect(page.locator('#protect-best')).toContainText('Best release:', { timeout: 60_000 });
  // A node other than the best: the age a level coarser (or finer at the top).
  const age = page.locator('select.protect-level[data-qi="Alter"]');
  const best = Number(await age.inputValue());
  const height = await age.locator('option').count();
  await age.selectOption(String(best + 1 < height ? best + 1 : best - 1));
  const chosen = await chosenNode(page);

  // The settings file: every part of the protection.
  await page.getByText('Share these settings: a link or a settings file').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download settings file' }).click()]);
  const settingsPath = (await download.path())!;
  const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as Carried;
  expect(settings.protect).toMatchObject({ criteria: { k: 3, average_risk: null }, suppression_limit: 0.02, node: chosen });
  expect(settings.protect.ladders.Geschlecht).toEqual({ kind: 'hierarchy', csv: SEX });
  expect(Object.keys(settings.protect.ladders).sort()).toEqual([...QIS].sort());

  // The link: the same but the hierarchy, which it says it leaves out.
  const link = await page.locator('#settings-link').inputValue();
  const inLink = fragmentSettings(link);
  expect(inLink.protect.node).toEqual(chosen);
  expect(inLink.protect.ladders.Geschlecht).toBeUndefined();
  expect(link).not.toContain('person');
  await expect(page.locator('#settings-left-out')).toContainText('the hierarchy files of “Make a safe release”');

  // A fresh browser: the link, the same file; the form is set again and the search ends on the node.
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  await expect(other.locator('html[data-engine="ready"]')).toBeAttached();
  await other.locator('#file-input').setInputFiles(path);
  await expect(other.locator('#results-panel .card[data-metric="k_anonymity"] .card-value')).toBeVisible({ timeout: 30_000 });
  await expect(other.locator('#protect-preset')).toHaveValue('custom');
  await expect(other.locator('#protect-k')).toHaveValue('3');
  await expect(other.locator('#protect-suppression')).toHaveValue('2');
  await expect(other.locator('input.protect-text[data-qi="Alter"]')).toHaveValue(ageLadder);
  await expect(other.locator('#protect-status')).toContainText('with its chosen node');
  await other.locator('#protect-section').screenshot({ path: testInfo.outputPath('protect-restored.png') });
  await other.locator('#protect-search').click();
  await expect(other.locator('#protect-best')).toBeVisible({ timeout: 60_000 });
  await expect(other.locator('#protect-figures p')).toBeVisible();
  expect(await chosenNode(other)).toEqual(chosen);
  await fresh.close();

  // The CLI writes the node of the settings file.
  expect(existsSync(CLI), `the CLI ${CLI} must be built first`).toBe(true);
  const out = resolve('test-results/protect-settings-out.csv');
  const run = spawnSync(CLI, ['protect', path, '--settings', settingsPath, '--out', out], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stderr).toContain(`(node ${QIS.map((q) => `${q}=${chosen[q]}`).join(',')})`);
});
