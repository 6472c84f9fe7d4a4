/**
 * The build's half of the offline page (issue 13): builds web/src/worker/service-worker.ts to `sw.js`
 * at the root of the site (its scope is the whole app), and writes into it the list of every
 * file of this deployment (page, hashed scripts and workers, wasm, CSS, the public manifest and
 * icons) and a cache name derived from their content, so that a new deployment gets a new
 * cache and the old one is deleted when the new service worker activates.
 */

import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/** The placeholder in service-worker.ts, a string literal replaced by the JSON of the build. */
const PLACEHOLDER = /(["'`])__PSEUDOLENS_OFFLINE_BUILD__\1/g;
/** The name of the service worker's entry and of its output file. */
export const SERVICE_WORKER_ENTRY = 'sw';
export const SERVICE_WORKER_FILE = 'sw.js';
/** Public files that are for the static host, not the page. */
const NOT_KEPT = new Set(['_headers']);

/** The cache name and kept files of one build (exported for the test of the plugin's rule). */
export function offlineBuild(files: Map<string, string | Uint8Array>): { cache: string; files: string[] } {
  const names = [...files.keys()].sort();
  const hash = createHash('sha256');
  for (const name of names) hash.update(name).update('\0').update(files.get(name)!).update('\0');
  const paths = names.map((n) => (n === 'index.html' ? './' : n));
  return { cache: `pseudolens-${hash.digest('hex').slice(0, 16)}`, files: paths };
}

/** The Vite plugin: `publicDir` is the folder of the files copied as they are. */
export function offlinePlugin(publicDir: string): Plugin {
  return {
    name: 'pseudolens-offline',
    apply: 'build',
    // After Vite's own plugins: index.html is added to the bundle by one of them.
    enforce: 'post',
    generateBundle(_options, bundle) {
      const files = new Map<string, string | Uint8Array>();
      for (const [name, item] of Object.entries(bundle)) {
        if (name === SERVICE_WORKER_FILE || name.endsWith('.map')) continue;
        files.set(name, item.type === 'chunk' ? item.code : item.source);
      }
      for (const name of readdirSync(publicDir)) if (!NOT_KEPT.has(name)) files.set(name, readFileSync(join(publicDir, name)));
      const sw = bundle[SERVICE_WORKER_FILE];
      if (!sw || sw.type !== 'chunk') return this.error(`${SERVICE_WORKER_FILE} was not built`);
      const found = sw.code.match(PLACEHOLDER)?.length ?? 0;
      if (found !== 1) return this.error(`${SERVICE_WORKER_FILE} holds the build placeholder ${found} times, not once`);
      const literal = JSON.stringify(JSON.stringify(offlineBuild(files)));
      sw.code = sw.code.replace(PLACEHOLDER, () => literal);
    },
  };
}
