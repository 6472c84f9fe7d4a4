// The malformed-input corpus in the page (issue 10): every file of tests/corpus/make_corpus.py
// goes through the file input, and the page must show what the manifest expects -- the error
// with its line and column (and "Read leniently" where lenient reading helps), or the account
// of every byte and record with the reading warnings and a few values. Where lenient reading
// changes the outcome, the test presses "Read leniently" and checks that outcome too. Then the
// lenient setting itself: the checkbox before reading, with the keyboard; the audit, the HTML
// report and the drill-down of a leniently read file; a side table read leniently; and
// screenshots at 390 px wide.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect as defaultExpect, test, type Locator, type Page } from '@playwright/test';
import { describeError } from '../../web/src/ui/messages.ts';
import type { InputFacts } from '../../web/src/shared/report.ts';
import { coreFixture, expectNoHorizontalOverflow, G3_ROLES, openApp, openSection } from './helpers.ts';

interface ErrorExpect {
  code: string;
  line: number | null;
  column: string | null;
  phrases: string[];
}
/** The account of a corpus file as the corpus (tests/corpus/make_corpus.py) states it. */
type Figures = Omit<InputFacts, 'sha256'>;
type Check =
  | { kind: 'columns'; names: string[]; cli_only?: boolean }
  | { kind: 'top'; column: string; value: string; count: number; cli_only?: boolean }
  | { kind: 'not_top'; column: string; value: string; cli_only?: boolean }
  | { kind: 'missing' | 'distinct'; column: string; count: number; cli_only?: boolean };
interface Outcome {
  error?: ErrorExpect;
  figures?: Figures;
  warnings?: string[];
  warning_phrases?: Record<string, string[]>;
  values?: Check[];
}
interface Case {
  name: string;
  file: string;
  description: string;
  page: boolean;
  known_core_issue: string | null;
  strict: Outcome;
  lenient: Outcome;
}
interface Manifest {
  reading_warnings: string[];
  lenient_helps: string[];
  cases: Case[];
}

/** `expect`, or one with a shorter timeout (a case expected to fail need not wait 15 s per check). */
type Expect = typeof defaultExpect;
const expect = defaultExpect;

const GENERATOR = fileURLToPath(new URL('../corpus/make_corpus.py', import.meta.url));
const manifest = JSON.parse(execFileSync('python3', [GENERATOR, '--manifest-only'], { encoding: 'utf8', maxBuffer: 1 << 24 })) as Manifest;
const READING = new Set(manifest.reading_warnings);
const HELPS = new Set(manifest.lenient_helps);
const byName = (name: string) => manifest.cases.find((c) => c.name === name)!;

// Each worker writes its own copy of the corpus (the files are generated, never committed).
let dir = '';
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pseudolens-corpus-'));
  execFileSync('python3', [GENERATOR, '--out', dir]);
});
test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});
const corpusFile = (c: Case) => join(dir, c.file);

const n = (x: number) => x.toLocaleString('en-US');
const DELIMITERS: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe' };

/** The account line the page must show, spelled out from the expected figures. */
function account(f: Figures): string {
  return (
    `${n(f.bytes)} ${f.bytes === 1 ? 'byte' : 'bytes'} read (= the file's size) · ` +
    `${n(f.records)} ${f.records === 1 ? 'record' : 'records'} = ${n(f.header_records)} header + ${n(f.rows_total)} rows + ` +
    `${n(f.blank_records)} blank + ${n(f.error_records)} in error`
  );
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The row of the profile table of `column`. */
const columnRow = (page: Page, column: string): Locator =>
  page.locator('#profile-panel tbody tr').filter({ has: page.locator(`select[data-column="${column}"]`) });

async function expectValue(page: Page, check: Check, expect: Expect): Promise<void> {
  if (check.kind === 'columns') {
    const shown = await page.locator('#profile-panel select[data-column]').evaluateAll((s) => s.map((x) => x.getAttribute('data-column')));
    expect(shown).toEqual(check.names);
    return;
  }
  const cells = columnRow(page, check.column).locator('td');
  switch (check.kind) {
    case 'top':
      await expect(cells.nth(5)).toHaveText(new RegExp(`(^|, )${escapeRe(check.value)} \\(${escapeRe(n(check.count))}\\)(, |$)`));
      break;
    case 'not_top':
      await expect(cells.nth(5)).not.toHaveText(new RegExp(`(^|, )${escapeRe(check.value)} \\(`));
      break;
    case 'missing':
      await expect(cells.nth(4)).toHaveText(new RegExp(`^${escapeRe(n(check.count))}( |$)`));
      break;
    case 'distinct':
      await expect(cells.nth(3)).toHaveText(n(check.count));
      break;
  }
}

/** Checks what the page shows against one expected outcome (`mode`: how the file was read). */
async function expectOutcome(page: Page, o: Outcome, mode: 'strict' | 'lenient', expect: Expect = defaultExpect): Promise<void> {
  const error = page.locator('#messages .message-error');
  if (o.error) {
    const e = o.error;
    await expect(error).toBeVisible();
    const title = error.locator('.message-title');
    if (e.code === 'empty_file') {
      await expect(title).toHaveText('The file is empty.');
    } else {
      // The title names the line and the column; the detail carries the code and the message.
      if (e.line !== null) await expect(title).toContainText(new RegExp(`line ${escapeRe(n(e.line))}\\b`));
      else await expect(title).not.toContainText(/\bline \d/);
      if (e.column !== null) await expect(title).toContainText(`column “${e.column}”`);
      else await expect(title).not.toContainText('column “');
      const detail = error.locator('.message-detail');
      await expect(detail).toContainText(`(${e.code})`);
      for (const phrase of e.phrases) await expect(detail).toContainText(phrase);
      // What to do about it.
      await expect(error.locator('.message-advice')).not.toBeEmpty();
    }
    const button = error.getByRole('button', { name: 'Read leniently' });
    await expect(button).toHaveCount(mode === 'strict' && HELPS.has(e.code) ? 1 : 0);
    await expect(page.locator('#profile-panel')).toBeHidden();
    return;
  }
  const f = o.figures!;
  const profile = page.locator('#profile-panel');
  await expect(profile.locator('.read-account')).toHaveText(account(f));
  await expect(profile.locator('.lead')).toContainText(
    `${n(f.rows_total)} rows, ${n(f.columns)} columns, read as ${f.encoding} with ${DELIMITERS[f.delimiter]} as delimiter${mode === 'lenient' ? ', leniently' : '.'}`,
  );
  await expect(error).toHaveCount(0);
  // The CLI's `encoding_fallback` warning is the page's note that the file is read again.
  const expected = o.warnings ?? [];
  const note = page.locator('#messages .message-note');
  if (expected.includes('encoding_fallback')) await expect(note).toContainText('reading it again as Windows-1252');
  else await expect(note).toHaveCount(0);
  const shown = await profile.locator('.read-warnings li').evaluateAll((li) => li.map((x) => x.getAttribute('data-code') ?? ''));
  expect([...new Set(shown.filter((c) => READING.has(c)))].sort()).toEqual(expected.filter((c) => c !== 'encoding_fallback'));
  for (const [code, phrases] of Object.entries(o.warning_phrases ?? {})) {
    if (code === 'encoding_fallback') continue;
    const items = await profile.locator(`.read-warnings li[data-code="${code}"]`).allInnerTexts();
    expect(
      items.some((t) => phrases.every((p) => t.includes(p))),
      `${code}: ${phrases.join(' + ')} in ${items.join(' | ')}`,
    ).toBe(true);
  }
  await expect(profile.locator('.partial-note')).toHaveCount(f.error_records > 0 ? 1 : 0);
  for (const check of o.values ?? []) if (!check.cli_only) await expectValue(page, check, expect);
}

async function choose(page: Page, path: string): Promise<void> {
  await page.locator('#file-input').setInputFiles(path);
}

test.describe('the corpus, strict and then leniently', () => {
  for (const c of manifest.cases.filter((c) => c.page)) {
    test(`${c.name}: ${c.description}`, async ({ page }) => {
      // A known core issue: the test must fail (and will say so once the core is fixed).
      if (c.known_core_issue) test.fail(true, `known core issue: ${c.known_core_issue}`);
      const ex = c.known_core_issue ? defaultExpect.configure({ timeout: 3_000 }) : defaultExpect;
      await openApp(page);
      await expect(page.locator('#lenient-reading')).not.toBeChecked();
      await choose(page, corpusFile(c));
      await expectOutcome(page, c.strict, 'strict', ex);
      if (JSON.stringify(c.strict) === JSON.stringify(c.lenient)) return;
      // Lenient reading changes the outcome: the strict error offers it, and the file is read
      // again with it.
      await page.locator('#messages').getByRole('button', { name: 'Read leniently' }).click();
      await expect(page.locator('#lenient-reading')).toBeChecked();
      await expectOutcome(page, c.lenient, 'lenient', ex);
    });
  }
});

test('each reading error code has a title naming its line and column, and says what to do', () => {
  const codes: [string, 'input' | 'encoding'][] = [
    ['ragged_row', 'input'],
    ['unclosed_quote', 'input'],
    ['field_too_large', 'input'],
    ['too_many_columns', 'input'],
    ['not_text', 'input'],
    ['invalid_encoding', 'encoding'],
    ['too_many_values', 'input'],
    ['memory_budget_exceeded', 'input'],
  ];
  for (const [code, kind] of codes) {
    const d = describeError({ kind, code, message: 'the message', line: 12_345, column: 'age' }, 'f.csv');
    expect(d.title, code).toContain('line 12,345, column “age”');
    expect(d.detail, code).toBe(`The message (${code})`);
    expect(d.advice, code).toBeTruthy();
  }
  expect(describeError({ kind: 'input', code: 'not_text', message: 'm', line: null, column: null }, 'f.csv').advice).toContain('save it as CSV');
});

test('lenient reading is chosen with the keyboard before the file is read', async ({ page }) => {
  const c = byName('ragged_short');
  await openApp(page);
  // Reachable by Tab right after "Try the sample", operable with Space.
  await page.getByRole('button', { name: 'Try the sample' }).focus();
  await page.keyboard.press('Tab');
  const box = page.getByLabel('Lenient reading');
  await expect(box).toBeFocused();
  await page.keyboard.press('Space');
  await expect(box).toBeChecked();
  await choose(page, corpusFile(c));
  await expectOutcome(page, c.lenient, 'lenient');
  // Switching it off reads the same file again, strictly.
  await box.uncheck();
  await expectOutcome(page, c.strict, 'strict');
});

test('"Read leniently" is reached and pressed with the keyboard; the audit, its report and the drill-down read leniently', async ({ page }) => {
  const c = byName('unclosed_quote_last');
  await openApp(page);
  await choose(page, corpusFile(c));
  await expectOutcome(page, c.strict, 'strict');
  // From the checkbox, Tab reaches the message's button.
  await page.getByLabel('Lenient reading').focus();
  for (let i = 0; i < 10 && (await page.evaluate(() => document.activeElement?.id)) !== 'read-leniently'; i++) await page.keyboard.press('Tab');
  await expect(page.locator('#read-leniently')).toBeFocused();
  await page.keyboard.press('Enter');
  await expectOutcome(page, c.lenient, 'lenient');

  // The audit pass reads the file leniently as well: the same account, "partial", the warnings.
  await page.locator('select[data-column="age"]').selectOption('quasi_identifier');
  for (const other of ['id', 'notes']) await page.locator(`select[data-column="${other}"]`).selectOption('insensitive');
  await page.getByRole('button', { name: 'Run audit' }).click();
  const results = page.locator('#results-panel');
  await expect(results.locator('.card[data-metric="k_anonymity"] .card-value')).toBeVisible();
  await expect(results.locator('.read-account')).toHaveText(account(c.lenient.figures!));
  await expect(results.locator('.partial-note')).toContainText("This report is partial: 1 record of the file's 201 could not be read");
  const warnings = results.locator('ul.warnings');
  await expect(warnings).toContainText('(unclosed_quote)');
  await expect(warnings).toContainText('(partial_read)');
  await expect(results.locator('.fact[data-metric="n_records_total"] .fact-value')).toHaveText('199');

  // The HTML report gives the same account of the file.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download HTML report' }).click()]);
  const html = readFileSync((await download.path())!, 'utf8');
  expect(html).toContain(`${n(c.lenient.figures!.bytes)} bytes read (= the file&#39;s size)`);
  expect(html).toContain('201 records = 1 header + 199 rows + 0 blank + 1 in error');

  // The drill-down reads the file a third time, leniently too (strictly it would fail).
  await openSection(page, 'top-title');
  const [records] = await Promise.all([page.waitForEvent('download'), page.locator('#download-records').click()]);
  expect(readFileSync((await records.path())!, 'utf8').split('\n')[0]).toContain('line');
  await expect(page.locator('#extract-status')).toHaveAttribute('data-kind', 'done');
  await expect(page.locator('#messages .message-error')).toHaveCount(0);
});

test('a side table that fails strictly is read leniently by "Read leniently", with the same roles', async ({ page }) => {
  await openApp(page);
  await page.locator('#file-input').setInputFiles(coreFixture('g3_released.csv'));
  for (const [column, role] of Object.entries(G3_ROLES)) await page.locator(`select[data-column="${column}"]`).selectOption(role);
  // The original table with one short row at its end (line 14).
  const original = `${readFileSync(coreFixture('g3_original.csv'), 'utf8').trimEnd()}\n13,50\n`;
  const path = join(dir, 'g3_original_ragged.csv');
  writeFileSync(path, original);
  await page.locator('#original-input').setInputFiles(path);
  await expect(page.locator('#record-id')).toHaveValue('rid');
  await page.getByRole('button', { name: 'Run audit' }).click();
  const error = page.locator('#messages .message-error');
  await expect(error.locator('.message-title')).toContainText('original table');
  await expect(error.locator('.message-title')).toContainText('line 14');
  await error.getByRole('button', { name: 'Read leniently' }).click();
  // The audit runs again with the same roles (no new profile pass), now leniently.
  await expect(page.locator('#results-panel .card[data-metric="k_anonymity"] .card-value')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('#results-panel')).toContainText('Quasi-identifiers: age, zip, sex');
  await expect(page.locator('#messages .message-error')).toHaveCount(0);
});

test.describe('at 390 px wide', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the account, an unclosed quote with "Read leniently" and the lenient result, as screenshots', async ({ page }) => {
    await openApp(page);
    await choose(page, corpusFile(byName('mixed_line_endings')));
    const profile = page.locator('#profile-panel');
    await expect(profile.locator('.read-account')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.evaluate(() => document.getElementById('profile-title')?.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: 'test-results/corpus-profile-account.png' });

    const c = byName('unclosed_quote_last');
    await choose(page, corpusFile(c));
    const error = page.locator('#messages .message-error');
    await expect(error.getByRole('button', { name: 'Read leniently' })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.locator('main').screenshot({ path: 'test-results/corpus-unclosed-quote-error.png' });

    await error.getByRole('button', { name: 'Read leniently' }).click();
    await expect(profile.locator('.partial-note')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.evaluate(() => document.getElementById('profile-title')?.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: 'test-results/corpus-lenient-profile.png' });
    await page.locator('select[data-column="age"]').selectOption('quasi_identifier');
    await page.getByRole('button', { name: 'Run audit' }).click();
    const results = page.locator('#results-panel');
    await expect(results.locator('.partial-note')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.evaluate(() => document.getElementById('results-title')?.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: 'test-results/corpus-lenient-results.png' });
    const warnings = results.locator('section', { has: page.locator('#warnings-title') });
    await expect(warnings).toContainText('(partial_read)');
    await warnings.screenshot({ path: 'test-results/corpus-lenient-results-warnings.png' });
  });
});
