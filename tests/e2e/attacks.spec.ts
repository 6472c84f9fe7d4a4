// Attacks on a synthetic or perturbed release (spec peer-measures.md Sec 5): the G3 tables of
// Sec G3 given as release, original and control; the page's three risks with their intervals
// equal the CLI's with the same settings and seed, the section explains each attack, the
// singling-out rules are listed folded, everything works from the keyboard and at 390 px.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { expectNoHorizontalOverflow, openApp, openSection } from './helpers.ts';

const CLI = process.env.PSEUDOLENS_CLI || 'target/release/pseudolens';

const O = `age,sex,zip,income,diag
34,F,100,3100,flu
36,F,100,2900,cold
45,M,200,4100,flu
52,M,200,5200,asthma
29,F,300,2500,cold
61,M,100,3900,flu
47,F,200,4700,diabetes
38,M,300,3300,cold
55,F,300,6100,flu
42,M,100,3600,asthma
`;
const P = `age,sex,zip,income,diag
35,F,100,3000,flu
35,F,100,3000,cold
44,M,200,4000,flu
53,M,200,5000,asthma
30,F,300,2500,cold
60,M,100,4000,flu
48,F,200,5000,diabetes
39,M,,3500,cold
54,F,300,6000,flu
41,M,100,3500,asthma
`;
const C = `age,sex,zip,income,diag
33,M,100,3000,cold
58,F,200,5500,flu
40,F,300,3400,asthma
27,M,300,2400,flu
49,M,200,4300,cold
63,F,100,4200,diabetes
37,F,200,3200,flu
44,M,100,3700,cold
51,F,300,5900,flu
31,M,200,2800,asthma
`;
const ROLES: Record<string, string> = {
  age: 'quasi_identifier',
  sex: 'quasi_identifier',
  zip: 'quasi_identifier',
  income: 'quasi_identifier',
  diag: 'sensitive',
};
const csv = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

interface CliMetric {
  id: string;
  value: number | null;
  details: { ci: { low: number; high: number } };
}

function cliAttacks(): CliMetric[] {
  expect(existsSync(CLI), `the CLI ${CLI} must be built first (cargo build --release)`).toBe(true);
  const dir = mkdtempSync(join(tmpdir(), 'attacks-'));
  for (const [name, text] of [
    ['o.csv', O],
    ['p.csv', P],
    ['c.csv', C],
  ])
    writeFileSync(join(dir, name!), text!);
  const args = [
    'audit',
    join(dir, 'p.csv'),
    '--original',
    join(dir, 'o.csv'),
    '--control',
    join(dir, 'c.csv'),
    '--qi',
    'age,sex,zip,income',
    '--sensitive',
    'diag',
    '--n-attacks',
    '10',
    '--attack-seed',
    '3',
    '--json',
  ];
  const report = JSON.parse(execFileSync(CLI, args, { encoding: 'utf8' })) as { metrics: (CliMetric & { family: string })[] };
  return report.metrics.filter((m) => m.family === 'attack');
}

const percent = (x: number) => `${(x * 100).toFixed(2)}%`;

test('the attacks on the G3 release agree with the CLI, are explained, and work from the keyboard at 390 px', async ({ page }) => {
  const cli = cliAttacks();
  await page.setViewportSize({ width: 390, height: 900 });
  await openApp(page);
  await page.locator('#file-input').setInputFiles(csv('g3-release.csv', P));
  await expect(page.locator('#profile-panel')).toContainText('g3-release.csv');
  for (const [column, role] of Object.entries(ROLES)) await page.locator(`select[data-column="${column}"]`).selectOption(role);
  // The attacks need the original: their box shows once it is given.
  await expect(page.locator('#attacks-on')).toBeHidden();
  await page.locator('#original-input').setInputFiles(csv('g3-original.csv', O));
  await page.locator('#record-id').selectOption('');
  // Keyboard: the box turns on with the space bar and shows its settings.
  await page.locator('#attacks-on').focus();
  await page.keyboard.press('Space');
  await expect(page.locator('#attacks-on')).toBeChecked();
  await expect(page.locator('#n-attacks')).toBeVisible();
  await page.locator('#n-attacks').fill('10');
  await page.locator('#attack-seed').fill('3');
  await page.locator('#control-input').setInputFiles(csv('g3-control.csv', C));
  await expect(page.locator('#control-chosen')).toContainText('g3-control.csv');
  await expectNoHorizontalOverflow(page);
  await page.getByRole('button', { name: 'Run audit' }).click();

  await expect(page.locator('section[aria-labelledby="attacks-title"]')).toBeAttached({ timeout: 30_000 });
  await openSection(page, 'attacks-title');
  const section = page.locator('section[aria-labelledby="attacks-title"]');
  const rows = section.locator('tbody tr');
  await expect(rows).toHaveCount(3);
  const ids = ['anonymeter_singling_out_risk', 'anonymeter_linkability_risk', 'anonymeter_inference_risk'];
  for (const [i, id] of ids.entries()) {
    const m = cli.find((x) => x.id === id)!;
    const cell = rows.nth(i).locator('td').nth(1);
    await expect(cell).toContainText(percent(m.value!));
    await expect(cell).toContainText(`${percent(m.details.ci.low)} to ${percent(m.details.ci.high)}`);
  }
  await expect(rows.nth(2)).toContainText('Inference of diag');
  // Plain words: what the risk means with a control, and what each attack tried.
  await expect(section).toContainText('The risk is what the release adds');
  await expect(section).toContainText('seed 3');
  await expect(section.locator('.attack-explained li')).toHaveCount(3);
  // The singling-out rules: folded, opened from the keyboard.
  const rules = section.locator('#attack-queries');
  await rules.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(rules.locator('li').first()).toBeVisible();
  await expectNoHorizontalOverflow(page);
});
