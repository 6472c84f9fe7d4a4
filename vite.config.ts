import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { DEV_SECURITY_HEADERS, META_CONTENT_SECURITY_POLICY, SECURITY_HEADERS, renderHeadersFile } from './web/security-headers.ts';
import { SERVICE_WORKER_ENTRY, SERVICE_WORKER_FILE, offlinePlugin } from './web/offline-build.ts';

const headersFile = fileURLToPath(new URL('./web/public/_headers', import.meta.url));
const web = (path: string) => fileURLToPath(new URL(`./web/${path}`, import.meta.url));

/** Fails the build when web/public/_headers no longer matches web/security-headers.ts. */
function checkHeadersFile(): Plugin {
  return {
    name: 'pseudolens-check-headers-file',
    apply: 'build',
    buildStart() {
      const expected = renderHeadersFile();
      if (readFileSync(headersFile, 'utf8') !== expected) {
        this.error(`web/public/_headers is out of date with web/security-headers.ts; it must read:\n${expected}`);
      }
    },
  };
}

/**
 * Writes the policy into the built page right after its charset, before any script, for hosts
 * that send no headers. Build only: in dev mode Vite injects styles inline, which the dev
 * headers alone allow.
 */
function metaPolicy(): Plugin {
  const charset = '<meta charset="utf-8" />';
  return {
    name: 'pseudolens-meta-policy',
    apply: 'build',
    transformIndexHtml(html) {
      if (!html.includes(charset)) throw new Error(`web/index.html has no ${charset} to put the policy after`);
      const meta = `<meta http-equiv="Content-Security-Policy" content="${META_CONTENT_SECURITY_POLICY}" />`;
      return html.replace(charset, () => `${charset}\n    ${meta}`);
    },
  };
}

export default defineConfig({
  root: 'web',
  base: './',
  publicDir: 'public',
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
    // Keep the wasm as its own file (fetched same-origin under connect-src 'self').
    assetsInlineLimit: 0,
    rolldownOptions: {
      // The page, and the service worker at the root (its scope is the whole app).
      input: { index: web('index.html'), [SERVICE_WORKER_ENTRY]: web('src/worker/service-worker.ts') },
      output: {
        entryFileNames: (chunk) => (chunk.name === SERVICE_WORKER_ENTRY ? SERVICE_WORKER_FILE : 'assets/[name]-[hash].js'),
      },
    },
  },
  worker: { format: 'es' },
  server: { headers: { ...DEV_SECURITY_HEADERS } },
  preview: { headers: { ...SECURITY_HEADERS } },
  plugins: [checkHeadersFile(), metaPolicy(), offlinePlugin(web('public'))],
});
