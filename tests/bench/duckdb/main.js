// The peer of the browser bench: DuckDB-wasm, bundled locally by tests/bench/duckdb/vite.config.js
// from the copy scripts/bench.sh installs into bench-out/duckdb-wasm (never a dependency of the
// project). The page instantiates DuckDB (eh bundle and its worker; no COOP/COEP, so one
// thread), warms it with the same query on a small table, then answers window.duckdbGroupBy:
// the group-by of bench/compare.py over the file of #file-input, read from disk through
// registerFileHandle and the BROWSER_FILEREADER protocol, as the pseudolens page reads it.
import * as duckdb from '@duckdb/duckdb-wasm';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import ehWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import mvpWasm from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';
import mvpWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url';

const log = (text) => (document.getElementById('log').textContent += `${text}\n`);
const quote = (s) => `'${s.replaceAll("'", "''")}'`;
const ident = (s) => `"${s.replaceAll('"', '""')}"`;

/** bench/compare.py's query: class sizes, and per (class, SA value) counts for each SA. */
function groupBySql(source, qis, sas) {
  const cols = qis.map(ident).join(', ');
  if (!sas.length) return `SELECT count(*) AS n FROM (SELECT ${cols}, count(*) FROM ${source} GROUP BY ${cols})`;
  const sets = [`(${cols})`, ...sas.map((sa) => `(${cols}, ${ident(sa)})`)].join(', ');
  return `SELECT count(*) AS n FROM (SELECT ${cols}, ${sas.map(ident).join(', ')}, count(*) FROM ${source} GROUP BY GROUPING SETS (${sets}))`;
}
// Every column as text, as pseudolens reads it (compare.py's read_csv).
const readCsv = (name) => `read_csv(${quote(name)}, header=true, all_varchar=true)`;

let db;
let conn;
let registered = 0;

async function start() {
  const t0 = performance.now();
  const bundle = await duckdb.selectBundle({
    mvp: { mainModule: mvpWasm, mainWorker: mvpWorker },
    eh: { mainModule: ehWasm, mainWorker: ehWorker },
  });
  const worker = new Worker(bundle.mainWorker);
  db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
  await db.instantiate(bundle.mainModule, bundle.pthreadWorker);
  conn = await db.connect();
  const version = await db.getVersion();
  const threads = Number((await conn.query("SELECT current_setting('threads') AS t")).toArray()[0].t);
  // Warm: the same kind of query on a small table in memory, twice.
  const rows = ['a,b,c,s'];
  for (let i = 0; i < 5000; i++) rows.push(`${i % 7},${i % 11},${i % 13},${i % 3}`);
  await db.registerFileText('warm.csv', `${rows.join('\n')}\n`);
  for (let i = 0; i < 2; i++) {
    await conn.query(groupBySql(readCsv('warm.csv'), ['a', 'b', 'c'], []));
    await conn.query(groupBySql(readCsv('warm.csv'), ['a', 'b'], ['s']));
  }
  const info = { version, bundle: bundle.mainModule.includes('-eh') ? 'eh' : 'mvp', threads, startMs: performance.now() - t0 };
  log(JSON.stringify(info));
  return info;
}

const ready = start();
window.duckdbReady = () => ready;

/** Registers the file of #file-input under a new name (no cache shared between runs). */
window.duckdbRegister = async () => {
  const file = document.getElementById('file-input').files[0];
  const name = `bench-${++registered}.csv`;
  await db.registerFileHandle(name, file, duckdb.DuckDBDataProtocol.BROWSER_FILEREADER, true);
  return name;
};

/** Times one query; returns its milliseconds and result (the number of classes). */
async function timed(sql) {
  const t = performance.now();
  const table = await conn.query(sql);
  const ms = performance.now() - t;
  return { ms, classes: Number(table.toArray()[0].n) };
}

/** The group-by of `qis` (and `sas`) read from the registered file `name`. */
window.duckdbGroupBy = (name, qis, sas) => timed(groupBySql(readCsv(name), qis, sas));

/** Loads the file into a table in memory (DuckDB's counterpart of the page's kept table). */
window.duckdbLoad = async (name, table) => {
  const t = performance.now();
  await conn.query(`CREATE OR REPLACE TABLE ${ident(table)} AS SELECT * FROM ${readCsv(name)}`);
  return { ms: performance.now() - t };
};
window.duckdbGroupByTable = (table, qis, sas) => timed(groupBySql(ident(table), qis, sas));
window.duckdbDrop = async (name, table) => {
  if (table) await conn.query(`DROP TABLE IF EXISTS ${ident(table)}`);
  await db.dropFile(name);
};
