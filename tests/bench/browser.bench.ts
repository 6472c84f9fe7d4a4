// Browser throughput: the worker streams a generated file through the wasm core, as a person's
// file would be. Prints MB/s and rows/s of the profile pass and of the audit pass (5 QIs).
// With BENCH_UTILITY_LEVEL=1..3 the file is that generalization level of the table and its
// exact original (level 0) is given too, paired by record_id: the audit pass then reads both
// files and computes every utility metric.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, statSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openApp } from '../e2e/helpers';
import { CLI, ROWS } from './common';

const QIS = (process.env.BENCH_QIS ?? 'age,sex,region,admission_date,ward').split(',');
const SAS = (process.env.BENCH_SAS ?? '').split(',').filter(Boolean);
const UTILITY_LEVEL = process.env.BENCH_UTILITY_LEVEL;

test('browser throughput', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'pseudolens-bench-'));
  const generate = (level: string) => {
    const path = join(dir, `bench-${ROWS}-level-${level}.csv`);
    const fd = openSync(path, 'w');
    execFileSync(CLI, ['generate', '--rows', String(ROWS), '--level', level], { stdio: ['ignore', fd, 'inherit'] });
    closeSync(fd);
    return path;
  };
  const path = generate(UTILITY_LEVEL ?? '0');
  const original = UTILITY_LEVEL ? generate('0') : null;
  const mb = statSync(path).size / 1e6;
  const report = (pass: string, ms: number, files = 1) =>
    console.log(
      `browser ${pass}: ${files * ROWS} rows, ${(files * mb).toFixed(1)} MB, ${(ms / 1000).toFixed(3)} s, ` +
        `${((files * mb) / (ms / 1000)).toFixed(1)} MB/s, ${Math.round((files * ROWS) / (ms / 1000))} rows/s`,
    );
  try {
    await openApp(page);
    let t = Date.now();
    await page.locator('#file-input').setInputFiles(path);
    await expect(page.locator('#run-audit')).toBeVisible({ timeout: 600_000 });
    report('profile pass', Date.now() - t);
    for (const select of await page.locator('select[data-column]').all()) {
      const column = await select.getAttribute('data-column');
      if (column && QIS.includes(column)) await select.selectOption('quasi_identifier');
      else if (column && SAS.includes(column)) await select.selectOption('sensitive');
      else if (column === 'note' && original) await select.selectOption('ignored');
      else if (['quasi_identifier', 'sensitive'].includes(await select.inputValue())) await select.selectOption('insensitive');
    }
    if (original) {
      await page.locator('#original-input').setInputFiles(original);
      await page.locator('#record-id').selectOption('record_id');
    }
    t = Date.now();
    await page.locator('#run-audit').click();
    await expect(page.locator('#results-panel [data-metric="k_anonymity"] .card-value')).toBeVisible({ timeout: 600_000 });
    const what = `${QIS.length} QIs${SAS.length ? `, SAs ${SAS.join('+')}` : ''}`;
    if (original) {
      await expect(page.locator('#utility-section')).toContainText('Utility', { timeout: 600_000 });
      report(`audit pass with utility (${what}, level ${UTILITY_LEVEL} against level 0, two files)`, Date.now() - t, 2);
    } else {
      report(`audit pass (${what})`, Date.now() - t);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
