// Progress during an audit (issue 36, item 7): the bar stayed at 0 for the 110 s of the audit
// of a 1 GB file. The worker now posts the audit's own progress (the rows of the kept table
// grouped into classes, then the steps of the measures) and the page shows the count, the
// percentage and the time left.

import { closeSync, openSync, writeSync } from 'node:fs';
import { expect, test, type TestInfo } from '@playwright/test';
import { openApp } from './helpers.ts';

const ROWS = 1_500_000;

/** A table of ROWS rows with three quasi-identifiers (about 40 MB), written to disk. */
function table(testInfo: TestInfo): string {
  const path = testInfo.outputPath('progress.csv');
  const fd = openSync(path, 'w');
  writeSync(fd, 'id,age,sex,zip,ward\n');
  for (let start = 0; start < ROWS; start += 100_000) {
    const block: string[] = [];
    for (let i = start; i < start + 100_000; i++) block.push(`${i},${(i * 7) % 90},${i % 2 ? 'F' : 'M'},${(i * 13) % 997},W${i % 9}\n`);
    writeSync(fd, block.join(''));
  }
  closeSync(fd);
  return path;
}

interface Posted {
  phase: string;
  done: number;
  total: number;
}

test('the audit of a large file moves the bar and shows the time left', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  // Every `audit_progress` the audit worker posts, as the page receives it.
  await page.addInitScript(() => {
    const seen: unknown[] = [];
    (window as unknown as { auditProgress: unknown[] }).auditProgress = seen;
    const Base = window.Worker;
    window.Worker = class extends Base {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        this.addEventListener('message', (e: MessageEvent) => {
          if (e.data?.type === 'audit_progress') seen.push(e.data.progress);
        });
      }
    };
  });
  await openApp(page);
  await page.locator('#file-input').setInputFiles(table(testInfo));
  const profile = page.locator('#profile-panel');
  await expect(profile).toContainText('1,500,000 rows', { timeout: 120_000 });
  for (const select of await profile.locator('select[data-column]').all()) {
    const column = await select.getAttribute('data-column');
    await select.selectOption(['age', 'sex', 'zip'].includes(column ?? '') ? 'quasi_identifier' : 'insensitive');
  }
  // What the progress panel says while the audit runs.
  await page.evaluate(() => {
    const shown: { title: string; text: string; value: number }[] = [];
    (window as unknown as { shown: typeof shown }).shown = shown;
    const record = () =>
      shown.push({
        title: document.getElementById('progress-title')!.textContent ?? '',
        text: document.getElementById('progress-text')!.textContent ?? '',
        value: (document.getElementById('progress-bar') as HTMLProgressElement).value,
      });
    new MutationObserver(record).observe(document.getElementById('progress-panel')!, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await page.evaluate(() => ((window as unknown as { auditProgress: unknown[] }).auditProgress.length = 0));
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel')).toContainText('Quasi-identifiers: age, sex, zip', { timeout: 180_000 });

  const posted = await page.evaluate(() => (window as unknown as { auditProgress: Posted[] }).auditProgress);
  const rows = posted.filter((p) => p.phase === 'rows');
  const measures = posted.filter((p) => p.phase === 'measures');
  // From the first block (after the sort of the rows) to every row, then the measures.
  expect(rows.length, JSON.stringify(posted)).toBeGreaterThanOrEqual(2);
  expect(rows[0]!.done).toBeLessThan(ROWS);
  expect(rows.every((p) => p.total === ROWS)).toBe(true);
  expect(rows[rows.length - 1]!.done).toBe(ROWS);
  expect(measures[0]).toEqual({ phase: 'measures', done: 0, total: 6 });
  expect(measures[measures.length - 1]).toEqual({ phase: 'measures', done: 6, total: 6 });
  expect(posted.indexOf(measures[0]!)).toBeGreaterThan(posted.indexOf(rows[rows.length - 1]!));

  const shown = await page.evaluate(() => (window as unknown as { shown: { title: string; text: string; value: number }[] }).shown);
  const during = shown.filter((s) => /grouping the rows into classes|computing the measures/.test(s.title));
  // The bar moved, with a count and a percentage, and each line ends with the time left (an
  // estimate once a quarter of a second of the phase has passed: how many lines show one
  // depends on the machine's speed, so the rule of the estimate is tested in
  // tests/unit/estimate.test.ts).
  expect(
    during.some((s) => s.value > 0 && s.value < ROWS && /of 1,500,000 rows · \d+\.\d+% · /.test(s.text)),
    JSON.stringify(during),
  ).toBe(true);
  const left = /· (estimating the time left|about \d+ (s|min) left|less than a second left|finishing)$/;
  expect(
    during.every((s) => left.test(s.text)),
    JSON.stringify(during),
  ).toBe(true);
});
