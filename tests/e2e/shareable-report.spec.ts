// A report safe to share (issue 13, Deliver 2): the HTML report opens with a notice of what it
// holds and the verdict with its reasons, the settings last; at download the user chooses the
// full report (confidential: it holds record-level values) or the shareable variant, which the
// core makes from the report the engine holds, so the page's JSON is exactly the CLI's
// `--shareable` (the same core function) at any minimum, and the HTML shows no class, value or
// cell of fewer records.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import init, { sample_csv } from '../../web/pkg/pseudolens_wasm.js';
import { jsonDifferences, openApp, openG3, runSample } from './helpers.ts';

const CLI = process.env.PSEUDOLENS_CLI || 'target/release/pseudolens';

interface Json {
  [key: string]: unknown;
}

async function save(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return { name: download.suggestedFilename(), text: readFileSync((await download.path())!, 'utf8') };
}

/** Where each part of the HTML report starts. */
function order(html: string, ids: string[]): number[] {
  return ids.map((id) => html.indexOf(`id="${id}"`));
}

interface TopClass {
  values: Record<string, string | null>;
  size: number;
}

/** The riskiest classes of a report (`record_risk.details.top`). */
function topClasses(report: Json): TopClass[] {
  const metrics = report.metrics as { id: string; details: { top?: TopClass[] } }[];
  return metrics.find((m) => m.id === 'record_risk')?.details.top ?? [];
}

test('the full report says it is confidential and opens with the verdict; the shareable one holds only aggregates', async ({ page }) => {
  await init({ module_or_path: readFileSync(new URL('../../web/pkg/pseudolens_wasm_bg.wasm', import.meta.url)) });
  await openApp(page);
  await runSample(page);

  // The choice at download, with what the full report holds.
  const variant = page.getByRole('group', { name: 'Report to download' });
  await expect(variant.getByRole('radio', { name: 'Full report' })).toBeChecked();
  await expect(variant).toContainText(/Confidential: it holds record-level values \([\d,]+ entries about fewer than 5 records\)/);
  await expect(page.locator('#shareable-k')).toHaveValue('5');
  await expect(page.getByLabel('Minimum number of records')).toHaveValue('5');

  const full = JSON.parse((await save(page, 'Download JSON report')).text) as Json;
  const fullHtml = await save(page, 'Download HTML report');
  writeFileSync('test-results/shareable-full.html', fullHtml.text);
  // Opens with the notice and the verdict with its reasons; the settings last.
  const parts = order(fullHtml.text, ['report-disclosure', 'report-verdict', 'report-results', 'report-metrics', 'report-inputs', 'report-roles']);
  expect(
    parts.every((at) => at > 0),
    `every part is there: ${parts}`,
  ).toBe(true);
  expect([...parts].sort((a, b) => a - b)).toEqual(parts);
  expect(fullHtml.text).toContain('data-disclosure="confidential"');
  expect(fullHtml.text).toContain('Confidential: this report contains record-level values');
  expect(fullHtml.text).toMatch(/id="report-verdict"[\s\S]*?class="verdict-reasons"/);
  const small = topClasses(full).filter((c) => c.size < 5);
  expect(small.length, 'the sample has classes of fewer than 5 records').toBeGreaterThan(0);

  // The shareable variant at k = 5: the core's own filtering. The CLI on the same bytes with
  // the same settings (the report's params) gives the same report, how the rows were read aside.
  await variant.getByRole('radio', { name: /Shareable/ }).check();
  const json = await save(page, 'Download JSON report');
  expect(json.name).toBe('pseudolens-report-Sample_synthetic_hospital_data_-shareable.json');
  const safe = JSON.parse(json.text) as Json;
  expect((safe.shareable as { min_count: number }).min_count).toBe(5);
  expect(existsSync(CLI), `the CLI ${CLI} must be built first`).toBe(true);
  const csv = resolve('test-results/shareable-sample.csv');
  writeFileSync(csv, Buffer.from(sample_csv()));
  const params = resolve('test-results/shareable-params.json');
  writeFileSync(params, JSON.stringify(full.params));
  const sameAsCli = (page: Json, k: number) => {
    const cli = JSON.parse(execFileSync(CLI, ['audit', csv, '--settings', params, '--shareable', String(k)], { maxBuffer: 256 << 20 }).toString()) as Json;
    const { read: _cliRead, ...cliRest } = cli;
    const { read: _pageRead, ...pageRest } = page;
    expect(jsonDifferences(cliRest, pageRest)).toEqual([]);
  };
  sameAsCli(safe, 5);
  expect(topClasses(safe).every((c) => c.size >= 5)).toBe(true);

  const html = (await save(page, 'Download HTML report')).text;
  writeFileSync('test-results/shareable.html', html);
  expect(html).toContain('data-disclosure="shareable"');
  expect(html).not.toContain('record-level values');
  const shown = order(html, ['report-disclosure', 'report-verdict', 'report-results', 'report-metrics', 'report-inputs', 'report-roles']);
  expect([...shown].sort((a, b) => a - b)).toEqual(shown);
  // The riskiest groups as the page draws them, from the shareable report: no class under 5.
  const groups = [...html.matchAll(/<tr[^>]*>((?:(?!<\/tr>)[\s\S])*?)<\/tr>/g)].map((m) => m[1]!);
  for (const c of small) {
    const cells = Object.values(c.values).map((v) => `<td>${v ?? ''}</td>`);
    const row = groups.find((r) => cells.every((cell) => r.includes(cell)));
    expect(row, `class ${JSON.stringify(c.values)} of ${c.size} records`).toBeUndefined();
  }
  // The full one did show them.
  const fullRows = [...fullHtml.text.matchAll(/<tr[^>]*>((?:(?!<\/tr>)[\s\S])*?)<\/tr>/g)].map((m) => m[1]!);
  expect(small.some((c) => fullRows.some((r) => Object.values(c.values).every((v) => r.includes(`<td>${v ?? ''}</td>`))))).toBe(true);
  expect(html).not.toMatch(/<script|https?:/i);
  const opened = await page.context().newPage();
  await opened.setViewportSize({ width: 390, height: 800 });
  const path = resolve('test-results/shareable.html');
  await opened.goto(pathToFileURL(path).href);
  await expect(opened.locator('#report-disclosure')).toContainText('Shareable: aggregates only');
  const box = await opened.locator('#report-results').boundingBox();
  expect(box && box.x >= 0 && box.width <= 390, `the results are in the page: ${JSON.stringify(box)}`).toBe(true);
  await opened.screenshot({ path: 'test-results/shareable-390.png', fullPage: false });
  await opened.close();

  // Another minimum, typed by the user: made by the worker from the report it holds.
  await page.locator('#shareable-k').fill('10');
  const ten = JSON.parse((await save(page, 'Download JSON report')).text) as Json;
  expect((ten.shareable as { min_count: number }).min_count).toBe(10);
  sameAsCli(ten, 10);
});

test('the download choice works with the keyboard alone', async ({ page }) => {
  await openApp(page);
  await runSample(page);
  await page.getByRole('radio', { name: 'Full report' }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: /Shareable/ })).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(page.locator('#shareable-k')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('radio', { name: /Shareable/ })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('button', { name: 'Download HTML report' })).toBeFocused();
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toMatch(/-shareable\.html$/);
  await page.locator('.results-head').screenshot({ path: 'test-results/shareable-choice.png' });
});

test('a shareable report of a release against its original draws its utility results too', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openG3(page);
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel [data-metric="k_anonymity"] .card-value')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('radio', { name: /Shareable/ }).check();
  const html = (await save(page, 'Download HTML report')).text;
  expect(errors).toEqual([]);
  expect(html).toContain('data-disclosure="shareable"');
  const results = html.slice(html.indexOf('id="report-results"'), html.indexOf('id="report-metrics"'));
  expect(results).toContain('Utility');
  expect(results.length).toBeGreaterThan(20_000);
});

/** A table with identifying columns (issue 36): a name (`Hans Schwarz` held by 57 records),
 * an e-mail address, a phone number and an exact date of birth (each its own) per record, the
 * quasi-identifiers age, sex, postcode and occupation (one occupation of one record), a
 * diagnosis (one of one record) and free-text remarks no metric reads (two of many records);
 * and the values no shareable output may hold: every value of the identifying columns and of
 * the remarks, and the rare values. */
function identifying(): { csv: string; secret: string[] } {
  let state = 36n;
  const below = (n: number): number => {
    state = (state * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    return Number((state >> 33n) % BigInt(n));
  };
  const first = ['Anna', 'Jonas', 'Lea', 'Felix', 'Mia', 'Paul', 'Emma', 'Lukas', 'Sofia', 'Elias', 'Clara', 'Noah'];
  const last = ['Keller', 'Brandt', 'Vogel', 'Hartmann', 'Krause', 'Lorenz', 'Seidel', 'Fuchs', 'Peters', 'Winter'];
  const secret = new Set(['Lighthouse keeper', 'Kuru disease']);
  const lines = ['patient_name,email,phone,birth_date,age,sex,postcode,occupation,diagnosis,remarks'];
  for (let i = 0; i < 400; i++) {
    const [f, l] = i % 7 === 3 ? ['Hans', 'Schwarz'] : [first[below(12)]!, last[below(10)]!];
    const name = `${f} ${l}`;
    const email = `${f.toLowerCase()}.${l.toLowerCase()}${i}@example.org`;
    const phone = `+49 30 ${1_000_000 + below(8_999_999)}`;
    const birth = `${1930 + Math.floor(i / 6)}-${String(1 + 2 * (i % 6)).padStart(2, '0')}-${String(1 + below(28)).padStart(2, '0')}`;
    const occupation = i === 17 ? 'Lighthouse keeper' : ['nurse', 'teacher', 'clerk', 'driver'][below(4)]!;
    const diagnosis = i === 99 ? 'Kuru disease' : ['flu', 'asthma', 'gout', 'angina'][below(4)]!;
    const remark = i === 123 ? 'lives next door to the mayor' : ['called back twice', 'prefers morning visits'][below(2)]!;
    lines.push([name, email, phone, birth, 20 + below(60), ['F', 'M'][below(2)], 10_000 + 1_000 * below(9), occupation, diagnosis, remark].join(','));
    for (const v of [name, email, phone, birth, remark]) secret.add(v);
  }
  return { csv: `${lines.join('\n')}\n`, secret: [...secret] };
}

const IDENTIFYING_ROLES: Record<string, string> = {
  patient_name: 'direct_identifier',
  email: 'direct_identifier',
  phone: 'direct_identifier',
  birth_date: 'quasi_identifier',
  age: 'quasi_identifier',
  sex: 'quasi_identifier',
  postcode: 'quasi_identifier',
  occupation: 'quasi_identifier',
  diagnosis: 'sensitive',
  remarks: 'insensitive',
};

test('no shareable output holds a name, an e-mail address, a phone number, a date of birth, an unaudited value or a rare one', async ({ page }) => {
  const { csv, secret } = identifying();
  const found = (text: string): string[] => secret.filter((v) => text.includes(v));
  await openApp(page);
  await page.locator('#file-input').setInputFiles({ name: 'identifying.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.locator('#profile-panel')).toContainText('identifying.csv');
  for (const [column, role] of Object.entries(IDENTIFYING_ROLES)) await page.locator(`select[data-column="${column}"]`).selectOption(role);
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel [data-metric="k_anonymity"] .card-value')).toBeVisible({ timeout: 30_000 });

  const full = (await save(page, 'Download JSON report')).text;
  expect(full).toContain('"Hans Schwarz"');
  expect(found(full).length, 'the full report holds such values: the search can find them').toBeGreaterThan(1);
  await page.getByRole('radio', { name: /Shareable/ }).check();
  const outputs: Record<string, string> = {
    'shareable JSON': (await save(page, 'Download JSON report')).text,
    'shareable HTML': (await save(page, 'Download HTML report')).text,
  };
  // The CLI with the page's settings, at its default minimum and at 2.
  expect(existsSync(CLI), `the CLI ${CLI} must be built first`).toBe(true);
  const file = resolve('test-results/shareable-identifying.csv');
  writeFileSync(file, csv);
  const params = resolve('test-results/shareable-identifying-params.json');
  writeFileSync(params, JSON.stringify((JSON.parse(full) as Json).params));
  for (const k of [[], ['2']]) {
    outputs[`CLI --shareable ${k.join('')}`] = execFileSync(CLI, ['audit', file, '--settings', params, '--shareable', ...k], {
      maxBuffer: 256 << 20,
    }).toString();
  }
  for (const [what, text] of Object.entries(outputs)) expect(found(text), what).toEqual([]);
  // What was audited and held by enough records stays.
  expect(outputs['shareable JSON']).toContain('"nurse"');
});
