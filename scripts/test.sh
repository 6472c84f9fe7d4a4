#!/usr/bin/env bash
# Runs every test: the format (rustfmt), clippy's lints (warnings denied) and the docs' links;
# the page's TypeScript format and lints (Biome, biome.jsonc);
# Rust unit, golden and property tests; the wasm binding in headless Chromium; the page's types
# (tsc, the generated contract included) and pure logic (Vitest, tests/unit); the Python
# cross-checks against live peers (pyCANON, Anonymeter, sdnist, sdmetrics) and the spec's reference, the malformed-input corpus (tests/corpus)
# through the CLI; Playwright end to end (the same corpus in the page).
# Installs what is missing first. Prints each runner's summary, then one closing line.
source "$(dirname "$0")/lib.sh"
LOGS=$(mktemp -d)
trap 'rm -rf "$LOGS"' EXIT
export CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=180

ensure_rust_wasm
ensure_npm
ensure_chromium
ensure_python_deps
ensure_anonymeter
ensure_sdnist
ensure_python_package_deps

failed_steps=()
timings=()
run() { # run NAME COMMAND...: runs a suite, keeps its output for the summary and its time
  local name=$1 start=$SECONDS; shift
  step "$name"
  if ! "$@" 2>&1 | tee "$LOGS/$name.log"; then failed_steps+=("$name"); fi
  timings+=("$name $((SECONDS - start))s")
}

# Guard rails first: the format (rustfmt.toml), clippy's lints (every warning an error),
# the docs' intra-doc links (a broken one is an error), and the TypeScript's format and lints
# (biome.jsonc; a few seconds).
run fmt cargo fmt --all --check
run clippy cargo clippy --workspace --all-targets -- -D warnings
run doc env RUSTDOCFLAGS="-D rustdoc::broken_intra_doc_links" cargo doc --workspace --no-deps --document-private-items --quiet
run tslint npx biome ci web tests vite.config.ts vitest.config.ts playwright.config.ts
run rust cargo test --workspace
run wasm cargo test -p pseudolens-wasm --target wasm32-unknown-unknown --test web
run unit npx vitest run
build_cli
build_web
# After the build: the page imports the wasm glue of web/pkg.
run typecheck npx tsc --noEmit -p .
run crosscheck python3 -m pytest -q tests/crosscheck tests/corpus
build_python_package
run python "$PY_VENV/bin/python" -m pytest -q tests/python
run e2e npx playwright test

# One closing line over every suite (cargo: "N passed; M failed", pytest, Vitest and
# Playwright: "N passed", "M failed"; Vitest's count of test files is not a count of tests).
sum() { grep -hv "Test Files" "$LOGS"/*.log | grep -oE "[0-9]+ $1" | awk '{s += $1} END {print s + 0}'; }
passed=$(sum passed) failed=$(sum failed)
echo "time per suite: ${timings[*]}"
[ "${#failed_steps[@]}" -eq 0 ] || echo "failing suites: ${failed_steps[*]}"
[ "$passed" -gt 0 ] || { echo "no test ran"; failed_steps+=("none-ran"); }
echo
echo "$passed passed, $failed failed"
[ "${#failed_steps[@]}" -eq 0 ] && [ "$failed" -eq 0 ]
