#!/usr/bin/env bash
# Fuzzes the targets of fuzz/ (cargo-fuzz, libFuzzer):
#   bash scripts/fuzz.sh [TARGET|all] [SECONDS]      (default: all, 60 seconds each)
# Each target runs SECONDS with the dictionary fuzz/csv.dict and inputs up to FUZZ_MAX_LEN
# bytes (default 65536), starting from and adding to its corpus fuzz/corpus/<target>/, which
# is then minimised (cargo fuzz cmin) so the kept corpus stays small. A crash, OOM or timeout
# input is copied to fuzz/regressions/<target>/ (crate/fuzz-targets/tests/replay.rs replays
# both folders on stable Rust). Prints the executions per target at the end.
# Environment:
#   FUZZ_MAX_LEN      longest input (default 65536)
#   FUZZ_CORPUS_MAX   most files kept per target after minimising (default 300)
#   FUZZ_SANITIZER    none (default: the core is safe Rust) or address (also checks the
#                     dependencies' unsafe code; about 2x slower)
#   FUZZ_KEEP_GOING=1 fuzz on after a crash (libFuzzer fork mode) instead of stopping
# Installs the nightly toolchain and cargo-fuzz when they are missing (skipped when present).
source "$(dirname "$0")/lib.sh"

ALL=(config_json cell_forms ingest_split record_count)
which=${1:-all}
seconds=${2:-60}
max_len=${FUZZ_MAX_LEN:-65536}
sanitizer=${FUZZ_SANITIZER:-none}
corpus_max=${FUZZ_CORPUS_MAX:-300}
if [ "$which" = all ]; then targets=("${ALL[@]}"); else targets=("$which"); fi

if ! rustup toolchain list | grep -q '^nightly'; then
  step "installing the nightly toolchain"
  rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  step "installing cargo-fuzz"
  cargo install cargo-fuzz
fi

fuzz() { (cd fuzz && cargo +nightly fuzz "$@"); }
step "building the fuzz targets"
fuzz build -s "$sanitizer" $([ "$which" = all ] || echo "$which")

flags=(-dict=csv.dict -max_len="$max_len" -timeout=30 -print_final_stats=1)
[ "${FUZZ_KEEP_GOING:-0}" = 1 ] && flags+=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)
LOGS=$(mktemp -d)
trap 'rm -rf "$LOGS"' EXIT
summary=()
status=0
for t in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$t" "fuzz/regressions/$t" "fuzz/artifacts/$t"
  step "fuzzing $t for $seconds s"
  rc=0
  fuzz run -s "$sanitizer" "$t" "corpus/$t" -- "${flags[@]}" -max_total_time="$seconds" >"$LOGS/$t.log" 2>&1 || rc=$?
  # libFuzzer's closing lines, and the panic of a crash.
  grep -E -A 4 "panicked at|^==[0-9]+==.*(ERROR|Sanitizer)" "$LOGS/$t.log" | head -n 20 || true
  grep -E "^(Done|stat::|artifact_prefix|Test unit written)|DONE" "$LOGS/$t.log" || true
  # Executions: the final stats, else libFuzzer's last "#N ..." status line.
  execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$LOGS/$t.log" | tail -n 1)
  [ -n "$execs" ] || execs=$(grep -oE '^#[0-9]+' "$LOGS/$t.log" | tail -n 1 | tr -d '#')
  crashes=0
  for f in fuzz/artifacts/"$t"/{crash,oom,timeout,leak,slow-unit}-*; do
    [ -e "$f" ] || continue
    [ -e "fuzz/regressions/$t/$(basename "$f")" ] || cp "$f" "fuzz/regressions/$t/"
    crashes=$((crashes + 1))
  done
  rm -f fuzz/artifacts/"$t"/*
  [ "$rc" -eq 0 ] && [ "$crashes" -eq 0 ] || status=1
  # The smallest set of inputs with every feature (edges and their hit-count buckets); when
  # that is still more than $corpus_max files, the smallest set with every edge.
  step "minimising the corpus of $t"
  for counters in 1 0; do
    fuzz cmin -s "$sanitizer" "$t" "corpus/$t" -- -max_len="$max_len" -timeout=30 -set_cover_merge=1 \
      -use_counters="$counters" >"$LOGS/$t.cmin.log" 2>&1 \
      || { tail -n 5 "$LOGS/$t.cmin.log"; echo "cmin failed; the corpus is kept unminimised"; break; }
    files=$(find "fuzz/corpus/$t" -type f | wc -l)
    [ "$files" -gt "$corpus_max" ] || break
  done
  files=$(find "fuzz/corpus/$t" -type f | wc -l)
  summary+=("$(printf '%-14s %12s executions  %5s corpus files  %s new crash inputs' "$t" "${execs:-?}" "$files" "$crashes")")
done

step "summary ($seconds s per target)"
printf '%s\n' "${summary[@]}"
[ "$status" -eq 0 ] || echo "a target crashed: see fuzz/regressions/<target>/ and the log above"
exit "$status"
