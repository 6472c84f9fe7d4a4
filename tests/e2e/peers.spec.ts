// The peers' measures on the page (issue 16, Deliver 2, 4, 5): k-map and δ-presence with a
// population table (golden G2 of peer-measures.md) in the identity part, the HIPAA Safe Harbor
// checklist as its own section, and the row-order leak beside the utility results; their
// settings in step 2, by keyboard, at 390 px, and in the settings link.

import { expect, test, type Page } from '@playwright/test';
import { expectNoHorizontalOverflow, openApp, openSection } from './helpers.ts';

/** G1 of peer-measures.md (the release of G2, QIs age and sex). */
const G1 = `rid,age,sex,zip,job,hid
1,30,F,100,clerk,H1
2,30,F,100,clerk,H1
3,30,M,100,clerk,H2
4,30,M,200,nurse,H2
5,40,F,200,nurse,H3
6,40,F,200,nurse,H3
7,40,F,200,nurse,H3
8,40,M,100,nurse,H4
9,40,M,300,clerk,H4
10,50,F,100,nurse,H5
11,50,M,200,clerk,H6
12,50,M,200,,H6
`;

/** The population E2 of G2. */
function e2(): string {
  const keys: [string, string, number][] = [
    ['30', 'F', 10],
    ['30', 'M', 8],
    ['40', 'F', 3],
    ['40', 'M', 5],
    ['50', 'F', 2],
    ['50', 'M', 6],
    ['60', 'F', 4],
  ];
  return `age,sex\n${keys.flatMap(([a, s, n]) => Array.from({ length: n }, () => `${a},${s}`)).join('\n')}\n`;
}

const csv = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

async function choose(page: Page, name: string, text: string, roles: Record<string, string>): Promise<void> {
  await page.locator('#file-input').setInputFiles(csv(name, text));
  await expect(page.locator('#profile-panel')).toContainText(name);
  for (const select of await page.locator('#profile-panel select[data-column]').all()) {
    await select.selectOption(roles[(await select.getAttribute('data-column'))!] ?? 'insensitive');
  }
}

async function run(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.locator('#results-panel [data-metric="k_anonymity"] .card-value')).toBeVisible({ timeout: 30_000 });
}

test('k-map and δ-presence with a population table give the golden values of G2', async ({ page }) => {
  await openApp(page);
  await choose(page, 'g2.csv', G1, { age: 'quasi_identifier', sex: 'quasi_identifier' });
  await page.locator('#reference-input').setInputFiles(csv('e2.csv', e2()));
  await expect(page.locator('#reference-chosen')).toContainText('e2.csv');
  await page.locator('#delta-min').fill('0.1');
  await page.locator('#delta-max').fill('0.6');
  await run(page);

  await openSection(page, 'kmap-title');
  const section = page.locator('section[aria-labelledby="kmap-title"]');
  await expect(section.locator('.fact[data-metric="k_map"] .fact-value').first()).toHaveText('2');
  await expect(section.locator('.fact[data-metric="k_map"]').nth(1)).toContainText('not met');
  await expect(section.locator('.fact[data-metric="k_map"]').nth(1)).toContainText('2 groups (4 records) match fewer than 5 people');
  await section.getByText('The groups with the fewest look-alikes').click();
  await expect(page.locator('#kmap-lowest tbody tr').first()).toContainText('age 50, sex F');
  await expect(section.locator('.fact[data-metric="delta_presence"]').first()).toContainText('0.00% – 100.00%');
  await expect(section.locator('.fact[data-metric="delta_presence"]').nth(1)).toContainText('2 of 7 population groups lie outside');
  await expect(section.locator('.kmap-verdict')).toContainText('δ-presence within the bounds: not met');
  await section.getByText('The population groups, highest δ first').click();
  await expect(page.locator('#delta-classes tbody tr')).toHaveCount(7);
  await expect(page.locator('#delta-classes tbody tr').last()).toContainText('age 60, sex F');
  // The estimated form is not available without a population size, and says why.
  await expect(section.locator('p.note[data-metric="k_map_estimated"]')).toContainText('no population size was given');
  await expect(page.locator('#results-panel')).not.toContainText('NaN');
  await section.screenshot({ path: 'test-results/peers-kmap.png' });
});

test('the HIPAA checklist by keyboard, at 390 px, and in the settings link', async ({ page, browser }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await openApp(page);
  const data = `name,zip,admitted,age,email,ward
Mary Smith,02139,2021-03-04,93,m@x.org,A
John Miller,036**,2021-04-05,45,j@x.org,B
Linda Jones,100**,2021-05-06,90+,l@x.org,A
`;
  await choose(page, 'hipaa.csv', data, { age: 'quasi_identifier', ward: 'quasi_identifier' });
  // The checkbox is reached and ticked by keyboard.
  const box = page.locator('#hipaa');
  await box.focus();
  await page.keyboard.press('Space');
  await expect(box).toBeChecked();
  await page.locator('#k-map').fill('3');
  await run(page);

  await openSection(page, 'hipaa-title');
  const list = page.locator('#hipaa-list');
  await expect(list.locator(':scope > li')).toHaveCount(18);
  await expect(page.locator('#hipaa-summary')).toHaveText('Found: 4 of the 18 kinds.');
  const item = (kind: string) => list.locator(`li[data-kind="${kind}"]`);
  await expect(item('names').locator('.hipaa-status')).toHaveText('Found');
  await expect(item('names')).toContainText('Column “name”');
  await expect(item('geographic')).toContainText('for example 02139');
  await expect(item('geographic')).toContainText('036**');
  await expect(item('dates')).toContainText('Column “admitted”');
  await expect(item('dates')).toContainText('Column “age”');
  await expect(item('email').locator('.hipaa-status')).toHaveText('Found');
  await expect(item('ssn').locator('.hipaa-status')).toHaveText('No finding');
  await expect(item('biometric').locator('.hipaa-status')).toHaveText('Not checkable');
  await expect(item('biometric')).toContainText('only the column names were checked');
  await expect(page.locator('section[aria-labelledby="hipaa-title"]')).not.toContainText(/\bcompliant\b/i);
  await expect(page.locator('section[aria-labelledby="hipaa-title"]')).toContainText('not a statement that the file complies');
  await expectNoHorizontalOverflow(page);
  await page.locator('section[aria-labelledby="hipaa-title"]').screenshot({ path: 'test-results/peers-hipaa-390.png' });
  await page.locator('fieldset.peer-settings').screenshot({ path: 'test-results/peers-settings-390.png' });

  // The settings travel in the link, and come back in a fresh browser.
  await page.getByText('Share these settings: a link or a settings file').click();
  const link = await page.locator('#settings-link').inputValue();
  const params = new URLSearchParams(new URL(link).hash.slice(1));
  const settings = JSON.parse(Buffer.from(params.get('settings')!.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8'));
  expect(settings).toMatchObject({ hipaa: true, k_map: 3, k_map_estimator: 'poisson', row_order_threshold: 0.9 });
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  await expect(other.locator('html[data-engine="ready"]')).toBeAttached();
  await other.locator('#file-input').setInputFiles(csv('hipaa.csv', data));
  await expect(other.locator('#results-panel [data-metric="k_anonymity"] .card-value')).toBeVisible({ timeout: 30_000 });
  await expect(other.locator('#hipaa')).toBeChecked();
  await expect(other.locator('#k-map')).toHaveValue('3');
  await expect(other.locator('#hipaa-summary')).toHaveText('Found: 4 of the 18 kinds.');
  await fresh.close();
});

test('the row-order leak warns when the release keeps the original order, and says why without a record id', async ({ page }) => {
  await openApp(page);
  const original = 'id,age,sex\n1,30,F\n2,40,M\n3,50,F\n4,60,M\n5,70,F\n6,30,M\n';
  await choose(page, 'released.csv', original, { age: 'quasi_identifier', sex: 'quasi_identifier' });
  await page.locator('#original-input').setInputFiles(csv('original.csv', original));
  await page.locator('#record-id').selectOption('id');
  await page.locator('#row-order-threshold').fill('0.95');
  await run(page);
  const section = page.locator('section[aria-labelledby="row-order-title"]');
  await expect(section).toBeVisible();
  await expect(section.locator('.fact[data-metric="row_order_correlation"] .fact-value')).toHaveText('1.0000');
  await expect(page.locator('#row-order-leak')).toContainText('|ρ| ≥ 0.9500 over 6 records');
  await expect(page.locator('#warnings-section li[data-code="row_order_follows_original"]')).toBeVisible();

  // Paired by row order: no answer, said in words.
  await page.locator('#record-id').selectOption('');
  await run(page);
  await expect(page.locator('#row-order-missing')).toContainText('pair them by a record id column');
});
