#!/usr/bin/env bash
# Benchmark (not a test): the native CLI side by side with DuckDB native on the same generated
# tables (shared/bench/gen.py, into bench-out/): an Adult-like table with 8 quasi-identifiers
# and a hospital table with 5 quasi-identifiers and 2 sensitive columns, 2 threads and 1 thread,
# medians of 5 runs (BENCH_RUNS); ingest + profile in MB/s per core and the re-audit time when
# the CLI has them. Prints one table with the ratios and writes bench-out/bench.json; the work
# is in bench/compare.py. DuckDB (PyPI `duckdb`) is installed into bench-out/venv, never by the
# tests.
# --browser adds the older benchmark: the native CLI and the worker in headless Chromium on the
# CLI's own generated table (5 QIs; 8 QIs; 5 QIs + 2 SAs; the utility pass, two files).
# Usage: scripts/bench.sh [ROWS] [--browser]   (ROWS default 1,000,000)
source "$(dirname "$0")/lib.sh"
ROWS=1000000
BROWSER=
for arg in "$@"; do
  case $arg in
    --browser) BROWSER=1 ;;
    *[!0-9]* | "") echo "usage: scripts/bench.sh [ROWS] [--browser]" >&2; exit 2 ;;
    *) ROWS=$arg ;;
  esac
done
DUCKDB_VERSION=2.0.0
GEN=$ROOT/../shared/bench/gen.py
[ -f "$GEN" ] || { echo "missing $GEN (the shared/ folder beside the repository)" >&2; exit 1; }

ensure_duckdb() {
  local py=bench-out/venv/bin/python
  if ! "$py" -c "import duckdb, sys; sys.exit(duckdb.__version__ != '$DUCKDB_VERSION')" 2>/dev/null; then
    step "installing duckdb $DUCKDB_VERSION into bench-out/venv (benchmark only)"
    [ -x "$py" ] || python3 -m venv bench-out/venv
    "$py" -m pip install --quiet --disable-pip-version-check "duckdb==$DUCKDB_VERSION"
  fi
}

build_cli
ensure_duckdb
step "pseudolens CLI vs DuckDB native, $ROWS rows"
bench-out/venv/bin/python bench/compare.py --rows "$ROWS" --runs "${BENCH_RUNS:-5}" \
  --out bench-out --cli target/release/pseudolens --gen "$GEN"

[ -n "$BROWSER" ] || exit 0
ensure_rust_wasm
ensure_npm
ensure_chromium
build_web
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
