// A host that sends no headers (GitHub Pages, most intranet servers), the build served under a
// sub-path: the page and every worker must still be unable to reach another origin. The
// policy comes from the page's <meta> element, and the workers inherit it (they start from
// blob: URLs, web/src/worker/spawn.ts). Checked from inside the page and each worker against
// a second local server that counts the requests it gets: none may arrive, and each attempt
// must be refused by the policy.

import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page, type Worker } from '@playwright/test';
import { runSample } from './helpers.ts';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const SUB_PATH = '/some/path/';
/** The content types a plain static server sends (and nothing else: no security headers). */
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.csv': 'text/csv',
};

/** Serves dist/ under SUB_PATH with a content type and length only. */
function staticServer(): Server {
  return createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    if (!path.startsWith(SUB_PATH)) return void response.writeHead(404).end();
    const file = normalize(join(DIST, path.slice(SUB_PATH.length) || 'index.html'));
    if (!file.startsWith(DIST)) return void response.writeHead(404).end();
    readFile(file).then(
      (body) => response.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => response.writeHead(404).end(),
    );
  });
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

let site: Server;
let other: Server;
let sitePort: number;
let otherPort: number;
/** Every request that reached the other origin. */
const arrived: string[] = [];

test.beforeAll(async () => {
  site = staticServer();
  other = createServer((request, response) => {
    arrived.push(request.url ?? '');
    response.writeHead(200, { 'Access-Control-Allow-Origin': '*' }).end('got it');
  });
  [sitePort, otherPort] = await Promise.all([listen(site), listen(other)]);
});

test.afterAll(async () => {
  await Promise.all([site, other].map((s) => new Promise((resolve) => s.close(resolve))));
});

/** What became of one attempt to reach `target` from some realm: sent or refused, and the violations. */
interface Attempt {
  outcome: 'sent' | 'refused';
  violations: string[];
}

/** The attempt, as run inside the page or a worker (serialized: it uses only its argument). */
async function attempt(target: string): Promise<Attempt> {
  const violations: string[] = [];
  const listener = (e: Event) => {
    const v = e as SecurityPolicyViolationEvent;
    violations.push(`${v.violatedDirective} ${v.blockedURI}`);
  };
  globalThis.addEventListener('securitypolicyviolation', listener);
  // no-cors: with no policy, the request goes out and the fetch resolves (an opaque answer).
  const outcome = await fetch(target, { mode: 'no-cors', cache: 'no-store' }).then(
    () => 'sent' as const,
    () => 'refused' as const,
  );
  // The violation event is queued as a task of its own.
  await new Promise((resolve) => setTimeout(resolve, 200));
  globalThis.removeEventListener('securitypolicyviolation', listener);
  return { outcome, violations };
}

/** The workers of `page` by their names (every worker of the page has a blob: URL). */
async function workersByName(page: Page): Promise<Map<Worker, string>> {
  const names = new Map<Worker, string>();
  for (const worker of page.workers()) names.set(worker, await worker.evaluate(() => (globalThis as unknown as { name: string }).name));
  return names;
}

test('on a host that sends no headers, under a sub-path, the page and every worker cannot reach another origin', async ({ page }) => {
  test.setTimeout(120_000);
  const response = await page.goto(`http://127.0.0.1:${sitePort}${SUB_PATH}`);
  expect(response?.headers()['content-security-policy'], 'the host sends no policy').toBeUndefined();
  await expect(page.locator('html[data-engine="ready"]')).toBeAttached();
  // Every audit worker's readers have started too (the standby's included).
  await expect(page.locator('html[data-standby="ready"]')).toBeAttached();

  // The app works there: the sample audit runs.
  await runSample(page);

  const names = await workersByName(page);
  const counts = (name: string) => [...names.values()].filter((n) => n === name).length;
  // The audit worker and its standby, each with its reader workers (at least a reader and the hasher).
  expect(counts('pseudolens-audit'), 'audit workers').toBe(2);
  expect(counts('pseudolens-reader'), 'reader workers').toBeGreaterThanOrEqual(4);

  const realms: [string, (target: string) => Promise<Attempt>][] = [
    ['page', (target) => page.evaluate(attempt, target)],
    ...[...names].map(([worker, name]): [string, (target: string) => Promise<Attempt>] => [name, (target) => worker.evaluate(attempt, target)]),
  ];
  for (const [index, [name, run]] of realms.entries()) {
    const target = `http://127.0.0.1:${otherPort}/from-${name}-${index}`;
    const result = await run(target);
    expect(result.outcome, `${name} ${index}: the fetch`).toBe('refused');
    expect(result.violations, `${name} ${index}: the policy refused it`).toEqual([`connect-src ${target}`]);
  }
  expect(arrived, 'requests that reached the other origin').toEqual([]);
});
