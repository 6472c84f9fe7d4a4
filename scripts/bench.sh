#!/usr/bin/env bash
# Benchmark (not a test): throughput of the native CLI and of the browser worker on a generated
# table (10 columns), in three settings: 5 quasi-identifiers; 8 quasi-identifiers (attribution
# over 255 subsets); 5 quasi-identifiers with 2 sensitive columns (24 and 500 categories); and
# the utility pass: level-2 generalization of the table against its exact original, two files
# of ROWS rows each, paired by record_id (every utility metric).
# Usage: scripts/bench.sh [ROWS] (default 1,000,000).
source "$(dirname "$0")/lib.sh"
ROWS=${1:-1000000}
ensure_rust_wasm
ensure_npm
ensure_chromium
build_cli
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
