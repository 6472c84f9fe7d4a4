// Protect's search in the page (issue 38: "Adult (30,162 rows, 8 QIs, ARX's hierarchies) full
// search in the page at most 1 s"). In headless Chromium, on the page's main thread (one core,
// as the page's audit worker has it): the page's full engine (web/pkg/pseudolens_full, which
// holds protect) keeps ARX's adult.csv as a table, prepares the protection with ARX's eight
// hierarchies (k 5, at most 1 % suppressed) and searches the whole lattice, BENCH_RUNS times
// after `warm_up`; the preparation (ladders built and checked, the level-0 classes) and the
// search are timed apart.
// Beside it, the native CLI's whole command on the same settings (read included). Medians;
// prints one table and writes bench-out/protect-wasm-bench.json. Run by `scripts/bench.sh --browser`
// (not a test).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CLI, OUT, ROOT, RUNS, fmt, median, serveDir, tableText } from './common';

const ADULT = join(ROOT, '..', 'shared', 'data', 'adult');
const QIS = ['age', 'education', 'marital-status', 'native-country', 'occupation', 'race', 'sex', 'workclass'];

test('protect: the full search of Adult in wasm', async ({ browser }) => {
  test.setTimeout(RUNS * 120_000);
  const csv = readFileSync(join(ADULT, 'adult.csv'), 'utf8');
  const hierarchies = Object.fromEntries(QIS.map((q) => [q, readFileSync(join(ADULT, `adult_hierarchy_${q}.csv`), 'utf8')]));
  const params = {
    quasi_identifiers: QIS,
    ladders: Object.fromEntries(QIS.map((q) => [q, { kind: 'hierarchy', csv: hierarchies[q] }])),
    criteria: { k: 5 },
    suppression_limit: 0.01,
  };
  const loadAtStart = loadavg();
  const { server, url } = await serveDir(ROOT);
  const page = await browser.newPage();
  let w: { prepare: number[]; search: number[]; best: unknown; evaluated: unknown };
  try {
    await page.goto(`${url}bench-out/`);
    w = await page.evaluate(
      async ({ csv, params, runs }) => {
        const m = await import('/web/pkg/pseudolens_full.js');
        await m.default({ module_or_path: '/web/pkg/pseudolens_full_bg.wasm' });
        m.warm_up();
        const bytes = new TextEncoder().encode(csv);
        const config = { quasi_identifiers: params.quasi_identifiers };
        const probe = m.probe(config, bytes, true);
        const reader = new m.TableReader(config, probe, 0, bytes.length, true);
        reader.push(bytes);
        const kept = m.KeptTable.from_bytes(reader.finish());
        const prepare: number[] = [];
        const search: number[] = [];
        let result = null;
        for (let i = 0; i < runs; i++) {
          let t = performance.now();
          const protecting = kept.protector(config, params);
          prepare.push(performance.now() - t);
          t = performance.now();
          result = protecting.search();
          search.push(performance.now() - t);
          protecting.free();
        }
        kept.free();
        return { prepare, search, best: result.value, evaluated: result.details.nodes_evaluated };
      },
      { csv, params, runs: RUNS },
    );
  } finally {
    await page.close();
    server.close();
  }
  const cli: number[] = [];
  let native: unknown = null;
  if (existsSync(CLI)) {
    const args = ['protect', join(ADULT, 'adult.csv'), '--qi', QIS.join(','), '--k', '5', '--max-suppression', '0.01', '--json'];
    for (const q of QIS) args.push('--hierarchy', `${q}=${join(ADULT, `adult_hierarchy_${q}.csv`)}`);
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      native = JSON.parse(execFileSync(CLI, args, { encoding: 'utf8', maxBuffer: 64 << 20 })).value;
      cli.push(performance.now() - t);
    }
    expect(native, 'the same best node in wasm and native').toEqual(w.best);
  }
  const prepare = median(w.prepare);
  const search = median(w.search);
  const both = prepare !== null && search !== null ? prepare + search : null;
  const loadAtEnd = loadavg();
  const rows = [
    ['wasm: ladders and level-0 classes', fmt(prepare)],
    ['wasm: the search', fmt(search)],
    ['wasm: both (target at most 1 s)', fmt(both)],
    ['native CLI: the whole command, read included', fmt(median(cli))],
  ];
  console.log(
    [
      `protect bench: Adult, 8 QIs with ARX's hierarchies, k 5, at most 1 % suppressed; best ${JSON.stringify(w.best)}, ${w.evaluated} nodes evaluated; ` +
        `medians of ${RUNS} runs, ${cpus().length} cores, load average ${loadAtStart.map((x) => x.toFixed(2)).join(' ')} at start, ${loadAtEnd.map((x) => x.toFixed(2)).join(' ')} at end`,
      tableText(['step', 'time'], rows),
    ].join('\n'),
  );
  writeFileSync(
    join(OUT, 'protect-wasm-bench.json'),
    JSON.stringify({ date: new Date().toISOString(), runs: RUNS, wasm: w, cli, loadAverageAtStart: loadAtStart, loadAverageAtEnd: loadAtEnd }, null, 2),
  );
});
