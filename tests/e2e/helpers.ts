import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Page, type TestInfo, type Worker } from '@playwright/test';

/** Opens the page and waits until the worker has loaded the wasm engine. */
export async function openApp(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.locator('html[data-engine="ready"]')).toBeAttached();
}

/**
 * The page's first worker named `name` ('pseudolens-audit' or 'pseudolens-reader'; the audit
 * worker started first is the current one). Workers start from blob: URLs, so only their
 * names tell them apart.
 */
export async function workerNamed(page: Page, name: string): Promise<Worker | undefined> {
  for (const worker of page.workers()) {
    if ((await worker.evaluate(() => (globalThis as unknown as { name: string }).name)) === name) return worker;
  }
  return undefined;
}

/** Clicks "Try the sample" and waits for the audit results (the sample audits itself). */
export async function runSample(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Try the sample' }).click();
  await expect(page.locator('#results-panel [data-metric="k_anonymity"] .card-value')).toBeVisible({
    timeout: 30_000,
  });
}

/**
 * Chooses the first IPSO release of the CASC census file and its original (no quasi-identifier
 * is proposed: utility is the one result) and runs the audit.
 */
export async function auditIpso(page: Page): Promise<void> {
  await openApp(page);
  await page.locator('#file-input').setInputFiles(fixture('census-ipso-01.csv'));
  await expect(page.locator('#profile-panel')).toContainText('census-ipso-01.csv');
  await page.locator('#original-input').setInputFiles(fixture('census-ipso-original.csv'));
  await expect(page.locator('#record-id')).toHaveValue('record_id');
  await page.getByRole('button', { name: 'Run audit' }).click();
}

/** The text of a headline card's number. */
export async function cardValue(page: Page, id: string): Promise<string> {
  return (await page.locator(`#results-panel .card[data-metric="${id}"] .card-value`).innerText()).trim();
}

/** Asserts the page does not scroll sideways (tables scroll inside their own boxes). */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'page is wider than the viewport').toBeLessThanOrEqual(0);
}

/** The e2e's own fixtures (the IPSO census releases), and the core's golden fixtures (golden.md
 * tables), used from the core's folder rather than copied. */
export const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
export const coreFixture = (name: string) => fileURLToPath(new URL(`../../crate/core/tests/fixtures/${name}`, import.meta.url));

/** The roles of golden G3 as the page's role selects take them. */
export const G3_ROLES: Record<string, string> = {
  rid: 'insensitive',
  age: 'quasi_identifier',
  zip: 'quasi_identifier',
  sex: 'quasi_identifier',
  income: 'insensitive',
  diag: 'sensitive',
};

/**
 * Opens the page with golden G3's release, sets `roles` and, unless `original` is false, gives
 * its original (paired by `rid`). The audit is not run.
 */
export async function openG3(page: Page, roles: Record<string, string> = G3_ROLES, original = true): Promise<void> {
  await openApp(page);
  await page.locator('#file-input').setInputFiles(coreFixture('g3_released.csv'));
  await expect(page.locator('#profile-panel')).toContainText('g3_released.csv');
  for (const [column, role] of Object.entries(roles)) await page.locator(`select[data-column="${column}"]`).selectOption(role);
  if (!original) return;
  await page.locator('#original-input').setInputFiles(coreFixture('g3_original.csv'));
  await expect(page.locator('#record-id')).toHaveValue('rid');
}

/** golden.md's E3 as a plain table: each line repeated `count` times; `rename` renames columns. */
export function expandedE3(rename: Record<string, string> = {}): string {
  const [header, ...lines] = readFileSync(coreFixture('e3.csv'), 'utf8').trim().split(/\r?\n/);
  const columns = header!
    .split(',')
    .slice(0, -1)
    .map((c) => rename[c] ?? c);
  const rows = lines.flatMap((line) => {
    const cells = line.split(',');
    return Array.from({ length: Number(cells.pop()) }, () => cells.join(','));
  });
  return `${columns.join(',')}\n${rows.join('\n')}\n`;
}

/**
 * Unfolds the long result section whose heading has the id `headingId` (such as
 * 'attribute-title'), as a reader clicks its summary line; it stays open when the results are
 * drawn again.
 */
export async function openSection(page: Page, headingId: string): Promise<void> {
  const fold = page.locator(`section[aria-labelledby="${headingId}"] > details.section-fold`);
  if (!(await fold.evaluate((d) => (d as HTMLDetailsElement).open))) await fold.locator(':scope > .section-summary').click();
}

/**
 * Where two JSON values differ, numbers compared to 1e-12 relative: the native CLI and the
 * wasm page round some special functions (ln, exp) in the last bit.
 */
export function jsonDifferences(a: unknown, b: unknown, path = '', out: string[] = []): string[] {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Math.abs(a - b) > 1e-12 * Math.max(1, Math.abs(a), Math.abs(b))) out.push(`${path}: ${a} vs ${b}`);
  } else if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${path}: ${a.length} vs ${b.length} entries`);
    else a.forEach((x, i) => jsonDifferences(x, b[i], `${path}[${i}]`, out));
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) jsonDifferences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, out);
  } else if (a !== b) out.push(`${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  return out;
}

// About 1.5 s of work for the parallel read of the profile pass in headless Chromium here (2
// cores, ~130 MB/s): time to press Cancel while it runs even on a loaded machine (60 MB was
// read whole before the press once, in a run beside other tests).
const TARGET_BYTES = 200 * 1000 * 1000;

/** A large file from a repetitive pattern (written to disk: too big to pass as a buffer). */
export function largeCsv(testInfo: TestInfo): string {
  const path = testInfo.outputPath('large.csv');
  const fd = openSync(path, 'w');
  writeSync(fd, 'patient,age,sex,postcode,admitted,ward\n');
  const block: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    block.push(
      `P${i},${20 + (i % 70)},${i % 2 ? 'F' : 'M'},75${String(i % 100).padStart(2, '0')},2023-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')},W${i % 9}\n`,
    );
  }
  const chunk = Buffer.from(block.join(''));
  for (let written = 0; written < TARGET_BYTES; written += chunk.length) writeSync(fd, chunk);
  closeSync(fd);
  return path;
}

/** Chooses `path`, waits until rows are being read, and presses Cancel. */
export async function cancelWhileReading(page: Page, path: string): Promise<void> {
  await page.locator('#file-input').setInputFiles(path);
  await expect(page.locator('#progress-panel')).toBeVisible();
  await expect(page.locator('#progress-text')).toContainText('rows');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('#messages')).toContainText('Cancelled');
  await expect(page.locator('#progress-panel')).toBeHidden();
}
