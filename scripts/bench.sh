#!/usr/bin/env bash
# Benchmark (not a test): throughput of the native CLI and of the browser worker on a generated
# table (10 columns, 5 quasi-identifiers). Usage: scripts/bench.sh [ROWS] (default 1,000,000).
source "$(dirname "$0")/lib.sh"
ROWS=${1:-1000000}
ensure_rust_wasm
ensure_npm
ensure_chromium
build_cli
build_web
step "native"
target/release/pseudolens bench --rows "$ROWS"
step "browser (headless Chromium)"
BENCH_ROWS=$ROWS npx playwright test -c tests/bench/bench.config.ts --reporter=line
