/**
 * The HTTP security headers of pseudolens, in one place.
 *
 * They are sent as real HTTP headers (not a <meta> tag) because a dedicated worker takes its
 * Content-Security-Policy from its own response, not from the page: only a header keeps the
 * worker, which reads the user's data, from talking to the network.
 *
 * Used by vite.config.ts (dev and preview servers), checked against web/public/_headers (the
 * file static hosts such as Netlify or Cloudflare Pages read) and by the e2e privacy test.
 */

/** The strict policy: same-origin code, wasm compilation allowed, no network beyond 'self'. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
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
  'Content-Security-Policy': CONTENT_SECURITY_POLICY.replace(
    "style-src 'self'",
    "style-src 'self' 'unsafe-inline'",
  ),
};

/** The `_headers` file (Netlify / Cloudflare Pages format) for the production headers. */
export function renderHeadersFile(): string {
  const lines = ['# Generated from web/security-headers.ts; keep in sync (the build checks it).', '/*'];
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) lines.push(`  ${name}: ${value}`);
  return lines.join('\n') + '\n';
}
