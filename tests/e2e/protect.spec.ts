// Protect in the page (issue 38): a hospital-like German export (`;`, CRLF, dates written
// DD.MM.YYYY, postcodes) audits RED; "Make a safe release" proposes a ladder per
// quasi-identifier from its values, searches the lattice under ARX's green thresholds, shows
// the best node and any chosen node's figures, writes the protected file and audits it at
// once (its figures equal the prediction); the downloaded file, audited in the page as a new
// file, is GREEN with the k the search predicted; the saved HTML report tells the release (its
// ladders in the full report only). Apply on an advice row; by keyboard alone at 390 px; a
// lattice past the node limit refused by name, a long search's progress and cancel; a release
// cancelled while it is written.

import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { expect, type Page, type TestInfo, test } from '@playwright/test';
import { cardValue, expectNoHorizontalOverflow, openApp, openSection } from './helpers.ts';
import { auditExport as audit, hospitalExport } from './hospital-export.ts';

/** The HTML report as saved, full or shareable, also written to `path` (to be opened). */
async function saveHtmlReport(page: Page, shareable: boolean, path: string): Promise<string> {
  await page
    .getByRole('group', { name: 'Report to download' })
    .getByRole('radio', { name: shareable ? /^Shareable/ : 'Full report' })
    .check();
  const saving = page.waitForEvent('download');
  await page.locator('#download-html').click();
  const html = readFileSync(await (await saving).path(), 'utf8');
  writeFileSync(path, html);
  return html;
}

interface Protection {
  protect: { details: { ladders: Record<string, { height: number }> } };
  written: { levels: Record<string, number>; labels: Record<string, string> };
  hierarchies: Record<string, string>;
  before: { k: number; verdict: string };
  after: { k: number; verdict: string };
}

/**
 * The saved HTML reports after a release: the full one tells the protection (the node, the
 * figures before, predicted and after, each ladder in ARX's layout) instead of the form, and
 * says it is confidential; the shareable one has the same part without a row of a ladder.
 * The part opened at 1366 and 390 px, each screenshot.
 */
async function checkHtmlReports(page: Page, protection: Protection, testInfo: TestInfo): Promise<void> {
  const qis = Object.keys(protection.written.levels);
  /** The level of `qi` written, of its ladder's top, and its name: `2 of 5: first 3 characters`. */
  const levelWritten = (qi: string) =>
    `${protection.written.levels[qi]} of ${protection.protect.details.ladders[qi].height - 1}: ${protection.written.labels[qi]}`;
  const fullPath = testInfo.outputPath('report-full.html');
  const full = await saveHtmlReport(page, false, fullPath);
  // The protection after the results as the page shows them, before every metric.
  const parts = ['report-results', 'report-protection', 'report-metrics'].map((id) => full.indexOf(`id="${id}"`));
  expect(parts[0]).toBeGreaterThan(0);
  expect([...parts].sort((a, b) => a - b)).toEqual(parts);
  expect(full).not.toContain('id="protect-section"');
  expect(full).toContain('data-disclosure="confidential"');
  expect(full).toContain('The ladders of the protection list every value of the quasi-identifiers');

  const opened = await page.context().newPage();
  await opened.goto(pathToFileURL(fullPath).href);
  const part = opened.locator('#report-protection');
  for (const qi of qis) await expect(part.locator(`tr[data-qi="${qi}"] td`).nth(1)).toHaveText(levelWritten(qi));
  await expect(part.locator('tr[data-figure="verdict"] td')).toHaveText([protection.before.verdict.toUpperCase(), '—', protection.after.verdict.toUpperCase()]);
  await expect(part.locator('tr[data-figure="k"] td')).toHaveText([String(protection.before.k), String(protection.after.k), String(protection.after.k)]);
  await expect(part.locator('[data-checked="true"]')).toBeVisible();
  for (const [qi, csv] of Object.entries(protection.hierarchies)) expect(await part.locator(`pre[data-qi="${qi}"]`).textContent()).toBe(csv);
  await part.screenshot({ path: testInfo.outputPath('report-protection-1366.png') });
  await opened.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(opened);
  await part.screenshot({ path: testInfo.outputPath('report-protection-390.png') });
  await opened.close();

  const shared = await saveHtmlReport(page, true, testInfo.outputPath('report-shareable.html'));
  const sharedPart = shared.slice(shared.indexOf('id="report-protection"'), shared.indexOf('id="report-metrics"'));
  expect(sharedPart).toContain('id="protection-ladders-left-out"');
  for (const qi of qis) expect(sharedPart).toContain(`<td>${levelWritten(qi)}</td>`);
  for (const [qi, csv] of Object.entries(protection.hierarchies)) {
    for (const row of csv.split('\n').filter((r) => r !== '')) {
      expect(full).toContain(row);
      expect(sharedPart, `a row of the ladder of ${qi}`).not.toContain(row);
      // A postcode or an admission date of the file, with its labels: nowhere in the shareable report.
      if (qi === 'PLZ' || qi === 'Aufnahme') expect(shared).not.toContain(row);
    }
  }
}

test('a RED export becomes a GREEN release: search, choose, download, audit', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await openApp(page);
  await audit(page, 'aufnahmen.csv', Buffer.from(hospitalExport()));
  await expect(page.locator('#verdict')).toHaveAttribute('data-light', 'red');

  // The proposals: bands for ages, dates to month/quarter/year, postcodes to prefixes.
  const section = page.locator('#protect-section');
  await expect(section.locator('select.protect-kind[data-qi="Alter"]')).toHaveValue('bands');
  await expect(section.locator('input.protect-text[data-qi="Alter"]')).toHaveValue('5,10,20');
  await expect(section.locator('select.protect-kind[data-qi="Aufnahme"]')).toHaveValue('dates');
  await expect(section.locator('select.protect-kind[data-qi="PLZ"]')).toHaveValue('prefix');
  await expect(section.locator('input.protect-text[data-qi="PLZ"]')).toHaveValue('4,3,2,1');
  await expect(page.locator('#protect-preset')).toHaveValue('arx_green');

  await page.locator('#protect-search').click();
  await expect(page.locator('#protect-best')).toContainText('Best release:', { timeout: 60_000 });
  await expect(page.locator('#protect-figures [data-feasible="true"]')).toBeVisible();
  await page.locator('#protect-section').screenshot({ path: testInfo.outputPath('protect-searched.png') });
  const predictedK = await page.locator('#protect-figures tr', { hasText: 'Smallest class k' }).locator('td').last().innerText();
  // No release yet: the HTML report has no protection part.
  expect(await saveHtmlReport(page, false, testInfo.outputPath('report-before.html'))).not.toContain('id="report-protection"');

  // A node that breaks the criteria says so; back to the best one.
  const age = page.locator('select.protect-level[data-qi="Alter"]');
  const best = await age.inputValue();
  await page.locator('select.protect-level[data-qi="PLZ"]').selectOption('0');
  await expect(page.locator('#protect-figures [data-feasible="false"]')).toBeVisible();
  await page.locator('#protect-search').click();
  await expect(age).toHaveValue(best, { timeout: 60_000 });

  const downloading = page.waitForEvent('download');
  await page.locator('#protect-download').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('aufnahmen-protected.csv');
  await expect(page.locator('#protect-status')).toContainText('its figures equal the prediction', { timeout: 60_000 });
  // The choice of report says the full one now holds the ladders (every value of the QIs).
  await expect(page.locator('#variant-full-help')).toContainText('HTML report also holds the ladders of the release written');
  await expect(page.locator('#protect-verdict')).toHaveAttribute('data-light', 'green');
  await page.locator('#protect-release').screenshot({ path: testInfo.outputPath('protect-release.png') });
  const reporting = page.waitForEvent('download');
  await page.locator('#protect-report').click();
  const protection = JSON.parse(readFileSync(await (await reporting).path(), 'utf8'));
  expect([protection.before.verdict, protection.after.verdict, protection.after.k]).toEqual(['red', 'green', protection.written.predicted.k]);
  expect(Object.keys(protection.hierarchies)).toEqual(['Alter', 'PLZ', 'Aufnahme', 'Geschlecht']);
  expect(protection.checked).toBe(true);
  await checkHtmlReports(page, protection, testInfo);
  const written = readFileSync(await download.path());
  const text = written.toString('utf8');
  expect(text.startsWith('Alter;PLZ;Aufnahme;Geschlecht;Diagnose\n')).toBe(true);
  // No exact postcode or admission date is left.
  expect(text).not.toMatch(/;\d{5};/);
  expect(text).not.toMatch(/\d\d\.\d\d\.\d{4}/);

  // The downloaded file, audited as a new file: GREEN, with the k the search predicted.
  await audit(page, 'aufnahmen-protected.csv', written);
  await expect(page.locator('#verdict')).toHaveAttribute('data-light', 'green');
  expect(await cardValue(page, 'k_anonymity')).toBe(predictedK);
  await page.screenshot({ path: testInfo.outputPath('protect-release-audited.png'), fullPage: true });
});

test('Apply on an advice row searches with that change and chooses it', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page);
  await audit(page, 'aufnahmen.csv', Buffer.from(hospitalExport()));
  await openSection(page, 'advice-title');
  const row = page.locator('#results-panel tr', { has: page.locator('.advice-sentence[data-kind="truncate"]') }).first();
  const keep = Number((await row.locator('.advice-sentence').innerText()).match(/to (\d) characters/)?.[1]);
  await row.getByRole('button', { name: /^Apply change/ }).click();
  await expect(page.locator('#protect-best')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('input.protect-text[data-qi="PLZ"]')).toHaveValue(String(keep));
  await expect(page.locator('select.protect-level[data-qi="PLZ"]')).toHaveValue('1');
  await expect(page.locator('#protect-figures p')).toBeVisible();
});

test('protect by keyboard alone at 390 px', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page);
  await audit(page, 'aufnahmen.csv', Buffer.from(hospitalExport()));
  await expect(page.locator('#protect-search')).toBeVisible();
  // From the preset, Tab reaches every field of the form, then the search button.
  await page.locator('#protect-preset').focus();
  for (let i = 0; i < 40; i++) {
    if (await page.locator('#protect-search').evaluate((b) => b === document.activeElement)) break;
    await page.keyboard.press('Tab');
  }
  await expect(page.locator('#protect-search')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#protect-best')).toContainText('Best release:', { timeout: 60_000 });
  await page.locator('select.protect-level').first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('#protect-figures p')).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await page.locator('#protect-section').screenshot({ path: testInfo.outputPath('protect-390.png') });
});

/** 3,000 rows of `cols` 5-digit codes (each proposed prefixes 4,3,2,1: 6 levels) and a diagnosis. */
function codes(cols: number): string {
  let seed = 3;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const head = [...Array(cols).keys()].map((i) => `c${i}`);
  const rows = [[...head, 'dx'].join(',')];
  for (let r = 0; r < 3000; r++) rows.push([...head.map(() => String(10000 + next(90000))), ['a', 'b', 'c'][next(3)]].join(','));
  return `${rows.join('\n')}\n`;
}

async function auditCodes(page: Page, cols: number): Promise<void> {
  await page.locator('#file-input').setInputFiles({ name: `codes-${cols}.csv`, mimeType: 'text/csv', buffer: Buffer.from(codes(cols)) });
  await expect(page.locator('#profile-panel')).toContainText(`codes-${cols}.csv`);
  for (let i = 0; i < cols; i++) await page.locator(`select[data-column="c${i}"]`).selectOption('quasi_identifier');
  await page.locator('select[data-column="dx"]').selectOption('sensitive');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('input.protect-text[data-qi="c0"]')).toHaveValue('4,3,2,1', { timeout: 30_000 });
}

test('a lattice past the node limit is refused by name; a long search shows its progress and cancels', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page);
  // 6^8 nodes: over the limit, the ladder to shorten named.
  await auditCodes(page, 8);
  await page.locator('#protect-search').click();
  await expect(page.locator('#protect-status')).toContainText('the lattice has 1679616 nodes, more than max_nodes (1000000); the ladder of "c0"');
  // 6^7 nodes with t and suppression: nothing may be pruned, every node is evaluated.
  await auditCodes(page, 7);
  await page.locator('#protect-t').fill('0.2');
  await page.locator('#protect-search').click();
  await expect(page.locator('#protect-status')).toContainText(
    /Searching the lattice: [\d,]+ of 279,936 nodes, (about \d+ (s|min) left|estimating the time left) at most\./,
  );
  await page.locator('#protect-cancel').click();
  await expect(page.locator('#protect-status')).toHaveText('Cancelled. Search again when ready (the file is read again first).');
  await expect(page.locator('#protect-status')).toHaveAttribute('data-state', 'cancelled');
  await expect(page.locator('#protect-cancel')).toBeHidden();
  // The restarted worker reads the file again and searches.
  await page.locator('#protect-search').click();
  await expect(page.locator('#protect-status')).toContainText('of 279,936 nodes');
  await page.locator('#protect-cancel').click();
  await expect(page.locator('#protect-search')).toBeEnabled();
});

test('a release cancelled while it is written saves nothing and shows no error; a new search writes it', async ({ page }) => {
  test.setTimeout(180_000);
  const downloads: string[] = [];
  page.on('download', (d) => downloads.push(d.suggestedFilename()));
  await openApp(page);
  // 300,000 rows: the release is written in 5 chunks of 65,536 rows, then audited.
  await audit(page, 'aufnahmen-gross.csv', Buffer.from(hospitalExport(300_000)));
  await expect(page.locator('input.protect-text[data-qi="PLZ"]')).toHaveValue('4,3,2,1');
  await page.locator('#protect-search').click();
  await expect(page.locator('#protect-best')).toContainText('Best release:', { timeout: 60_000 });

  // Cancel pressed as soon as the page says the first chunk is written: the worker is still
  // writing the others. The status at that moment is kept to show it.
  const status = page.locator('#protect-status');
  await page.locator('#protect-release-cancel').evaluate((cancel: HTMLButtonElement) => {
    const line = document.getElementById('protect-status') as HTMLElement;
    new MutationObserver((_, observer) => {
      if (!/MB written/.test(line.textContent ?? '')) return;
      observer.disconnect();
      line.dataset.atCancel = line.textContent ?? '';
      cancel.click();
    }).observe(line, { childList: true, characterData: true, subtree: true });
  });
  await page.locator('#protect-download').click();
  await expect(status).toHaveText('Cancelled: no file was saved. Search again to write it (the file is read again first).');
  expect(await status.getAttribute('data-at-cancel')).toMatch(/^Writing the protected file: [\d.]+ MB written \((?!100\.00%)[\d.]+% of the rows\)/);
  await expect(status).toHaveAttribute('data-state', 'cancelled');
  await expect(page.locator('#messages [data-kind="error"]')).toHaveCount(0);
  await expect(page.locator('#protect-release-cancel')).toBeHidden();
  await expect(page.locator('#protect-release')).toBeEmpty();
  // The search went with the worker: nothing asks it until the next search.
  await expect(page.locator('#protect-download')).toBeDisabled();
  await expect(page.locator('select.protect-level').first()).toBeDisabled();

  // Searched again (the file read again first), the release is written and saved.
  await page.locator('#protect-search').click();
  await expect(page.locator('#protect-best')).toContainText('Best release:', { timeout: 60_000 });
  const downloading = page.waitForEvent('download');
  await page.locator('#protect-download').click();
  await downloading;
  await expect(status).toContainText('its figures equal the prediction', { timeout: 60_000 });
  await expect(page.locator('#protect-verdict')).toHaveAttribute('data-light', 'green');
  expect(downloads).toEqual(['aufnahmen-gross-protected.csv']);
});
