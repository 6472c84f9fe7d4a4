// The browser bench against the peer (issue 12, item 5): in one headless Chromium, on the same
// file, the pseudolens page and DuckDB-wasm (bundled locally from bench-out/duckdb-wasm, warm).
//   pseudolens: drop-to-first-report (the file chosen once the engine's warm-up has ended, as a
//     person's file is; from the file input's change to the report of the chosen
//     roles: the page's parallel read and profile, the roles set, "Run audit", the audit from
//     the kept table), then a re-audit after a role change (one QI dropped), until the results
//     are current again; the page's own seconds are read from its notes too.
//   DuckDB-wasm: from the change of its own <input type=file> (same file, read from disk through
//     registerFileHandle + BROWSER_FILEREADER) to the answer of bench/compare.py's group-by of
//     the same QIs (GROUPING SETS with the sensitive columns); the same group-by for the
//     re-audit's QIs read from the file again, and from a table loaded into memory (DuckDB's
//     counterpart of the page's kept table).
// Each run opens a new pseudolens page (nothing kept) and registers the file under a new name in
// the one warm DuckDB; pseudolens and DuckDB alternate run by run; medians of BENCH_RUNS.
// Times are taken inside each page (performance.now from the change event; conditions polled
// every 10 ms). Cross-check: DuckDB's count of classes over the QIs (untimed, once per run)
// against the page's r_internal card (classes / records). First, the page's first load (issue
// 40, item 5): from navigation to the engine ready (`data-engine`) in a new browser context each
// time (no HTTP cache), medians of BENCH_RUNS, and the sizes of the three wasm modules of the
// build (raw and gzip -9): the first engine, loaded with the page, the full engine, fetched
// when a request needs it, and the Parquet and Excel readers, fetched only for such a file. Prints one table and writes bench-out/browser-bench.json. BENCH_TABLES=adult (or hospital) runs one table. Run by
// `scripts/bench.sh --browser` (not a test).
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { cardValue, openApp } from '../e2e/helpers';
import { OUT, ROOT, ROWS, RUNS, SETTINGS, fmt, median, ratio, serveDir, tableText, type Setting } from './common';

const DUCKDB_DIST = join(OUT, 'duckdb-wasm', 'dist');

/** Records in the page when a file is chosen and when a role changes (capture phase). */
const MARKS = () => {
  const w = window as unknown as { __marks: Record<string, number> };
  w.__marks = {};
  document.addEventListener(
    'change',
    (event) => {
      const target = event.target as HTMLElement;
      if (target.id === 'file-input') w.__marks.file = performance.now();
      else if (target.matches?.('select[data-column]')) w.__marks.role = performance.now();
    },
    true,
  );
  // The audit starts at the page's click, not before Playwright's checks ahead of it (~30 ms).
  document.addEventListener(
    'click',
    (event) => {
      if ((event.target as HTMLElement).closest?.('#run-audit')) w.__marks.run = performance.now();
    },
    true,
  );
};

const mark = (page: Page, name: string) => page.evaluate((n) => (window as unknown as { __marks: Record<string, number> }).__marks[n]!, name);

/** Waits (polling every 10 ms in the page) until `fn` holds; returns the page's time then. */
async function when<A>(page: Page, fn: (arg: A) => unknown, arg: A): Promise<number> {
  const handle = await page.waitForFunction(fn, arg, { polling: 10, timeout: 600_000 });
  return (await handle.jsonValue()) as number;
}

/** The Run audit button is shown (the profile is on screen): the page's time, else false. */
const profileShown = () => {
  const b = document.querySelector<HTMLElement>('#run-audit');
  return !!b && b.offsetParent !== null && performance.now();
};
/** The results are current (`recomputed`: after a recompute): the page's time, else false. */
const resultsFresh = (recomputed: boolean) => {
  const f = document.querySelector<HTMLElement>('#results-freshness');
  const ok =
    !!f &&
    f.dataset.state === 'fresh' &&
    !f.hidden &&
    !!document.querySelector('#results-panel [data-metric="k_anonymity"] .card-value') &&
    (!recomputed || (f.textContent ?? '').startsWith('Recomputed'));
  return ok && performance.now();
};

const seconds = (text: string, word: string): number | null => {
  const m = new RegExp(`${word} in (\\d+(?:\\.\\d+)?) s`).exec(text);
  return m ? Number(m[1]) : null;
};

interface PseudolensRun {
  readMs: number;
  auditMs: number;
  /** Read + audit: the drop-to-first-report without the time the bench takes to set the roles. */
  firstReportMs: number;
  /** From the file's change event to the report, the bench's setting of the roles included. */
  firstReportWallMs: number;
  reauditMs: number;
  pageReadS: number | null;
  pageAuditS: number | null;
  pageReauditS: number | null;
  readers: number | null;
  kept: string | null;
  fileReads: string | null;
  /** The page's r_internal card (classes / records, 4 decimals) for the first report. */
  rInternal: string;
}

/** One pseudolens run in a new page: drop to first report, then one QI dropped. */
async function pseudolens(page: Page, path: string, s: Setting): Promise<PseudolensRun> {
  await page.addInitScript(MARKS);
  await openApp(page);
  // The file is chosen once the engine's warm-up has ended, as a person's file is (choosing one
  // takes longer than the warm-up's 0.5-1 s after the engine is ready; issue 40).
  await expect(page.locator('html[data-warm="done"]')).toBeAttached();
  await page.locator('#file-input').setInputFiles(path);
  const profiled = await when(page, profileShown, undefined);
  const readNote = (await page.locator('#read-note').textContent()) ?? '';
  const kept = await page.locator('#read-note').getAttribute('data-kept');
  for (const select of await page.locator('select[data-column]').all()) {
    const column = await select.getAttribute('data-column');
    if (column && s.qis.includes(column)) await select.selectOption('quasi_identifier');
    else if (column && s.sas.includes(column)) await select.selectOption('sensitive');
    else if (['quasi_identifier', 'sensitive'].includes(await select.inputValue())) await select.selectOption('insensitive');
  }
  await page.locator('#run-audit').click();
  const reported = await when(page, resultsFresh, false);
  const clicked = await mark(page, 'run');
  const freshness = page.locator('#results-freshness');
  const audited = (await freshness.textContent()) ?? '';
  const rInternal = await cardValue(page, 'r_internal');
  const file = await mark(page, 'file');

  await page.locator(`select[data-column="${s.drop}"]`).selectOption('insensitive');
  await expect(freshness)
    .not.toHaveAttribute('data-state', 'fresh', { timeout: 5_000 })
    .catch(() => undefined);
  const recomputed = await when(page, resultsFresh, true);
  const role = await mark(page, 'role');
  const reaudited = (await freshness.textContent()) ?? '';
  const readers = /by (\d+) workers/.exec(readNote);
  return {
    readMs: profiled - file,
    auditMs: reported - clicked,
    firstReportMs: profiled - file + (reported - clicked),
    firstReportWallMs: reported - file,
    reauditMs: recomputed - role,
    pageReadS: seconds(readNote, 'Read'),
    pageAuditS: seconds(audited, 'Audited'),
    pageReauditS: seconds(reaudited, 'Recomputed'),
    readers: readers ? Number(readers[1]) : 1,
    kept,
    fileReads: await freshness.getAttribute('data-file-reads'),
    rInternal,
  };
}

interface DuckdbRun {
  firstReportMs: number;
  queryMs: number;
  classes: number;
  reauditFileMs: number;
  loadMs: number;
  reauditTableMs: number;
  /** The number of classes of the first report's QIs (untimed; the cross-check). */
  qiClasses: number;
}

/** One DuckDB-wasm run in the warm harness page. */
async function duckdbRun(page: Page, path: string, s: Setting): Promise<DuckdbRun> {
  // Choosing the same file again fires no change event: empty the input first, then forget
  // the mark, so that the time starts at this run's change.
  await page.locator('#file-input').setInputFiles([]);
  await page.evaluate(() => delete (window as unknown as { __marks: Record<string, number> }).__marks.file);
  await page.locator('#file-input').setInputFiles(path);
  const reauditQis = s.qis.filter((q) => q !== s.drop);
  const r = await page.evaluate(
    async ({ qis, sas, reauditQis }) => {
      const w = window as unknown as Record<string, (...a: unknown[]) => Promise<never>> & { __marks: Record<string, number> };
      if (w.__marks.file === undefined) throw new Error('no change event on the DuckDB page');
      const name = (await w.duckdbRegister!()) as string;
      const first = (await w.duckdbGroupBy!(name, qis, sas)) as { ms: number; classes: number };
      const end = performance.now();
      const reFile = (await w.duckdbGroupBy!(name, reauditQis, sas)) as { ms: number };
      const load = (await w.duckdbLoad!(name, 't')) as { ms: number };
      const reTable = (await w.duckdbGroupByTable!('t', reauditQis, sas)) as { ms: number };
      const qiClasses = ((await w.duckdbGroupByTable!('t', qis, [])) as { classes: number }).classes;
      await w.duckdbDrop!(name, 't');
      return {
        firstReportMs: end - w.__marks.file!,
        queryMs: first.ms,
        classes: first.classes,
        reauditFileMs: reFile.ms,
        loadMs: load.ms,
        reauditTableMs: reTable.ms,
        qiClasses,
      };
    },
    { qis: s.qis, sas: s.sas, reauditQis },
  );
  return r;
}

/** The built wasm module named `name` (`pseudolens_wasm`, `pseudolens_full`, `pseudolens_readers`): its bytes raw and gzipped at level 9. */
function wasmSize(name: string): { file: string; bytes: number; gzipBytes: number } {
  const dir = join(ROOT, 'dist', 'assets');
  const file = readdirSync(dir).find((f) => f.startsWith(`${name}_bg-`) && f.endsWith('.wasm'));
  expect(file, `${name} in dist/assets`).toBeDefined();
  const bytes = readFileSync(join(dir, file!));
  return { file: file!, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
}

/** From navigation to the engine ready, in a new context (nothing cached), in ms. */
async function coldLoad(browser: import('@playwright/test').Browser): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.locator('html[data-engine="ready"]')).toBeAttached({ timeout: 60_000 });
    return await page.evaluate(() => performance.now());
  } finally {
    await context.close();
  }
}

test('pseudolens and DuckDB-wasm in the same browser', async ({ browser }) => {
  test.setTimeout(RUNS * SETTINGS.length * 600_000);
  expect(existsSync(join(DUCKDB_DIST, 'index.html')), 'bundle the DuckDB-wasm harness first (scripts/bench.sh --browser)').toBe(true);
  const loadAtStart = loadavg();
  const { server, url } = await serveDir(DUCKDB_DIST);
  const results: Record<string, unknown>[] = [];
  const table: string[][] = [];
  const engine = wasmSize('pseudolens_wasm');
  const full = wasmSize('pseudolens_full');
  const readers = wasmSize('pseudolens_readers');
  const loads: number[] = [];
  for (let i = 0; i < RUNS; i++) loads.push(await coldLoad(browser));
  const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
  const firstLoad = { readyMs: median(loads), runs: loads, engine, full, readers };
  console.log(`first load: engine ready ${loads.map((x) => Math.round(x)).join(', ')} ms`);
  table.push(
    ['first load: navigation to engine ready (cold, no cache)', fmt(firstLoad.readyMs), '', ''],
    [`  the first engine's wasm (loaded with the page), raw / gzip -9`, `${mb(engine.bytes)} / ${mb(engine.gzipBytes)}`, '', ''],
    [`  the full engine (fetched when a request needs it)`, `${mb(full.bytes)} / ${mb(full.gzipBytes)}`, '', ''],
    [`  the Parquet and Excel readers (fetched for such a file)`, `${mb(readers.bytes)} / ${mb(readers.gzipBytes)}`, '', ''],
  );
  try {
    const context = await browser.newContext();
    const duck = await context.newPage();
    await duck.addInitScript(MARKS);
    await duck.goto(url);
    const info = await duck.evaluate(() => (window as unknown as { duckdbReady: () => Promise<unknown> }).duckdbReady());
    console.log(`DuckDB-wasm ${JSON.stringify(info)}`);
    for (const s of SETTINGS) {
      const path = join(OUT, s.file);
      expect(existsSync(path), `${path} (generated by scripts/bench.sh)`).toBe(true);
      const mb = statSync(path).size / 1e6;
      const what = `${s.name} ${ROWS.toLocaleString('en-US')} rows (${mb.toFixed(1)} MB), ${s.qis.length} QIs${s.sas.length ? ` + SAs ${s.sas.join(',')}` : ''}`;
      console.log(`${what}: ${RUNS} runs`);
      const pl: PseudolensRun[] = [];
      const dk: DuckdbRun[] = [];
      for (let i = 0; i < RUNS; i++) {
        const page = await context.newPage();
        try {
          pl.push(await pseudolens(page, path, s));
        } finally {
          await page.close();
        }
        dk.push(await duckdbRun(duck, path, s));
        console.log(`  run ${i + 1}: pseudolens ${JSON.stringify(pl.at(-1))}`);
        console.log(`  run ${i + 1}: duckdb-wasm ${JSON.stringify(dk.at(-1))}`);
      }
      const m = <T>(xs: T[], f: (x: T) => number | null) => median(xs.map(f).filter((x): x is number => x !== null));
      const p = {
        readMs: m(pl, (r) => r.readMs),
        auditMs: m(pl, (r) => r.auditMs),
        firstReportMs: m(pl, (r) => r.firstReportMs),
        firstReportWallMs: m(pl, (r) => r.firstReportWallMs),
        reauditMs: m(pl, (r) => r.reauditMs),
        pageReadMs: m(pl, (r) => (r.pageReadS === null ? null : r.pageReadS * 1000)),
        pageAuditMs: m(pl, (r) => (r.pageAuditS === null ? null : r.pageAuditS * 1000)),
        pageReauditMs: m(pl, (r) => (r.pageReauditS === null ? null : r.pageReauditS * 1000)),
        readers: pl[0]?.readers ?? null,
        kept: pl[0]?.kept ?? null,
        fileReads: pl.map((r) => r.fileReads),
      };
      const d = {
        firstReportMs: m(dk, (r) => r.firstReportMs),
        queryMs: m(dk, (r) => r.queryMs),
        classes: dk[0]?.classes ?? null,
        reauditFileMs: m(dk, (r) => r.reauditFileMs),
        loadMs: m(dk, (r) => r.loadMs),
        reauditTableMs: m(dk, (r) => r.reauditTableMs),
      };
      // Cross-check: both count the same classes (the page shows classes / records to 4 decimals).
      const expected = dk[0] ? (dk[0].qiClasses / ROWS).toFixed(4) : null;
      const agree = pl.every((r) => r.rInternal === expected);
      console.log(
        `  cross-check: DuckDB-wasm ${dk[0]?.qiClasses} classes (r_internal ${expected}), page ${pl.map((r) => r.rInternal).join(' ')}: ${agree ? 'agree' : 'DIFFER'}`,
      );
      results.push({
        crossCheck: { duckdbClasses: dk[0]?.qiClasses ?? null, expectedRInternal: expected, pageRInternal: pl.map((r) => r.rInternal), agree },
        setting: s,
        rows: ROWS,
        mb,
        runs: RUNS,
        pseudolens: { median: p, runs: pl },
        duckdb: { median: d, runs: dk },
      });
      const head = `${s.name} ${s.qis.length} QIs${s.sas.length ? ` + ${s.sas.length} SAs` : ''}`;
      table.push(
        [`${head}: drop to first report (read + audit)`, fmt(p.firstReportMs), fmt(d.firstReportMs), ratio(p.firstReportMs, d.firstReportMs)],
        [`  of which read + profile (${p.readers} workers) / audit`, `${fmt(p.readMs)} / ${fmt(p.auditMs)}`, '', ''],
        [
          `${head}: re-audit, ${s.drop} dropped (wall, 50 ms pause incl.)`,
          fmt(p.reauditMs),
          `${fmt(d.reauditFileMs)} (file)`,
          ratio(p.reauditMs, d.reauditFileMs),
        ],
        [
          `${head}: re-audit, compute only (page's "Recomputed in")`,
          fmt(p.pageReauditMs),
          `${fmt(d.reauditTableMs)} (table)`,
          ratio(p.pageReauditMs, d.reauditTableMs),
        ],
        [`  DuckDB-wasm: load into a table in memory`, '', fmt(d.loadMs), ''],
      );
    }
    await context.close();
  } finally {
    server.close();
  }
  const loadAtEnd = loadavg();
  console.log(
    [
      `browser bench: headless Chromium, ${ROWS.toLocaleString('en-US')} rows, medians of ${RUNS} runs, ${cpus().length} cores, ` +
        `load average ${loadAtStart.map((x) => x.toFixed(2)).join(' ')} at start, ${loadAtEnd.map((x) => x.toFixed(2)).join(' ')} at end`,
      'DuckDB-wasm: eh bundle, one thread (no COOP/COEP, so no SharedArrayBuffer), warm; ratio = pseudolens / DuckDB-wasm (below 1: pseudolens faster)',
      tableText(['setting', 'pseudolens', 'DuckDB-wasm', 'ratio'], table),
    ].join('\n'),
  );
  writeFileSync(
    join(OUT, 'browser-bench.json'),
    JSON.stringify(
      {
        date: new Date().toISOString(),
        rows: ROWS,
        runs: RUNS,
        cores: cpus().length,
        loadAverageAtStart: loadAtStart,
        loadAverageAtEnd: loadAtEnd,
        firstLoad,
        results,
      },
      null,
      2,
    ),
  );
});
