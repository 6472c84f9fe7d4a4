// The self-contained HTML report: saved from the page after the sample audit, it names the
// input with the SHA-256 of the very bytes audited, lists the roles, the settings and every
// metric with its sentence, carries the charts as PNG images, holds no script and no outside
// link, and opens offline in a fresh page with no request at all; it prints to PDF through its
// print CSS.

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import init, { sample_csv } from '../../web/pkg/pseudolens_wasm.js';
import { explain } from '../../web/src/ui/explain.ts';
import { openApp, runSample } from './helpers.ts';

interface SavedReport {
  input: { bytes: number; sha256?: string | null };
  params: { quasi_identifiers: string[]; sensitive?: string[]; missing_policy: string; threshold: number };
  metrics: { id: string; status: string }[];
}

/** The SHA-256 of the sample's bytes, from the same wasm core the page runs. */
async function sampleSha256(): Promise<string> {
  await init({ module_or_path: readFileSync(new URL('../../web/pkg/pseudolens_wasm_bg.wasm', import.meta.url)) });
  return createHash('sha256').update(sample_csv()).digest('hex');
}

async function save(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  expect(download.url()).toMatch(/^blob:/);
  return { name: download.suggestedFilename(), text: readFileSync((await download.path())!, 'utf8') };
}

/** The text of the HTML: tags dropped, the escaper's entities decoded. */
function plain(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&amp;/g, '&');
}

test('the HTML report holds the whole audit and opens offline', async ({ page, browser }) => {
  const sha256 = await sampleSha256();
  await openApp(page);
  await runSample(page);

  // The two reports side by side in the results header.
  const head = page.locator('.results-head');
  await expect(head.getByRole('button', { name: 'Download JSON report' })).toBeVisible();
  await expect(head.getByRole('button', { name: 'Download HTML report' })).toBeVisible();
  const json = await save(page, 'Download JSON report');
  const report = JSON.parse(json.text) as SavedReport;
  const saved = await save(page, 'Download HTML report');
  expect(saved.name).toBe(json.name.replace(/\.json$/, '.html'));
  const html = saved.text;
  const path = resolve('test-results/html-report.html');
  writeFileSync(path, html);
  const text = plain(html);

  // The input: its name, size and the hash of the very bytes the page audited.
  expect(report.input.sha256).toBe(sha256);
  const inputRow = text.slice(text.indexOf('Released file (audited)'));
  expect(inputRow).toContain('Sample (synthetic hospital data)');
  expect(inputRow).toContain(`${report.input.bytes.toLocaleString('en-US')} bytes`);
  expect(inputRow).toContain(sha256);

  // Tool, version and time of making.
  const version = /engine (\S+) loaded/.exec(await page.locator('#engine').innerText())?.[1];
  expect(version, 'the engine version on the page').toBeTruthy();
  expect(text).toContain(`pseudolens ${version}`);
  const stamp = /<time datetime="([^"]+)">/.exec(html)?.[1];
  expect(Math.abs(Date.now() - Date.parse(stamp ?? ''))).toBeLessThan(5 * 60_000);

  // Roles, policies and thresholds.
  const qis = report.params.quasi_identifiers;
  expect(qis.length).toBeGreaterThan(0);
  expect(html).toMatch(new RegExp(`data-param="quasi_identifiers">.*?<td>${qis.join(', ')}</td>`));
  expect(html).toMatch(new RegExp(`data-param="sensitive">.*?<td>${(report.params.sensitive ?? []).join(', ') || 'none'}</td>`));
  expect(html).toMatch(new RegExp(`data-param="missing_policy">.*?<dd>${report.params.missing_policy}</dd>`));
  expect(html).toMatch(new RegExp(`data-param="threshold">.*?<dd>${report.params.threshold}</dd>`));
  for (const key of ['record_id', 'person_id', 'weight', 'ignored', 'records_at_risk_threshold', 'scorr_k_min']) {
    expect(html, `setting ${key}`).toContain(`data-param="${key}"`);
  }

  // Every metric, with its sentence; a few checked by value as well.
  const metrics = html.slice(html.indexOf('<section class="panel report-block" id="report-metrics"'));
  const rows = metrics.match(/<tr data-metric="/g) ?? [];
  const row = (id: string) => new RegExp(`<tr data-metric="${id}"[^>]*>(.*?)</tr>`).exec(metrics)?.[1];
  expect(rows.length).toBe(report.metrics.length);
  for (const id of ['k_anonymity', 'sample_uniques', 'r_internal', 'prosecutor_highest_risk', 'l_distinct', 't_closeness']) {
    expect(row(id), `metric ${id}`).toBeTruthy();
    expect(plain(row(id)!), `sentence of ${id}`).toContain(explain(id));
  }
  const cardK = (await page.locator('#results-panel .card[data-metric="k_anonymity"] .card-value').innerText()).trim();
  expect(plain(row('k_anonymity')!)).toContain(`k_anonymity${cardK}`);
  const rInternal = (await page.locator('#results-panel .card[data-metric="r_internal"] .card-value').innerText()).trim();
  expect(plain(row('r_internal')!)).toContain(rInternal);
  // A metric that could not be computed says so and why.
  expect(metrics).toContain('<tr data-metric="k_anonymity_person" data-status="not_applicable">');
  expect(plain(row('k_anonymity_person')!)).toContain('not applicable: ');

  // Charts as images; nothing that runs or reaches out; no controls left over.
  const charts = html.match(/<img [^>]*src="data:image\/png;base64,[^"]{2000,}"/g) ?? [];
  expect(charts.length, 'charts as PNG images').toBeGreaterThanOrEqual(3);
  expect(html).not.toMatch(/<canvas/i);
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/https?:/i);
  expect(html).not.toMatch(/<(button|input|select|textarea|link|iframe|object|embed)\b/i);
  expect(html).not.toMatch(/url\(/i);
  expect(html).toContain('@media print');

  // A fresh page, offline, with every request but the file itself blocked: it must need none.
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, offline: true });
  const fileUrl = pathToFileURL(path).href;
  const requests: string[] = [];
  context.on('request', (r) => requests.push(r.url()));
  await context.route('**', (route) => (route.request().url() === fileUrl ? route.continue() : route.abort('blockedbyclient')));
  const offline = await context.newPage();
  await offline.goto(fileUrl);
  await offline.waitForLoadState('load');
  expect(
    requests.filter((u) => u !== fileUrl),
    'requests of the saved report',
  ).toEqual([]);

  // It reads as a report: the hash, the charts decoded at their size, the traffic light.
  await expect(offline.locator('h1')).toHaveText('pseudolens audit report');
  await expect(offline.locator('#report-inputs')).toContainText(sha256);
  const images = offline.locator('img.chart-image');
  expect(await images.count()).toBeGreaterThanOrEqual(3);
  for (const img of await images.all()) {
    await expect(img).toBeVisible();
    expect(await img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 100)).toBe(true);
  }
  const overflow = await offline.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'the report is wider than the window').toBeLessThanOrEqual(0);
  await offline.screenshot({ path: 'test-results/html-report.png', fullPage: true });

  // Printed: print CSS, A4, the charts within the page width.
  await offline.emulateMedia({ media: 'print' });
  const widest = await offline.evaluate(() => Math.max(...[...document.querySelectorAll('img.chart-image')].map((i) => i.getBoundingClientRect().right)));
  expect(widest).toBeLessThanOrEqual(await offline.evaluate(() => document.documentElement.clientWidth));
  const pdf = await offline.pdf({ path: 'test-results/html-report.pdf', format: 'A4' });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(requests.filter((u) => u !== fileUrl)).toEqual([]);
  await context.close();
});

test('the HTML report names an uploaded file and its original with their SHA-256', async ({ page }) => {
  const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
  const sha = (name: string) =>
    createHash('sha256')
      .update(readFileSync(fixture(name)))
      .digest('hex');
  await openApp(page);
  await page.locator('#file-input').setInputFiles(fixture('census-ipso-01.csv'));
  await expect(page.locator('#profile-panel')).toContainText('census-ipso-01.csv');
  await page.locator('#original-input').setInputFiles(fixture('census-ipso-original.csv'));
  await expect(page.locator('#original-chosen')).toContainText('census-ipso-original.csv');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.getByRole('button', { name: 'Download HTML report' })).toBeVisible({ timeout: 30_000 });

  const { name, text: html } = await save(page, 'Download HTML report');
  expect(name).toBe('pseudolens-report-census-ipso-01.html');
  writeFileSync('test-results/html-report-utility.html', html);
  const inputs = (what: string) => plain(new RegExp(`<tr data-input="${what}">(.*?)</tr>`).exec(html)?.[1] ?? '');
  const released = inputs('Released file \\(audited\\)');
  expect(released).toContain('census-ipso-01.csv');
  expect(released).toContain(sha('census-ipso-01.csv'));
  expect(released).toContain(`${readFileSync(fixture('census-ipso-01.csv')).length.toLocaleString('en-US')} bytes`);
  const original = inputs('Original table \\(utility\\)');
  expect(original).toContain('census-ipso-original.csv');
  expect(original).toContain(sha('census-ipso-original.csv'));
  expect(html).not.toContain('data-input="Population / reference table"');
  expect(html).toMatch(/data-param="record_id">.*?<td>record_id<\/td>/);
  expect(html).not.toMatch(/<script|https?:/i);
});
