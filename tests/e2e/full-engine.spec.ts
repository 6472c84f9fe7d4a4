// The page's two engines (issue 40): the first engine, loaded with the page, makes a first
// report of a CSV file (at most 0.8 MB gzipped); SUDA, the HIPAA checklist, the attacks, the
// synthetic measures, an original or a control table and protect need the full engine, which
// the audit worker fetches from the page's origin at the first request that needs it. Both
// give the same report where both can; the first refuses, by name, what it cannot do.

import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import * as first from '../../web/pkg/pseudolens_wasm.js';
import * as full from '../../web/pkg/pseudolens_full.js';
import { coreFixture, openApp } from './helpers.ts';

const pkg = (name: string) => readFileSync(new URL(`../../web/pkg/${name}`, import.meta.url));

/** The report as JSON without its timings (they differ run to run). */
const withoutTimes = (report: unknown) => JSON.stringify(report, (key, value) => (key === 'seconds' ? undefined : value));

test('the first engine refuses by name what only the full engine does, and both give the same first report', async () => {
  await first.default({ module_or_path: pkg('pseudolens_wasm_bg.wasm') });
  await full.default({ module_or_path: pkg('pseudolens_full_bg.wasm') });
  const csv = first.sample_csv();
  const config = { quasi_identifiers: ['age', 'sex', 'postcode'], sensitive: ['diagnosis'] };
  const reader = new first.TableReader(config, first.probe(config, csv, true), 0, csv.length, true);
  reader.push(csv);
  const kept = first.KeptTable.from_bytes(reader.finish());
  for (const [setting, asked] of [
    ['suda', { suda: true }],
    ['hipaa', { hipaa: true }],
    ['attacks', { attacks: { n_attacks: 10, seed: 1 } }],
    ['synthetic', { synthetic: {} }],
  ] as const) {
    const settings = { ...config, ...asked };
    expect(first.needs_full_engine(settings)).toBe(setting);
    expect(() => kept.audit(settings)).toThrow(expect.objectContaining({ code: 'needs_full_engine', message: expect.stringContaining(setting) }));
  }
  expect(first.needs_full_engine(config)).toBeUndefined();
  // The original and control tables and protect are not in the first engine at all.
  expect('Original' in first).toBe(false);
  expect('protector' in first.KeptTable.prototype).toBe(false);
  // The kept table moves into the full engine as its bytes, and gives the same report there.
  const moved = full.KeptTable.from_bytes(kept.to_bytes());
  expect(withoutTimes(moved.audit(config).report())).toBe(withoutTimes(kept.audit(config).report()));
  const suda = moved.audit({ ...config, suda: true }).report() as { metrics: { id: string }[] };
  expect(suda.metrics.map((m) => m.id)).toContain('suda_msu_records');
});

test('the first engine, which the page loads, is at most 0.8 MB gzipped and the full one is larger', () => {
  // As the browser bench measures it (tests/bench/peer.bench.ts): gzip -9 of the built module.
  const gzipped = (name: string) => gzipSync(pkg(name), { level: 9 }).length;
  expect(gzipped('pseudolens_wasm_bg.wasm')).toBeLessThanOrEqual(800_000);
  expect(gzipped('pseudolens_full_bg.wasm')).toBeGreaterThan(gzipped('pseudolens_wasm_bg.wasm'));
});

/** Audits golden G1 with its four QIs, with SUDA or without. */
async function auditG1(page: Page, suda: boolean): Promise<void> {
  await page.locator('#file-input').setInputFiles(coreFixture('suda_g1.csv'));
  await expect(page.locator('#profile-panel')).toContainText('suda_g1.csv');
  for (const column of ['age', 'sex', 'zip', 'job']) await page.locator(`select[data-column="${column}"]`).selectOption('quasi_identifier');
  await page.locator('#suda').setChecked(suda);
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel [data-metric="k_anonymity"] .card-value')).toBeVisible({ timeout: 30_000 });
}

test('a report with SUDA fetches the full engine from the page’s origin, once', async ({ page, context }) => {
  await openApp(page);
  await expect(page.locator('html[data-standby="ready"]')).toBeAttached();
  const after: string[] = [];
  context.on('request', (r) => after.push(r.url()));
  await auditG1(page, false);
  expect(after, 'requests for a first report').toEqual([]);
  await auditG1(page, true);
  await expect(page.locator('#suda-title')).toBeAttached();
  await auditG1(page, true);
  const origin = new URL(page.url()).origin;
  const wasm = new RegExp(`^${origin}/assets/pseudolens_full_bg-[\\w-]+\\.wasm$`);
  const glue = new RegExp(`^${origin}/assets/pseudolens_full-[\\w-]+\\.js$`);
  expect(
    after.filter((u) => wasm.test(u)),
    'the full engine fetched once',
  ).toHaveLength(1);
  expect(
    after.filter((u) => !wasm.test(u) && !glue.test(u)),
    'requests not of the full engine',
  ).toEqual([]);
});

test('offline before the first report with SUDA: the page says the full engine could not be fetched, and runs once back online', async ({ page, context }) => {
  await openApp(page);
  await expect(page.locator('html[data-standby="ready"]')).toBeAttached();
  await context.setOffline(true);
  await page.locator('#file-input').setInputFiles(coreFixture('suda_g1.csv'));
  await expect(page.locator('#profile-panel')).toContainText('suda_g1.csv');
  for (const column of ['age', 'sex', 'zip', 'job']) await page.locator(`select[data-column="${column}"]`).selectOption('quasi_identifier');
  await page.locator('#suda').check();
  await page.getByRole('button', { name: 'Run audit' }).click();
  const messages = page.locator('#messages');
  await expect(messages).toContainText('These settings need the full engine, which could not be fetched.');
  await expect(messages).toContainText('This browser is offline and the page is not installed for offline use.');
  await context.setOffline(false);
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#suda-title')).toBeAttached({ timeout: 30_000 });
});
