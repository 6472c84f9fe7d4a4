// How the results are laid out, checked as a newcomer sees them: the attribute-disclosure
// table's cells line up with their rows (on the page at 1366 and 390 px, printed, and in the
// saved HTML report), the risk-utility map's labels never cover each other or a point, and the
// utility summary says what its loss, similarity, U and UM each measure so that a loss of 1
// beside a UM near 1 does not read as a contradiction.

import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { auditIpso, fixture, openApp, openSection, runSample } from './helpers.ts';

/** Every row of the tables matched by `selector` whose cells do not fill their row exactly. */
async function misalignedRows(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((tables) =>
    tables.flatMap((table) =>
      [...table.querySelectorAll('tr')].flatMap((tr) => {
        const row = tr.getBoundingClientRect();
        return [...tr.children].flatMap((cell) => {
          const box = cell.getBoundingClientRect();
          const off = Math.abs(box.top - row.top) > 1 || Math.abs(box.bottom - row.bottom) > 1;
          return off
            ? [
                `${tr.getAttribute('data-metric') ?? tr.textContent?.slice(0, 30)}: ${cell.tagName} ${Math.round(box.top - row.top)}/${Math.round(box.bottom - row.bottom)} px`,
              ]
            : [];
        });
      }),
    ),
  );
}

const ATTRIBUTE_TABLES = '#attribute-section table';

test('the attribute-disclosure table lines up its rows and columns on the page, printed and in the HTML report', async ({ page, browser }) => {
  await openApp(page);
  await runSample(page);
  await openSection(page, 'attribute-title');
  const section = page.locator('#attribute-section');
  // Every table of the section shown, the failing classes' ones too.
  for (const summary of await section.locator('.failing summary').all()) await summary.click();
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

test('the utility summary says what loss, similarity, U and UM each measure, so a loss of 1 beside UM 0.96 is no contradiction', async ({ page }) => {
  await auditIpso(page);
  // Utility is the one result here, so it is not folded.
  const summary = page.locator('#utility-summary');
  await expect(summary).toBeVisible({ timeout: 30_000 });
  const value = async (id: string) => (await page.locator(`#utility-section .card[data-metric="${id}"] .card-value`).innerText()).trim();
  // The synthetic IPSO release: no record keeps its values (loss 1), the structure stays (UM).
  expect(await value('l_total')).toBe('1.0000');
  const [s, u, um] = [await value('s_total'), await value('utility_u'), await value('perm_um')];
  expect(Number(um)).toBeGreaterThan(0.9);

  // "Nothing left" is false here: the distributions and the correlations are kept.
  await expect(page.locator('#utility-section')).not.toContainText('nothing left');
  await expect(summary.locator('.card[data-metric="l_total"] .card-explain')).toContainText('record by record');
  // One paragraph says what each figure looks at, with this report's values, and how U follows.
  const reading = summary.locator('#utility-reading');
  await expect(reading).toContainText('Loss (L) 1.0000 compares each record with its own original');
  await expect(reading).toContainText(`Similarity (S) ${s} compares each column’s distribution as a whole`);
  await expect(reading).toContainText(`U = 0.5 × S + 0.5 × (1 − L) = 0.5 × ${s} + 0.5 × (1 − 1.0000) = ${u}`);
  await expect(reading).toContainText(`UM ${um} (permutation model, below) compares how the columns vary together`);
  await expect(reading).toContainText('keeps the distributions and how the columns vary together, but not the values of single records');
  await summary.screenshot({ path: 'test-results/layout-utility-summary.png' });
});

/** The IPSO release with a growing share of its records' FEDTAX and INTVAL put back to the
 * original's: each candidate a little more useful than the last (the first ones too close to
 * tell apart), all as risky (FICA singles out everyone). */
function ipsoCandidates(count: number): { name: string; mimeType: string; buffer: Buffer }[] {
  const original = readFileSync(fixture('census-ipso-original.csv'), 'utf8').trim().split('\n');
  const [header, ...rows] = readFileSync(fixture('census-ipso-01.csv'), 'utf8').trim().split('\n');
  const restored = ['FEDTAX', 'INTVAL'].map((c) => header!.split(',').indexOf(c));
  const byId = new Map(original.slice(1).map((line) => [line.split(',')[0], line.split(',')]));
  return Array.from({ length: count }, (_, i) => {
    const lines = rows.map((line, j) => {
      if (j >= i * 110) return line;
      const cells = line.split(',');
      for (const c of restored) cells[c] = byId.get(cells[0]!)![c]!;
      return cells.join(',');
    });
    return { name: `ipso-release-${String(i + 1).padStart(2, '0')}.csv`, mimeType: 'text/csv', buffer: Buffer.from(`${header}\n${lines.join('\n')}\n`) };
  });
}

/** Pairs of map labels that cover each other, and labels that cover a point. */
async function mapOverlaps(page: Page): Promise<string[]> {
  return page.locator('#risk-utility-map svg').evaluate((svg) => {
    const labels = [...svg.querySelectorAll('.point-label')].map((t) => ({ name: t.textContent ?? '', box: t.getBoundingClientRect() }));
    const points = [...svg.querySelectorAll('.candidate-point circle.point')].map((c) => ({
      name: c.closest('[data-candidate]')!.getAttribute('data-candidate')!,
      box: c.getBoundingClientRect(),
    }));
    const hit = (a: DOMRect, b: DOMRect) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const out: string[] = [];
    labels.forEach((a, i) => {
      for (const b of labels.slice(i + 1)) if (hit(a.box, b.box)) out.push(`label ${a.name} covers label ${b.name}`);
      for (const p of points) if (hit(a.box, p.box)) out.push(`label ${a.name} covers the point of ${p.name}`);
    });
    return out;
  });
}

test('the risk-utility map numbers its points, keeps every label clear of the others and lists the candidates', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page);
  const files = ipsoCandidates(8);
  await page.locator('#candidates-input').setInputFiles(files);
  await expect(page.locator('#profile-panel')).toContainText('first of 8');
  await page.locator('select[data-column="FICA"]').selectOption('quasi_identifier');
  await page.locator('#original-input').setInputFiles(fixture('census-ipso-original.csv'));
  await expect(page.locator('#record-id')).toHaveValue('record_id');
  await page.getByRole('button', { name: 'Compare candidates' }).click();
  const map = page.locator('#risk-utility-map');
  await expect(map.locator('.candidate-point')).toHaveCount(8, { timeout: 60_000 });

  // Every candidate is named once by its number beside the map, with its R and U.
  const legend = map.locator('.ru-legend li');
  await expect(legend).toHaveCount(8);
  for (const [i, f] of files.entries()) {
    await expect(legend.nth(i)).toContainText(new RegExp(`^${i + 1}\\s*${f.name.replace(/\./g, '\\.')}\\s*R 1\\.0000, U 0\\.\\d{4}`));
  }
  // Each point carries a number on the map (points too close to tell apart share one label).
  const numbers = (await map.locator('.point-label').allTextContents())
    .flatMap((t) => t.split(/,\s*/))
    .flatMap((t) => {
      const [a, b] = t.split('–').map(Number);
      return b === undefined ? [a] : Array.from({ length: b - a! + 1 }, (_, k) => a! + k);
    });
  expect(numbers.sort((a, b) => a! - b!)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);

  expect(await mapOverlaps(page), 'at 1366 px').toEqual([]);
  await map.screenshot({ path: 'test-results/layout-map-1366.png' });
  await page.emulateMedia({ media: 'print' });
  expect(await mapOverlaps(page), 'printed').toEqual([]);
  await page.emulateMedia({ media: 'screen' });
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(map.locator('.candidate-point')).toHaveCount(8);
  expect(await mapOverlaps(page), 'at 390 px').toEqual([]);
  await map.screenshot({ path: 'test-results/layout-map-390.png' });
});
