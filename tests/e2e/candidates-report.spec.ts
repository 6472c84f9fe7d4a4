// A printable report for a candidate comparison (issue 13, Deliver 2): one self-contained HTML
// file that says it holds aggregates only, opens with the choice and its reasons, shows every
// measure, the risk-utility map and the sweep as on the page, then the files with their SHA-256
// and the settings last; it loads nothing and prints to PDF.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';
import { openApp } from './helpers.ts';

const CLI = process.env.PSEUDOLENS_CLI || 'target/release/pseudolens';
const ROLES: Record<string, string> = { age: 'quasi_identifier', sex: 'quasi_identifier', region: 'quasi_identifier', note: 'ignored' };

test('the comparison saves as one printable HTML report', async ({ page, browser }) => {
  test.setTimeout(120_000);
  expect(existsSync(CLI), `the CLI ${CLI} must be built first`).toBe(true);
  const dir = mkdtempSync(join(tmpdir(), 'pseudolens-comparison-'));
  const files = ['lvl1.csv', 'lvl2.csv', 'lvl3.csv'];
  for (const level of [0, 1, 2, 3])
    writeFileSync(join(dir, `lvl${level}.csv`), execFileSync(resolve(CLI), ['generate', '--rows', '1500', '--level', String(level)]));

  await openApp(page);
  await page.locator('#candidates-input').setInputFiles(files.map((f) => join(dir, f)));
  await expect(page.locator('#compare-note')).toContainText('lvl1.csv, lvl2.csv, lvl3.csv');
  for (const select of await page.locator('select[data-column]').all()) {
    await select.selectOption(ROLES[(await select.getAttribute('data-column'))!] ?? 'insensitive');
  }
  await page.locator('#original-input').setInputFiles(join(dir, 'lvl0.csv'));
  await page.getByRole('button', { name: 'Compare candidates' }).click();
  const best = page.locator('#best-candidate');
  await expect(best).toHaveAttribute('data-candidate', /.+/, { timeout: 60_000 });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download HTML comparison' }).click()]);
  expect(download.suggestedFilename()).toBe('pseudolens-comparison.html');
  const html = readFileSync((await download.path())!, 'utf8');
  const path = resolve('test-results/comparison-report.html');
  writeFileSync(path, html);

  // What it holds, then the choice, every measure and the charts; the files and settings last.
  const at = (id: string) => html.indexOf(`id="${id}"`);
  const parts = ['report-disclosure', 'best-candidate', 'candidates-table', 'report-inputs', 'report-roles'].map(at);
  expect(
    parts.every((p) => p > 0),
    `${parts}`,
  ).toBe(true);
  expect([...parts].sort((a, b) => a - b)).toEqual(parts);
  expect(html).toContain('data-disclosure="aggregates"');
  expect(html).toContain(`data-candidate="${await best.getAttribute('data-candidate')}"`);
  expect(html).toMatch(/<svg[^>]*class="[^"]*ru-map/);
  expect(html).toMatch(/<img [^>]*src="data:image\/png;base64,[^"]{1000,}"/);
  for (const [i, f] of files.entries()) {
    const sha = createHash('sha256')
      .update(readFileSync(join(dir, f)))
      .digest('hex');
    expect(html).toMatch(new RegExp(`data-input="Candidate ${i + 1}">.*?${f}.*?${sha}`));
  }
  expect(html).toMatch(
    new RegExp(
      `data-input="Original table \\(utility\\)">.*?lvl0.csv.*?${createHash('sha256')
        .update(readFileSync(join(dir, 'lvl0.csv')))
        .digest('hex')}`,
    ),
  );
  expect(html).toMatch(/data-param="quasi_identifiers">.*?<td>age, sex, region<\/td>/);
  expect(html).not.toMatch(/<script|https?:|<(button|input|select|textarea)\b/i);

  // Offline, it needs nothing; it prints.
  const context = await browser.newContext({ offline: true });
  const fileUrl = pathToFileURL(path).href;
  const requests: string[] = [];
  context.on('request', (r) => requests.push(r.url()));
  const offline = await context.newPage();
  await offline.goto(fileUrl);
  await expect(offline.locator('h1')).toHaveText('pseudolens comparison report');
  await offline.screenshot({ path: 'test-results/comparison-report.png', fullPage: false });
  await offline.emulateMedia({ media: 'print' });
  const pdf = await offline.pdf({ format: 'A4' });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(requests.filter((u) => u !== fileUrl)).toEqual([]);
  await context.close();
});
