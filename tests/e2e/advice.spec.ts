// "What would lower the risk" on the page: the same changes, figures and sentences as the
// CLI's `--advice` for the sample and for ARX's adult.csv with the same roles.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { openApp, openSection, runSample } from './helpers.ts';

const CLI = process.env.PSEUDOLENS_CLI || 'target/release/pseudolens';
const ADULT = fileURLToPath(new URL('../../../shared/data/adult/adult.csv', import.meta.url));

/** The CLI's advice sentences for `csv` with these QIs. */
function cliAdvice(csv: string, qis: string[], extra: string[] = []): string[] {
  const out = execFileSync(CLI, ['audit', csv, '--qi', qis.join(','), '--advice', '--json', ...extra], { encoding: 'utf8', maxBuffer: 256 << 20 });
  const report = JSON.parse(out) as { metrics: { id: string; value: { sentence: string }[] }[] };
  return report.metrics.find((m) => m.id === 'advice')!.value.map((e) => e.sentence);
}

async function pageAdvice(page: Page): Promise<string[]> {
  await openSection(page, 'advice-title');
  const cells = page.locator('#results-panel .advice-sentence');
  await expect(cells.first()).toBeVisible();
  return (await cells.allInnerTexts()).map((t) => t.trim());
}

async function pageQis(page: Page): Promise<string[]> {
  const lead = await page.locator('#results-panel .lead').innerText();
  return /Quasi-identifiers: ([^.]+)\./.exec(lead)![1]!.split(', ');
}

test.beforeAll(() => {
  expect(existsSync(CLI), `the CLI ${CLI} must be built first (cargo build --release)`).toBe(true);
});

test('the advice for the sample equals the CLI', async ({ page }, testInfo) => {
  await openApp(page);
  await runSample(page);
  const qis = await pageQis(page);
  const csv = testInfo.outputPath('sample.csv');
  writeFileSync(csv, execFileSync(CLI, ['sample'], { maxBuffer: 256 << 20 }));
  const expected = cliAdvice(csv, qis);
  expect(expected.length).toBeGreaterThan(2);
  expect(await pageAdvice(page)).toEqual(expected);
  // Each row is a change with a verdict after it.
  await expect(page.locator('#results-panel .advice-light')).toHaveCount(expected.length);
  // The HTML report carries the same list.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download HTML report' }).click()]);
  const html = readFileSync((await download.path())!, 'utf8');
  expect(html).toContain('What would lower the risk');
  for (const sentence of expected) expect(html).toContain(sentence.replaceAll('&', '&amp;'));
});

test('the advice for adult.csv equals the CLI, with a suppression k set on the page', async ({ page }) => {
  test.skip(!existsSync(ADULT), 'shared/data/adult/adult.csv is not beside the repository');
  await openApp(page);
  await page.locator('#file-input').setInputFiles(ADULT);
  await expect(page.locator('#profile-panel')).toContainText('adult.csv');
  const roles: Record<string, string> = {
    age: 'quasi_identifier',
    sex: 'quasi_identifier',
    race: 'quasi_identifier',
    'marital-status': 'quasi_identifier',
    education: 'quasi_identifier',
  };
  for (const select of await page.locator('select[data-column]').all()) {
    const column = (await select.getAttribute('data-column'))!;
    await select.selectOption(roles[column] ?? 'insensitive');
  }
  await page.locator('#advice-k').fill('3');
  await page.getByRole('button', { name: 'Run audit' }).click();
  const qis = await pageQis(page);
  expect(qis.sort()).toEqual(Object.keys(roles).sort());
  const expected = cliAdvice(ADULT, qis, ['--advice-k', '3']);
  expect(await pageAdvice(page)).toEqual(expected);
  expect(expected.some((s) => s.startsWith('Suppress the records of classes smaller than 3'))).toBe(true);
});
