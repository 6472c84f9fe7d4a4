/**
 * The HTTP security headers of pseudolens, in one place.
 *
 * They are sent as real HTTP headers where the host can send them, and the policy is also
 * written into the built page as a <meta> element, for hosts that send no headers (GitHub
 * Pages, most intranet servers). A worker loaded from its own URL would take its policy from
 * its own response, so every worker is started from a blob: URL, which inherits the policy of
 * its creator (web/src/worker/spawn.ts): the <meta> policy binds the page and every worker.
 *
 * Used by vite.config.ts (dev and preview servers, the <meta> of the build), checked against
 * web/public/_headers (the file static hosts such as Netlify or Cloudflare Pages read) and by
 * the e2e privacy tests.
 */

/**
 * The strict policy: same-origin code, wasm compilation allowed, no network beyond 'self';
 * workers from this origin's own scripts, started through a blob: URL (see above).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/**
 * The policy as a <meta> element carries it: without `frame-ancestors`, which browsers ignore
 * there (with a console warning). Only a header can forbid framing.
 */
export const META_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.split('; ')
  .filter((directive) => !directive.startsWith('frame-ancestors '))
  .join('; ');

/** Headers for the production build (vite preview, static hosts). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/**
 * Headers for `vite` dev mode only. Vite's dev client injects every imported CSS file as a
 * <style> element from JavaScript, which `style-src 'self'` forbids; so dev mode alone also
 * allows inline styles. Scripts, workers and network stay as strict as in production.
 */
export const DEV_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  'Content-Security-Policy': CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
};

/** The `_headers` file (Netlify / Cloudflare Pages format) for the production headers. */
export function renderHeadersFile(): string {
  const lines = ['# Generated from web/security-headers.ts; keep in sync (the build checks it).', '/*'];
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) lines.push(`  ${name}: ${value}`);
  return `${lines.join('\n')}\n`;
}
