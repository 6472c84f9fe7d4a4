// Starts the page's workers so that they run under the page's Content-Security-Policy on any
// host. A dedicated worker loaded from its own URL takes its policy from its own HTTP response:
// on a host that sends no headers (GitHub Pages, most intranet servers) it would run with no
// policy at all, free to send the user's data anywhere. A worker loaded from a blob: URL
// inherits the policy of the document or worker that creates it instead, which the page's
// <meta> policy sets (web/security-headers.ts). So each worker starts from a one-line blob that
// imports the real, same-origin script: the import runs under the inherited policy.

/** The blob: URL of the one-line script of each worker script, made once per page or worker. */
const starters = new Map<string, string>();

/** A module worker named `name` that runs the script at `scriptUrl` under this realm's policy. */
export function spawnWorker(scriptUrl: string, name: string): Worker {
  // Absolute: a blob's relative imports would have no base to resolve against.
  const script = new URL(scriptUrl, import.meta.url).href;
  let starter = starters.get(script);
  if (starter === undefined) {
    starter = URL.createObjectURL(new Blob([`import ${JSON.stringify(script)};\n`], { type: 'text/javascript' }));
    starters.set(script, starter);
  }
  return new Worker(starter, { type: 'module', name });
}
