// Installable and offline (issue 13): registers the service worker (service-worker.ts, built to
// sw.js) that keeps this deployment's files, so the page loads, audits and cancels without a
// network once it has been loaded. The dev server has no sw.js: only built pages register it.

/** Registers the service worker once the page has loaded (it then caches every file). */
export function registerOffline(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => navigator.serviceWorker.register('./sw.js').catch((e: unknown) => console.warn('pseudolens: no offline copy', e));
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}
