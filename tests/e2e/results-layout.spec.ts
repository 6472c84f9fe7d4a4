// How the results are laid out, checked as a newcomer sees them: the attribute-disclosure
// table's cells line up with their rows (on the page at 1366 and 390 px, printed, and in the
// saved HTML report), the risk-utility map's labels never cover each other or a point, and the
// utility summary says what its loss, similarity, U and UM each measure so that a loss of 1
// beside a UM near 1 does not read as a contradiction.

import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { fixture, openApp, runSample } from './helpers.ts';

/** Every row of the tables matched by `selector` whose cells do not fill their row exactly. */
async function misalignedRows(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((tables) =>
    tables.flatMap((table) =>
      [...table.querySelectorAll('tr')].flatMap((tr) => {
        const row = tr.getBoundingClientRect();
        return [...tr.children].flatMap((cell) => {
          const box = cell.getBoundingClientRect();
          const off = Math.abs(box.top - row.top) > 1 || Math.abs(box.bottom - row.bottom) > 1;
          return off ? [`${tr.getAttribute('data-metric') ?? tr.textContent?.slice(0, 30)}: ${cell.tagName} ${Math.round(box.top - row.top)}/${Math.round(box.bottom - row.bottom)} px`] : [];
        });
      }),
    ),
  );
}

const ATTRIBUTE_TABLES = '#attribute-section table';

test('the attribute-disclosure table lines up its rows and columns on the page, printed and in the HTML report', async ({ page, browser }) => {
  await openApp(page);
  await runSample(page);
  const section = page.locator('#attribute-section');
  // Every table of the section shown, the failing classes' ones too.
  await section.evaluate((s) => {
    s.closest('details')?.setAttribute('open', '');
    for (const d of s.querySelectorAll('details')) d.setAttribute('open', '');
  });
  await expect(section.locator('tr[data-metric="l_distinct"]')).toBeVisible();
  expect(await misalignedRows(page, ATTRIBUTE_TABLES), 'at 1366 px').toEqual([]);
  await section.screenshot({ path: 'test-results/layout-attribute-1366.png' });

  await page.emulateMedia({ media: 'print' });
  expect(await misalignedRows(page, ATTRIBUTE_TABLES), 'printed').toEqual([]);
  await page.emulateMedia({ media: 'screen' });

  await page.setViewportSize({ width: 390, height: 800 });
  expect(await misalignedRows(page, ATTRIBUTE_TABLES), 'at 390 px').toEqual([]);
  await section.screenshot({ path: 'test-results/layout-attribute-390.png' });

  // The saved HTML report carries the page's CSS: the same table must line up there too.
  await page.setViewportSize({ width: 1366, height: 768 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download HTML report' }).click()]);
  const path = resolve('test-results/layout-report.html');
  writeFileSync(path, readFileSync((await download.path())!, 'utf8'));
  const report = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await report.goto(pathToFileURL(path).href);
  await expect(report.locator(`${ATTRIBUTE_TABLES} tr[data-metric="l_distinct"]`)).toBeVisible();
  expect(await misalignedRows(report, ATTRIBUTE_TABLES), 'in the HTML report').toEqual([]);
  await report.emulateMedia({ media: 'print' });
  expect(await misalignedRows(report, ATTRIBUTE_TABLES), 'in the printed HTML report').toEqual([]);
  await report.close();
});
