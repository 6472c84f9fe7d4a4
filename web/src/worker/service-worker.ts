// The service worker (built to sw.js at the root; issue 13): the installed page works offline.
// On install it caches every file of this deployment (the app shell, the hashed scripts and
// workers, the wasm, the manifest and icons) under a cache named after their content; on
// activate it deletes the caches of earlier deployments. Files of the deployment are answered
// from the cache; a page load tries the network first (a new deployment shows at once) and
// falls back to the cached page. It sends nothing anywhere: it fetches only this origin's own
// files. On a host that sends no headers it runs without a policy (a service worker cannot
// start from a blob: URL, web/src/worker/spawn.ts), but it is given none of the user's data.

/** What the build fills in (web/offline-build.ts): the cache's name and the files to keep. */
interface OfflineBuild {
  cache: string;
  /** Paths relative to this script: './' (the page), 'assets/…', 'manifest.webmanifest', … */
  files: string[];
}

/** Replaced by the build with the JSON of an `OfflineBuild` (the build fails if it is not). */
const BUILD = JSON.parse('__PSEUDOLENS_OFFLINE_BUILD__') as OfflineBuild;
/** Every cache of this app starts so; the others in this origin are not ours to delete. */
const CACHE_PREFIX = 'pseudolens-';

/** The parts of ServiceWorkerGlobalScope and its events used here (the DOM lib lacks them). */
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface ServiceWorkerScope {
  readonly location: Location;
  readonly clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', listener: (e: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (e: FetchEvent) => void): void;
}
const scope = globalThis as unknown as ServiceWorkerScope;

/** The absolute URL of each file kept, and of the page. */
const kept = new Set(BUILD.files.map((f) => new URL(f, scope.location.href).href));
const page = new URL('./', scope.location.href).href;
const pages = new Set([page, new URL('./index.html', scope.location.href).href]);

scope.addEventListener('install', (e) => {
  // `reload`: the files as the server has them now, never an older copy from the HTTP cache.
  e.waitUntil(caches.open(BUILD.cache).then((cache) => cache.addAll([...kept].map((url) => new Request(url, { cache: 'reload' })))));
});

scope.addEventListener('activate', (e) => {
  e.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith(CACHE_PREFIX) && n !== BUILD.cache).map((n) => caches.delete(n))))
      // Control the page that installed it too, so it works offline without a second load.
      .then(() => scope.clients.claim()),
  );
});

scope.addEventListener('fetch', (e) => {
  const request = e.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  url.hash = '';
  url.search = '';
  if (request.mode === 'navigate' && pages.has(url.href)) {
    e.respondWith(fetch(request).catch(() => fromCache(page)));
  } else if (kept.has(url.href)) {
    e.respondWith(fromCache(url.href).catch(() => fetch(request)));
  }
  // Anything else goes to the network as if there were no service worker.
});

/** The kept copy of `url` (rejects when there is none). */
async function fromCache(url: string): Promise<Response> {
  const hit = await caches.open(BUILD.cache).then((cache) => cache.match(url));
  if (!hit) throw new Error(`not kept: ${url}`);
  return hit;
}

export {};
