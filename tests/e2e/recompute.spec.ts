// One read, every change answered at once: a generated table is read once by the page's reader
// workers (its middle cut inside a quoted field of many lines, so a part guesses its start
// wrong and is read again), audited, and then each change of a role or a setting is
// recomputed from the table the worker keeps. The figures equal the CLI's for the new
// settings, and the page's count of reads of the file stays at one. Settings that cannot be
// audited leave the results marked out of date; a UTF-16 file and a role needing a column too
// varied to keep are streamed, and the page says so; an original table stays in use.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { cardValue, coreFixture, G3_ROLES, openApp, openG3, openSection } from './helpers.ts';

const CLI = process.env.PSEUDOLENS_CLI || 'target/release/pseudolens';

interface Metric {
  id: string;
  value: unknown;
}

/** A table of `rows` records, about 700 KB, with one quoted field of 2,000 lines in its middle. */
function table(rows: number): string {
  const lines = ['record,age,sex,zip,year,note'];
  for (let i = 0; i < rows; i++) {
    const note = i === rows / 2 ? `"${Array.from({ length: 2000 }, (_, j) => `${j},x,y,z,w`).join('\n')}"` : `n${i % 7}`;
    lines.push(`R${i},${20 + ((i * 7) % 61)},${i % 3 === 0 ? 'F' : 'M'},${75000 + ((i * 13) % 97)},${2000 + (i % 23)},${note}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The CLI's figures for the same file with these quasi-identifiers (and threshold). */
function cli(path: string, qis: string[], threshold = '0.2'): { k: string; uniques: string; rInternal: string; atRisk: number } {
  const report = JSON.parse(
    execFileSync(CLI, ['audit', path, '--qi', qis.join(','), '--threshold', threshold, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 }),
  ) as { metrics: Metric[] };
  const value = (id: string) => report.metrics.find((m) => m.id === id)!.value as number;
  return {
    k: value('k_anonymity').toLocaleString('en-US'),
    uniques: value('sample_uniques').toLocaleString('en-US'),
    rInternal: value('r_internal').toFixed(4),
    atRisk: value('prosecutor_records_at_risk'),
  };
}

/** The page's headline figures equal `expected`. */
async function expectFigures(page: Page, expected: ReturnType<typeof cli>): Promise<void> {
  expect(await cardValue(page, 'k_anonymity')).toBe(expected.k);
  expect(await cardValue(page, 'sample_uniques')).toBe(expected.uniques);
  expect(await cardValue(page, 'r_internal')).toBe(expected.rInternal);
  expect(await cardValue(page, 'prosecutor_records_at_risk')).toBe(`${(expected.atRisk * 100).toFixed(2)}%`);
}

/** Records, from now on, each state the line under the results takes and how the results are
 * marked then ([`recordedStates`]), and each text it shows. */
async function recordStates(page: Page): Promise<void> {
  await page.evaluate(() => {
    const line = document.querySelector<HTMLElement>('#results-freshness')!;
    const results = document.querySelector<HTMLElement>('#results-panel')!;
    const states: string[] = [];
    (window as unknown as { __states: string[] }).__states = states;
    const note = () => {
      const marked = results.classList.contains('stale')
        ? `results stale${results.getAttribute('aria-busy') === 'true' ? ' and busy' : ''}`
        : 'results current';
      states.push(`${line.dataset.state}, ${marked}`);
    };
    new MutationObserver(note).observe(line, { attributes: true, attributeFilter: ['data-state'] });
    const texts: string[] = [];
    (window as unknown as { __texts: string[] }).__texts = texts;
    new MutationObserver(() => texts.push(line.textContent ?? '')).observe(line, { childList: true, characterData: true, subtree: true });
  });
}

async function recordedStates(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __states: string[] }).__states);
}

test('a change of roles or settings is recomputed from the kept table, never by reading the file again', async ({ page }, testInfo) => {
  expect(existsSync(CLI), `the CLI ${CLI} must be built first (cargo build --release)`).toBe(true);
  const path = testInfo.outputPath('generated.csv');
  writeFileSync(path, table(20_000));

  await openApp(page);
  await page.locator('#file-input').setInputFiles(path);
  const profile = page.locator('#profile-panel');
  await expect(profile).toContainText('generated.csv');
  // Read once, by the reader workers, and kept.
  await expect(page.locator('#read-note')).toHaveAttribute('data-kept', 'true');
  await expect(page.locator('#read-note')).toContainText('workers in parallel');
  const roles: Record<string, string> = {
    record: 'direct_identifier',
    age: 'quasi_identifier',
    sex: 'quasi_identifier',
    zip: 'insensitive',
    year: 'insensitive',
    note: 'insensitive',
  };
  for (const [column, role] of Object.entries(roles)) await profile.locator(`select[data-column="${column}"]`).selectOption(role);
  await page.getByRole('button', { name: 'Run audit' }).click();

  const results = page.locator('#results-panel');
  const freshness = page.locator('#results-freshness');
  await expect(results).toContainText('Quasi-identifiers: age, sex');
  await expect(freshness).toHaveAttribute('data-state', 'fresh');
  await expect(freshness).toHaveAttribute('data-file-reads', '1');
  await expectFigures(page, cli(path, ['age', 'sex']));

  // Another quasi-identifier: out of date at once (a role is recomputed after a pause of 50 ms,
  // so the states are recorded as they come), then recomputed without a read.
  await recordStates(page);
  await profile.locator('select[data-column="zip"]').selectOption('quasi_identifier');
  await expect(freshness).toHaveAttribute('data-state', 'fresh');
  const states = await recordedStates(page);
  expect(states[0]).toBe('stale, results stale and busy');
  expect(states.at(-1)).toBe('fresh, results current');
  // Meanwhile the line said how far the recompute was.
  const texts = await page.evaluate(() => (window as unknown as { __texts: string[] }).__texts);
  expect(
    texts.some((t) => /^Out of date: the settings changed; recomputing… computing the measures: [\d,]+ of [\d,]+ steps · [\d.]+%/.test(t)),
    texts.join(' | '),
  ).toBe(true);
  await expect(results).toContainText('Quasi-identifiers: age, sex, zip');
  await expect(results).not.toHaveClass(/stale/);
  await expect(freshness).toContainText(/Recomputed in \d+\.\d\d s from the table kept in memory; the file was not read again/);
  await expect(freshness).toHaveAttribute('data-file-reads', '1');
  await expectFigures(page, cli(path, ['age', 'sex', 'zip']));

  // Two changes in a row (a role, then the threshold): only the settings as they end are shown.
  await profile.locator('select[data-column="year"]').selectOption('quasi_identifier');
  await page.getByLabel('Risk threshold τ').fill('0.6');
  await expect(freshness).toHaveAttribute('data-state', 'fresh');
  await expect(results).toContainText('Quasi-identifiers: age, sex, zip, year');
  await expect(results.locator('.card[data-metric="prosecutor_records_at_risk"]')).toContainText('τ = 0.6');
  await expect(freshness).toHaveAttribute('data-file-reads', '1');
  await expectFigures(page, cli(path, ['age', 'sex', 'zip', 'year'], '0.6'));
  // Leaving the field fires its "change" with the settings already answered: nothing to redo,
  // so the results (and any status shown beside them) stay as they are.
  await page.getByLabel('Risk threshold τ').press('Tab');
  expect(await freshness.getAttribute('data-state')).toBe('fresh');
  expect(await results.getAttribute('class')).not.toMatch(/stale/);

  // The records of the riskiest groups come from the kept table too: the next recompute
  // still counts one read of the file.
  await openSection(page, 'top-title');
  const [records] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the records of these groups (CSV)' }).click(),
  ]);
  const lines = readFileSync((await records.path())!, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  expect(lines[0]).toMatch(/^line,/);
  expect(lines.length).toBeGreaterThan(1);
  await expect(page.locator('#extract-status')).toHaveAttribute('data-kind', 'done');
  await page.getByLabel('Risk threshold τ').fill('0.5');
  await expect(freshness).toHaveAttribute('data-state', 'fresh');
  await expect(results.locator('.card[data-metric="prosecutor_records_at_risk"]')).toContainText('τ = 0.5');
  await expect(freshness).toHaveAttribute('data-file-reads', '1');
});

test('settings that cannot be audited leave the results marked out of date', async ({ page }) => {
  await openApp(page);
  await page.locator('#file-input').setInputFiles({ name: 'small.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n1,x\n2,y\n2,y\n') });
  const profile = page.locator('#profile-panel');
  await profile.locator('select[data-column="a"]').selectOption('quasi_identifier');
  await profile.locator('select[data-column="b"]').selectOption('insensitive');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-freshness')).toHaveAttribute('data-state', 'fresh');
  expect(await cardValue(page, 'k_anonymity')).toBe('1');

  await profile.locator('select[data-column="a"]').selectOption('insensitive');
  await expect(page.locator('#results-freshness')).toHaveAttribute('data-state', 'invalid');
  await expect(page.locator('#results-panel')).toHaveClass(/stale/);
  await expect(page.locator('#audit-problem')).toContainText('at least one column as a quasi-identifier');
  // Back to a valid choice: recomputed and current again.
  await profile.locator('select[data-column="b"]').selectOption('quasi_identifier');
  await expect(page.locator('#results-freshness')).toHaveAttribute('data-state', 'fresh');
  await expect(page.locator('#results-panel')).toContainText('Quasi-identifiers: b');
  expect(await cardValue(page, 'k_anonymity')).toBe('1');
});

test('a UTF-16 file is streamed on one thread, and each change reads it again, as the page says', async ({ page }) => {
  await openApp(page);
  const text = 'a,b\n1,x\n1,y\n2,y\n2,y\n';
  await page.locator('#file-input').setInputFiles({ name: 'utf16.csv', mimeType: 'text/csv', buffer: Buffer.from(`\ufeff${text}`, 'utf16le') });
  const note = page.locator('#read-note');
  await expect(note).toHaveAttribute('data-kept', 'false');
  await expect(note).toContainText('on one thread');
  await expect(note).toContainText('read the file again');
  const profile = page.locator('#profile-panel');
  await profile.locator('select[data-column="a"]').selectOption('quasi_identifier');
  await profile.locator('select[data-column="b"]').selectOption('insensitive');
  await page.getByRole('button', { name: 'Run audit' }).click();
  const freshness = page.locator('#results-freshness');
  await expect(freshness).toHaveAttribute('data-file-reads', '2');
  await expect(freshness).toHaveAttribute('data-kept', 'false');
  expect(await cardValue(page, 'k_anonymity')).toBe('2');

  await profile.locator('select[data-column="b"]').selectOption('quasi_identifier');
  await expect(freshness).toHaveAttribute('data-file-reads', '3');
  await expect(freshness).toHaveAttribute('data-state', 'fresh');
  await expect(freshness).toContainText('by reading the file again');
  // (1,x) and (1,y) are alone.
  expect(await cardValue(page, 'k_anonymity')).toBe('1');
  expect(await cardValue(page, 'sample_uniques')).toBe('2');
});

test('a role needing a column too varied to keep streams the file; other roles are answered from the table', async ({ page }) => {
  test.setTimeout(90_000);
  await openApp(page);
  // 270,000 distinct ids: past what a kept column holds (262,144 distinct values).
  const rows = Array.from({ length: 270_000 }, (_, i) => `I${i},${'abc'[i % 3]}`);
  await page.locator('#file-input').setInputFiles({ name: 'ids.csv', mimeType: 'text/csv', buffer: Buffer.from(`id,g\n${rows.join('\n')}\n`) });
  const profile = page.locator('#profile-panel');
  await expect(page.locator('#read-note')).toHaveAttribute('data-kept', 'true');
  await profile.locator('select[data-column="id"]').selectOption('quasi_identifier');
  await profile.locator('select[data-column="g"]').selectOption('quasi_identifier');
  await page.getByRole('button', { name: 'Run audit' }).click();
  const freshness = page.locator('#results-freshness');
  await expect(freshness).toHaveAttribute('data-state', 'fresh', { timeout: 60_000 });
  await expect(freshness).toHaveAttribute('data-kept', 'false');
  await expect(freshness).toHaveAttribute('data-file-reads', '2');
  await expect(freshness).toContainText('its table is not kept in memory');
  expect(await cardValue(page, 'k_anonymity')).toBe('1');

  await profile.locator('select[data-column="id"]').selectOption('direct_identifier');
  await expect(freshness).toContainText('from the table kept in memory', { timeout: 60_000 });
  await expect(freshness).toHaveAttribute('data-kept', 'true');
  await expect(freshness).toHaveAttribute('data-file-reads', '2');
  expect(await cardValue(page, 'k_anonymity')).toBe('90,000');
});

test('with an original table, a change of roles is recomputed against it, read once', async ({ page }) => {
  expect(existsSync(CLI), `the CLI ${CLI} must be built first (cargo build --release)`).toBe(true);
  // CTBIL is computed against the original over the quasi-identifiers: it follows the roles.
  const ctbil = (qis: string) => {
    const args = [
      'audit',
      coreFixture('g3_released.csv'),
      '--original',
      coreFixture('g3_original.csv'),
      '--record-id',
      'rid',
      '--qi',
      qis,
      '--sensitive',
      'diag',
      '--json',
    ];
    const report = JSON.parse(execFileSync(CLI, args, { encoding: 'utf8', maxBuffer: 64 << 20 })) as { metrics: Metric[] };
    return (report.metrics.find((m) => m.id === 'ctbil_normalized')!.value as number).toFixed(4);
  };
  const shown = page.locator('#utility-summary .fact[data-metric="ctbil_normalized"] .fact-value');
  await openG3(page, G3_ROLES);
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(shown).toHaveText(ctbil('age,zip,sex'), { timeout: 30_000 });

  await page.locator('select[data-column="sex"]').selectOption('insensitive');
  const freshness = page.locator('#results-freshness');
  await expect(page.locator('#results-panel')).toContainText('Quasi-identifiers: age, zip');
  await expect(freshness).toHaveAttribute('data-state', 'fresh');
  await expect(freshness).toContainText('from the table kept in memory');
  await expect(freshness).toHaveAttribute('data-file-reads', '1');
  const expected = ctbil('age,zip');
  expect(expected).not.toBe(ctbil('age,zip,sex'));
  await expect(shown).toHaveText(expected);
});
