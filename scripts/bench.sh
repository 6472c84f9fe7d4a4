#!/usr/bin/env bash
# Benchmark (not a test): the native CLI side by side with DuckDB native and polars on the same generated
# tables (shared/bench/gen.py, into bench-out/): an Adult-like table with 8 quasi-identifiers
# and a hospital table with 5 quasi-identifiers and 2 sensitive columns, 2 threads and 1 thread,
# medians of 5 runs (BENCH_RUNS); ingest + profile in MB/s per core and the re-audit time when
# the CLI has them. Prints one table with the ratios and writes bench-out/bench.json; the work
# is in bench/compare.py. DuckDB and polars (PyPI `duckdb`, `polars`) are installed into
# bench-out/venv, never by the tests.
# --browser adds the browser bench against the peer in the same browser (tests/bench/peer.bench.ts):
# the page's drop-to-first-report and a re-audit after a role change, and DuckDB-wasm's group-by
# of the same QIs on the same file (Adult-like 8 QIs; hospital 5 QIs + 2 SAs), in one headless
# Chromium, medians of BENCH_RUNS (default 5); prints the ratios and writes
# bench-out/browser-bench.json. DuckDB-wasm (npm @duckdb/duckdb-wasm, pinned) is installed into
# bench-out/duckdb-wasm and bundled there, never a dependency of the project. Then the engine
# bench (tests/bench/engine.bench.ts): the page's wasm read and audit of the same files in
# headless Chromium against `pseudolens bench part`, the same calls natively, one core each;
# prints the ratios and writes bench-out/engine-bench.json. Then protect's search of ARX's Adult
# with its eight hierarchies in wasm (tests/bench/protect.bench.ts, issue 38: at most 1 s) beside
# the CLI's whole command; writes bench-out/protect-wasm-bench.json. --browser-only runs the browser
# part alone (generating the two tables if missing).
# --browser-throughput adds the older benchmark: the native CLI and the worker in headless
# Chromium on the CLI's own generated table (5 QIs; 8 QIs; 5 QIs + 2 SAs; the utility pass).
# --browser-big runs the page on a 2 GB export alone (tests/bench/big.bench.ts): a hospital
# table of 27 million rows (2.15 GB, BENCH_BIG_ROWS) generated into bench-out/ and deleted
# after, the page's read, profile and audit of 5 QIs + 2 SAs; prints the times, how the page
# read it (kept or streamed, and why) and the browser's peak memory, and writes
# bench-out/big-bench.json.
# --wildcard runs bench/wildcard.py alone: `audit --missing wildcard` against `--missing ordinary`
# on an Adult-like table of ROWS rows (default here 200,000) with its sensitive column, and on
# a copy with 1 % of the QI cells blank, medians of BENCH_RUNS (default 5), and the ratios.
# The native run then benches protect (issue 38; bench/protect.py): the whole `pseudolens
# protect` search on the Adult-like table (its first 4 QIs, age in bands of 5/10/20, k 10, 1 %
# suppression) against polars evaluating the same lattice node by node
# (bench/protect_polars.py; both must find the same best node, else the bench fails), applying
# and writing the release (--out) against the first audit, and the search on ARX's Adult with
# ARX's hierarchies (shared/data/adult); medians of BENCH_RUNS, bench-out/protect-bench.json.
# Polars (PyPI `polars`, pinned) is installed into bench-out/venv. --protect runs it alone.
# --synthetic runs bench/synthetic.py alone (issue 39): each synthetic measure timed in-process
# (`pseudolens bench synthetic`) against its oracle, sdnist 2.4 or sdmetrics 0.32.0, in
# .venv-sdnist (ensure_sdnist): 100k + 100k rows (ROWS when given), DCR and CAP on 10k + 10k;
# medians of BENCH_RUNS (SYNTHETIC_PEER_RUNS for the peers' quadratic DCR); writes
# bench-out/synthetic-bench.json.
# --spark runs bench/spark.py alone (issue 40): pseudolens.spark.audit in table and class mode
# against Spark's own groupBy(QIs).count() with k and the uniques, on the same DataFrame in one
# SparkSession (local[2]), on the hospital table of ROWS rows (its 5 QIs), medians of BENCH_RUNS;
# the package is a release build (`pip install ./python`) in bench-out/venv-spark with pyspark,
# never a test dependency; writes bench-out/spark-bench.json.
# --spark-scale runs bench/spark-scale.py alone (issue 40): the class-partitioned mode on ROWS
# rows (default 10^8) generated inside Spark, 500,000 rows a partition, local[2], its answer
# checked against Spark's own group-by; the phases' times, the bytes to the driver and the
# driver's memory; writes bench-out/spark-scale.json (about 10 minutes at 10^8).
# Usage: scripts/bench.sh [ROWS] [--browser | --browser-only] [--browser-throughput] [--browser-big] [--wildcard] [--protect] [--synthetic] [--spark] [--spark-scale]
#        (ROWS default 1,000,000)
source "$(dirname "$0")/lib.sh"
ROWS=1000000
BROWSER=
NATIVE=1
THROUGHPUT=
BIG=
WILDCARD=
PROTECT=
SYNTHETIC=
SPARK=
SPARK_SCALE=
ROWS_GIVEN=
for arg in "$@"; do
  case $arg in
    --browser) BROWSER=1 ;;
    --browser-only) BROWSER=1 NATIVE= ;;
    --browser-throughput) THROUGHPUT=1 ;;
    --browser-big) BIG=1 NATIVE= ;;
    --wildcard) WILDCARD=1 ;;
    --protect) PROTECT=1 ;;
    --synthetic) SYNTHETIC=1 ;;
    --spark) SPARK=1 ;;
    --spark-scale) SPARK_SCALE=1 ;;
    *[!0-9]* | "") echo "usage: scripts/bench.sh [ROWS] [--browser | --browser-only] [--browser-throughput] [--browser-big] [--wildcard] [--protect] [--synthetic] [--spark] [--spark-scale]" >&2; exit 2 ;;
    *) ROWS=$arg ROWS_GIVEN=1 ;;
  esac
done
DUCKDB_VERSION=2.0.0
DUCKDB_WASM_VERSION=1.32.0
POLARS_VERSION=2.1.0
GEN=$ROOT/../shared/bench/gen.py
[ -f "$GEN" ] || { echo "missing $GEN (the shared/ folder beside the repository)" >&2; exit 1; }

if [ -n "$SYNTHETIC" ]; then
  [ -n "$ROWS_GIVEN" ] || ROWS=100000
  build_cli
  ensure_sdnist
  mkdir -p bench-out
  step "synthetic measures vs sdnist and sdmetrics, $ROWS rows, ${BENCH_RUNS:-5} runs"
  .venv-sdnist/bin/python bench/synthetic.py --rows "$ROWS" --runs "${BENCH_RUNS:-5}" \
    ${SYNTHETIC_PEER_RUNS:+--peer-runs "$SYNTHETIC_PEER_RUNS"} --out bench-out --cli target/release/pseudolens --gen "$GEN"
  exit 0
fi

if [ -n "$WILDCARD" ]; then
  [ -n "$ROWS_GIVEN" ] || ROWS=200000
  build_cli
  step "audit --missing wildcard vs ordinary, $ROWS rows, ${BENCH_RUNS:-5} runs"
  python3 bench/wildcard.py --rows "$ROWS" --runs "${BENCH_RUNS:-5}" \
    --out bench-out --cli target/release/pseudolens --gen "$GEN"
  exit 0
fi

ensure_duckdb() {
  local py=bench-out/venv/bin/python
  if ! "$py" -c "import duckdb, sys; sys.exit(duckdb.__version__ != '$DUCKDB_VERSION')" 2>/dev/null; then
    step "installing duckdb $DUCKDB_VERSION into bench-out/venv (benchmark only)"
    [ -x "$py" ] || python3 -m venv bench-out/venv
    "$py" -m pip install --quiet --disable-pip-version-check "duckdb==$DUCKDB_VERSION"
  fi
}

ensure_polars() {
  local py=bench-out/venv/bin/python
  if ! "$py" -c "import polars, sys; sys.exit(polars.__version__ != '$POLARS_VERSION')" 2>/dev/null; then
    step "installing polars $POLARS_VERSION into bench-out/venv (benchmark only)"
    [ -x "$py" ] || python3 -m venv bench-out/venv
    "$py" -m pip install --quiet --disable-pip-version-check "polars==$POLARS_VERSION"
  fi
}

ensure_duckdb_wasm() {
  local pkg=bench-out/duckdb-wasm/node_modules/@duckdb/duckdb-wasm/package.json
  if [ "$(node -p "require('./$pkg').version" 2>/dev/null)" != "$DUCKDB_WASM_VERSION" ]; then
    step "installing @duckdb/duckdb-wasm $DUCKDB_WASM_VERSION into bench-out/duckdb-wasm (benchmark only)"
    npm install --prefix bench-out/duckdb-wasm --no-save --no-audit --no-fund --no-package-lock \
      "@duckdb/duckdb-wasm@$DUCKDB_WASM_VERSION"
  fi
  step "bundling the DuckDB-wasm harness into bench-out/duckdb-wasm/dist"
  npx vite build --config tests/bench/duckdb/vite.config.js
}

# The tables compare.py generates, with its arguments and its stamp (so each reuses the other's).
ensure_table() {
  local path=bench-out/$1; shift
  [ -f "$path" ] && [ -f "$path.gen.json" ] && return
  step "generating $path"
  python3 - "$GEN" "$path" "$@" <<'PY'
import json, os, subprocess, sys
gen, path, args = sys.argv[1], sys.argv[2], sys.argv[3:]
line = subprocess.run([sys.executable, gen] + args + ["--out", path], check=True, capture_output=True, text=True).stdout.strip()
print(line)
json.dump({"args": args, "line": line, "bytes": os.path.getsize(path)}, open(path + ".gen.json", "w"))
PY
}

# Protect (issue 38): the search against polars node by node, apply + write, ARX's Adult.
bench_protect() {
  ensure_polars
  mkdir -p bench-out
  ensure_table "adult-$ROWS.csv" --rows "$ROWS" --seed 1 --qis 8
  step "pseudolens protect vs polars node by node, $ROWS rows, ${BENCH_RUNS:-5} runs"
  bench-out/venv/bin/python bench/protect.py --table "bench-out/adult-$ROWS.csv" --runs "${BENCH_RUNS:-5}" \
    --out bench-out --cli target/release/pseudolens --adult "$ROOT/../shared/data/adult"
}

# bench-out/venv-spark: pyspark, pyarrow, pandas and a release build of the package.
spark_venv() {
  py=bench-out/venv-spark/bin/python
  mkdir -p bench-out
  [ -x "$py" ] || python3 -m venv bench-out/venv-spark
  "$py" -c "import pyspark, pyarrow, pandas" 2>/dev/null || {
    step "installing pyspark, pyarrow and pandas into bench-out/venv-spark (benchmark only)"
    "$py" -m pip install --quiet --disable-pip-version-check pyspark pyarrow pandas
  }
  step "building the Python package in release (pip install ./python) into bench-out/venv-spark"
  "$py" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps ./python
}

if [ -n "$SPARK_SCALE" ]; then
  spark_venv
  [ -n "$ROWS_GIVEN" ] || ROWS=100000000
  step "pseudolens.spark.audit, class mode, on $ROWS rows generated inside Spark, local[2]"
  (cd bench-out && venv-spark/bin/python ../bench/spark-scale.py --rows "$ROWS" --check --out .)
  exit 0
fi

if [ -n "$SPARK" ]; then
  spark_venv
  # The native bench's hospital table (bench/compare.py: its 5 QIs, then the second SA).
  ensure_table "hospital-$ROWS.csv" --schema hospital --rows "$ROWS" --seed 1 --qis age,sex,zip3,admit_date,ward,discharge
  step "pseudolens.spark.audit vs Spark's own group-by, local[2], $ROWS rows, ${BENCH_RUNS:-5} runs"
  # From bench-out: Spark imports modules (`random`, ...) that a file of the same name would shadow.
  (cd bench-out && venv-spark/bin/python ../bench/spark.py --table "hospital-$ROWS.csv" \
    --qi age,sex,zip3,admit_date,ward --runs "${BENCH_RUNS:-5}" --out .)
  exit 0
fi

if [ -n "$PROTECT" ]; then
  build_cli
  bench_protect
  exit 0
fi

if [ -n "$NATIVE" ]; then
  build_cli
  ensure_duckdb
  ensure_polars
  step "pseudolens CLI vs DuckDB native and polars, $ROWS rows"
  bench-out/venv/bin/python bench/compare.py --rows "$ROWS" --runs "${BENCH_RUNS:-5}" \
    --out bench-out --cli target/release/pseudolens --gen "$GEN"
  bench_protect
fi

[ -n "$BROWSER$THROUGHPUT$BIG" ] || exit 0
ensure_rust_wasm
ensure_npm
ensure_chromium
build_web

if [ -n "$BIG" ]; then
  mkdir -p bench-out
  big=bench-out/hospital-big.csv
  trap 'rm -f "$ROOT/$big" "$ROOT/$big.gen.json"' EXIT
  rm -f "$big" "$big.gen.json"
  ensure_table hospital-big.csv --schema hospital --rows "${BENCH_BIG_ROWS:-27000000}" --seed 1 --qis 9
  step "the page on $(du -h "$big" | cut -f1) in headless Chromium: time and peak memory"
  BENCH_BIG_FILE=$ROOT/$big npx playwright test -c tests/bench/big.config.ts --reporter=line 2>&1 \
    | grep --line-buffered -vE "^(npm warn|\[WebServer\] npm warn)" | tee bench-out/big-bench.log
  grep -q "1 passed" bench-out/big-bench.log
  exit 0
fi

if [ -n "$BROWSER" ]; then
  ensure_duckdb_wasm
  mkdir -p bench-out
  ensure_table "adult-$ROWS.csv" --rows "$ROWS" --seed 1 --qis 8
  ensure_table "hospital-$ROWS.csv" --schema hospital --rows "$ROWS" --seed 1 --qis age,sex,zip3,admit_date,ward,discharge
  step "pseudolens page vs DuckDB-wasm in headless Chromium, $ROWS rows, ${BENCH_RUNS:-5} runs"
  BENCH_ROWS=$ROWS npx playwright test -c tests/bench/peer.config.ts --reporter=line 2>&1 \
    | grep --line-buffered -vE "^(npm warn|\[WebServer\] npm warn)" | tee bench-out/browser-bench.log
  grep -q "1 passed" bench-out/browser-bench.log
  build_cli
  step "the engine in wasm (headless Chromium) against native, one core, ${BENCH_RUNS:-5} runs"
  BENCH_ROWS=$ROWS npx playwright test -c tests/bench/engine.config.ts --reporter=line 2>&1 \
    | grep --line-buffered -vE "^(npm warn|\[WebServer\] npm warn)" | tee bench-out/engine-bench.log
  grep -q "1 passed" bench-out/engine-bench.log
  step "protect: the full search of Adult with ARX's hierarchies in wasm (headless Chromium), ${BENCH_RUNS:-5} runs"
  npx playwright test -c tests/bench/protect.config.ts --reporter=line 2>&1 \
    | grep --line-buffered -vE "^(npm warn|\[WebServer\] npm warn)" | tee bench-out/protect-wasm-bench.log
  grep -q "1 passed" bench-out/protect-wasm-bench.log
fi

[ -n "$THROUGHPUT" ] || exit 0
[ -x target/release/pseudolens ] || build_cli
QI5=age,sex,region,admission_date,ward
QI8=$QI5,diagnosis,procedure,length_of_stay
SAS=diagnosis,procedure
step "native"
target/release/pseudolens bench --rows "$ROWS" --qi "$QI5"
target/release/pseudolens bench --rows "$ROWS" --qi "$QI8"
target/release/pseudolens bench --rows "$ROWS" --qi "$QI5" --sensitive "$SAS"
target/release/pseudolens bench --rows "$ROWS" --qi "$QI5" --utility-level 2
step "browser (headless Chromium)"
for setting in "$QI5|" "$QI8|" "$QI5|$SAS"; do
  BENCH_ROWS=$ROWS BENCH_QIS=${setting%|*} BENCH_SAS=${setting#*|} \
    npx playwright test -c tests/bench/bench.config.ts --reporter=line | grep -E "^browser|passed|failed"
done
BENCH_ROWS=$ROWS BENCH_QIS=$QI5 BENCH_UTILITY_LEVEL=2 \
  npx playwright test -c tests/bench/bench.config.ts --reporter=line | grep -E "^browser|passed|failed"
