// What the browser benches share: the generated tables and their settings, a static server of
// one folder (no CDN), medians and the printed table.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const OUT = join(ROOT, 'bench-out');
export const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
export const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** The native CLI (`scripts/bench.sh` builds it). */
export const CLI = process.env.PSEUDOLENS_CLI ?? join(ROOT, 'target', 'release', 'pseudolens');

export interface Setting {
  name: string;
  file: string;
  qis: string[];
  sas: string[];
  /** The QI dropped for the re-audit. */
  drop: string;
}

const ALL_SETTINGS: Setting[] = [
  {
    name: 'adult',
    file: `adult-${ROWS}.csv`,
    qis: ['age', 'workclass', 'education', 'marital_status', 'occupation', 'race', 'sex', 'native_country'],
    sas: [],
    drop: 'native_country',
  },
  {
    name: 'hospital',
    file: `hospital-${ROWS}.csv`,
    qis: ['age', 'sex', 'zip3', 'admit_date', 'ward'],
    sas: ['diagnosis', 'discharge'],
    drop: 'ward',
  },
];

/** The settings to run: all, or those named in BENCH_TABLES (adult, hospital). */
export const SETTINGS = process.env.BENCH_TABLES ? ALL_SETTINGS.filter((s) => process.env.BENCH_TABLES!.split(',').includes(s.name)) : ALL_SETTINGS;

const MIME: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
  '.csv': 'text/csv',
};

/** Serves the files under `dir` on a free port (a folder: its index.html, else an empty page). */
export function serveDir(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = normalize(join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    const file = path.endsWith('/') ? join(path, 'index.html') : path;
    if (path.endsWith('/') && file.startsWith(dir) && !existsSync(file)) {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>bench</title>');
      return;
    }
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream', 'content-length': statSync(file).size });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/` });
    }),
  );
}

export const median = (xs: number[]): number | null => {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
};

export const fmt = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(3)} s`);
export const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? '-' : `${(a / b).toFixed(2)}x`);

/** A table of rows under a header, the first column left-aligned and the others right-aligned. */
export function tableText(header: string[], rows: string[][]): string {
  const widths = header.map((_, c) => Math.max(...[header, ...rows].map((r) => r[c]!.length)));
  const line = (r: string[]) => r.map((x, c) => (c === 0 ? x.padEnd(widths[c]!) : x.padStart(widths[c]!))).join(' | ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
