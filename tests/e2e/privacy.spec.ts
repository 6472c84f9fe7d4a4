// "The data never leaves the machine", checked from the outside: every request of the page and
// its worker is recorded, the Content-Security-Policy must arrive as an HTTP header, and a full
// sample audit must run offline with no request at all and no CSP violation.

import { expect, test } from '@playwright/test';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../../web/security-headers.ts';
import { openApp, openSection, runSample, workerNamed } from './helpers.ts';

interface Seen {
  url: string;
  afterLoad: boolean;
}

declare global {
  interface Window {
    __cspViolations: { source: string; directive: string; blocked: string }[];
  }
}

test('the sample audit runs offline with no request and no CSP violation', async ({ page, context, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const requests: Seen[] = [];
  const foreign: string[] = [];
  let loaded = false;

  // Every request, from the page and from workers.
  context.on('request', (r) => requests.push({ url: r.url(), afterLoad: loaded }));
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (new URL(url).origin !== origin) {
      foreign.push(url);
      await route.abort('blockedbyclient');
    } else {
      await route.continue();
    }
  });
  // CSP violations of the document, and those the worker forwards through the page.
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__cspViolations.push({ source: 'document', directive: e.violatedDirective, blocked: e.blockedURI }),
    );
    window.addEventListener('pseudolens:csp-violation', (e) => {
      const v = (e as CustomEvent<{ violatedDirective: string; blockedURI: string }>).detail;
      window.__cspViolations.push({ source: 'worker', directive: v.violatedDirective, blocked: v.blockedURI });
    });
  });

  const response = await page.goto('/');
  expect(response, 'no response for /').not.toBeNull();
  const headers = response!.headers();
  expect(headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(headers[name.toLowerCase()]).toBe(value);

  await expect(page.locator('html[data-engine="ready"]')).toBeAttached();
  // The standby worker loads its engine once the page's has warmed up: part of the page's load.
  await expect(page.locator('html[data-standby="ready"]')).toBeAttached();
  await page.waitForLoadState('networkidle');
  loaded = true;
  await context.setOffline(true);

  await runSample(page);
  for (const id of ['population-title', 'attribution-title', 'attribute-title', 'top-title']) await openSection(page, id);

  for (const id of ['class-size-chart', 'risk-chart', 'uniqueness-curve']) {
    const canvas = page.locator(`#${id} canvas`).first();
    await expect(canvas).toBeVisible();
    const box = await canvas.boundingBox();
    expect(box?.width ?? 0, `${id} width`).toBeGreaterThan(100);
    expect(box?.height ?? 0, `${id} height`).toBeGreaterThan(100);
  }

  // The attribution bars and the worst-class distribution get their widths through the CSSOM
  // (allowed), never a style attribute.
  await expect(page.locator('#attribution-chart .bar-fill')).toHaveCount(4);
  expect(await page.locator('#worst-distribution-0 .dist-fill').count()).toBeGreaterThan(2);
  expect(await page.locator('#results-panel [style]').count(), 'inline style attributes').toBe(
    await page.locator('#results-panel .uplot [style], #results-panel .bar-fill[style], #results-panel .dist-fill[style]').count(),
  );
  // The drill-down reads the file again in the worker and saves a Blob: still no request.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the records of these groups (CSV)' }).click(),
  ]);
  expect(download.url()).toMatch(/^blob:/);

  const violations = await page.evaluate(() => window.__cspViolations);
  expect(violations, 'CSP violations').toEqual([]);
  expect(
    requests.filter((r) => r.afterLoad).map((r) => r.url),
    'requests after the load mark',
  ).toEqual([]);
  expect(foreign, 'requests to other origins').toEqual([]);
  expect(requests.filter((r) => new URL(r.url).origin !== origin && !r.url.startsWith('data:'))).toEqual([]);
  // The page did load its parts from its own origin: the worker and the wasm module.
  expect(requests.some((r) => /worker-[\w-]+\.js$/.test(r.url))).toBe(true);
  expect(requests.some((r) => /\.wasm$/.test(r.url))).toBe(true);
});

test('a CSP violation inside the worker reaches the page', async ({ page }) => {
  // Guards the test above: if forwarding broke, "zero violations" would prove nothing.
  await page.addInitScript(() => {
    window.__cspViolations = [];
    window.addEventListener('pseudolens:csp-violation', (e) => {
      const v = (e as CustomEvent<{ violatedDirective: string; blockedURI: string }>).detail;
      window.__cspViolations.push({ source: 'worker', directive: v.violatedDirective, blocked: v.blockedURI });
    });
  });
  await openApp(page);
  const worker = await workerNamed(page, 'pseudolens-audit');
  expect(worker, 'the audit worker').toBeDefined();
  // Inside the real audit worker, try to reach another origin: the policy it inherits from the
  // page must block it.
  const outcome = await worker!.evaluate(() =>
    fetch('http://127.0.0.1:9/exfiltrate').then(
      () => 'sent',
      () => 'blocked',
    ),
  );
  expect(outcome).toBe('blocked');
  // Refused twice, by each policy the worker holds: the header's and the page's <meta>.
  const refused = { source: 'worker', directive: 'connect-src', blocked: 'http://127.0.0.1:9/exfiltrate' };
  await expect.poll(() => page.evaluate(() => window.__cspViolations)).toEqual([refused, refused]);
});

test('the _headers file for static hosts matches the served headers', async ({ request }) => {
  const served = (await request.get('/')).headers();
  const file = await (await request.get('/_headers')).text();
  const declared = new Map<string, string>();
  for (const line of file.split('\n')) {
    const m = /^\s+([\w-]+):\s*(.+)$/.exec(line);
    if (m) declared.set(m[1]!.toLowerCase(), m[2]!.trim());
  }
  expect(declared.size).toBe(Object.keys(SECURITY_HEADERS).length);
  for (const [name, value] of declared) expect(served[name], name).toBe(value);
});
