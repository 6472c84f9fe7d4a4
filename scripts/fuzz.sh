#!/usr/bin/env bash
# Fuzzes the targets of fuzz/ (cargo-fuzz, libFuzzer), one process at a time:
#   bash scripts/fuzz.sh [TARGET|all] [SECONDS]     for a time (default: all, 60 seconds each)
#   bash scripts/fuzz.sh runs [TARGET|all] [N]      until N executions each (default 10^7)
#   bash scripts/fuzz.sh all-runs [N]               = runs all N: every target to N executions
#                                                   one after another (issue 10: 10^7 each)
# Each target runs with the dictionary fuzz/csv.dict and inputs up to FUZZ_MAX_LEN bytes
# (default 65536), starting from and adding to its corpus fuzz/corpus/<target>/, which is then
# minimised (cargo fuzz cmin) so the kept corpus stays small. A crash, OOM or timeout input is
# copied to fuzz/regressions/<target>/ (crate/fuzz-targets/tests/replay.rs replays both folders
# on stable Rust). Prints, per target: executions, seconds, executions per second, crashes,
# and how many executions took each costly path (PSEUDOLENS_FUZZ_STATS, see
# crate/fuzz-targets/src/lib.rs). The runs modes append one line per target to
# fuzz/runs.log (date, target, executions, seconds, exec/s, crashes, git commit; `+dirty`
# when crate/ or fuzz/ had uncommitted changes other than the corpus): commit it with the
# code it ran.
# Environment:
#   FUZZ_MAX_LEN          longest input (default 65536)
#   FUZZ_CORPUS_MAX       most files kept per target after minimising (default 300)
#   FUZZ_SANITIZER        none (default: the core is safe Rust) or address (also checks the
#                         dependencies' unsafe code; about 2x slower)
#   FUZZ_TRACE_COMPARES=1 instrument comparisons (-sanitizer-coverage-trace-compares, cargo
#                         fuzz's default) for libFuzzer's value-guided mutations. Off by
#                         default: their hooks are 60-80 % of the time of the CSV targets'
#                         byte loops; the dictionary and the generators of
#                         crate/fuzz-targets/src/shape.rs supply the constants they would
#                         find. Built in its own folder (fuzz/target/trace-compares).
#   FUZZ_KEEP_GOING=1     fuzz on after a crash (libFuzzer fork mode) instead of stopping
#   FUZZ_LOG              the runs log (default fuzz/runs.log)
# Installs the nightly toolchain and cargo-fuzz when they are missing (skipped when present).
source "$(dirname "$0")/lib.sh"

ALL=(config_json cell_forms ingest_split record_count table_bytes parquet_file xlsx_file)
mode=time
case "${1:-all}" in
  runs) mode=runs; shift ;;
  all-runs) mode=runs; shift; set -- all "$@" ;;
esac
which=${1:-all}
if [ "$mode" = runs ]; then
  runs=${2:-10000000}
  [[ "$runs" =~ ^[0-9]+$ ]] || { echo "runs: N must be a number, not $runs"; exit 2; }
else
  seconds=${2:-60}
  [[ "$seconds" =~ ^[0-9]+$ ]] || { echo "SECONDS must be a number, not $seconds"; exit 2; }
fi
max_len=${FUZZ_MAX_LEN:-65536}
sanitizer=${FUZZ_SANITIZER:-none}
corpus_max=${FUZZ_CORPUS_MAX:-300}
log=${FUZZ_LOG:-fuzz/runs.log}
if [ "$which" = all ]; then
  targets=("${ALL[@]}")
elif [[ " ${ALL[*]} " == *" $which "* ]]; then
  targets=("$which")
else
  echo "no target $which (targets: ${ALL[*]})"
  exit 2
fi

if ! rustup toolchain list | grep -q '^nightly'; then
  step "installing the nightly toolchain"
  rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  step "installing cargo-fuzz"
  cargo install cargo-fuzz
fi

# The same build options for build, run and cmin (else cargo fuzz rebuilds with its defaults).
build=(-s "$sanitizer")
if [ "${FUZZ_TRACE_COMPARES:-0}" = 1 ]; then
  build+=(--target-dir "$ROOT/fuzz/target/trace-compares")
else
  build+=(--no-trace-compares)
fi
fuzz() { (cd fuzz && cargo +nightly fuzz "$@"); }
step "building the fuzz targets"
fuzz build "${build[@]}" $([ "$which" = all ] || echo "$which")

# -entropic_scale_per_exec_time: slow corpus inputs get less of the fuzzer's time.
flags=(-dict=csv.dict -max_len="$max_len" -timeout=30 -print_final_stats=1 -entropic_scale_per_exec_time=1)
[ "${FUZZ_KEEP_GOING:-0}" = 1 ] && flags+=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)
if [ "$mode" = runs ]; then limit=(-runs="$runs"); else limit=(-max_total_time="$seconds"); fi
export PSEUDOLENS_FUZZ_STATS=1
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain -- crate fuzz ':!fuzz/corpus' ':!fuzz/runs.log' 2>/dev/null)" ] || commit="$commit+dirty"
if [ "$mode" = runs ] && [ ! -e "$log" ]; then
  printf '# scripts/fuzz.sh runs/all-runs, one line per target run (tab-separated)\n# date\ttarget\texecutions\tseconds\texec/s\tcrashes\tcommit\n' >"$log"
fi
LOGS=$(mktemp -d)
trap 'rm -rf "$LOGS"' EXIT
summary=()
status=0
for t in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$t" "fuzz/regressions/$t" "fuzz/artifacts/$t"
  rm -f fuzz/artifacts/"$t"/*
  if [ "$mode" = runs ]; then step "fuzzing $t for $runs executions"; else step "fuzzing $t for $seconds s"; fi
  rc=0
  start=$(date +%s)
  fuzz run "${build[@]}" "$t" "corpus/$t" -- "${flags[@]}" "${limit[@]}" >"$LOGS/$t.log" 2>&1 || rc=$?
  elapsed=$(( $(date +%s) - start ))
  # libFuzzer's closing lines, and the panic of a crash.
  grep -E -A 4 "panicked at|^==[0-9]+==.*(ERROR|Sanitizer)" "$LOGS/$t.log" | head -n 20 || true
  grep -E "^(Done|stat::|artifact_prefix|Test unit written)|DONE|INFO: (fuzzed for|exiting)" "$LOGS/$t.log" || true
  # Executions: libFuzzer's "Done N runs in S second(s)" and final stats, else (a crash, or
  # fork mode) the last "#N" status line. Seconds: libFuzzer's own count when it gives one
  # (without the build), else the wall clock of the run.
  execs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1/p' "$LOGS/$t.log" | tail -n 1)
  secs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\2/p' "$LOGS/$t.log" | tail -n 1)
  [ -n "$execs" ] || execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$LOGS/$t.log" | tail -n 1)
  [ -n "$execs" ] || execs=$(grep -oE '^#[0-9]+' "$LOGS/$t.log" | tail -n 1 | tr -d '#' || true)
  execs=${execs:-0}
  if [ -z "$secs" ] || [ "$secs" -eq 0 ]; then secs=$elapsed; fi
  rate=$(( execs / (secs > 0 ? secs : 1) ))
  crashes=0
  for f in fuzz/artifacts/"$t"/{crash,oom,timeout,leak,slow-unit}-*; do
    [ -e "$f" ] || continue
    [ -e "fuzz/regressions/$t/$(basename "$f")" ] || cp "$f" "fuzz/regressions/$t/"
    crashes=$((crashes + 1))
  done
  # Fork mode counts the crashes it ignored in its status lines.
  forked=$(grep -oE 'oom/timeout/crash: [0-9]+/[0-9]+/[0-9]+' "$LOGS/$t.log" | tail -n 1 | grep -oE '[0-9]+/[0-9]+/[0-9]+$' | tr / + || true)
  [ -z "$forked" ] || crashes=$(( crashes > forked ? crashes : forked ))
  rm -f fuzz/artifacts/"$t"/*
  [ "$rc" -eq 0 ] && [ "$crashes" -eq 0 ] || status=1
  paths=$(grep -E "^pseudolens-stats $t:" "$LOGS/$t.log" | tail -n 1 | sed 's/^[^;]*; *//' || true)
  if [ "$mode" = runs ]; then
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$t" "$execs" "$secs" "$rate" "$crashes" "$commit" >>"$log"
  fi
  # The smallest set of inputs with every feature (edges and their hit-count buckets); when
  # that is still more than $corpus_max files, the smallest set with every edge.
  step "minimising the corpus of $t"
  for counters in 1 0; do
    fuzz cmin "${build[@]}" "$t" "corpus/$t" -- -max_len="$max_len" -timeout=30 -set_cover_merge=1 \
      -use_counters="$counters" >"$LOGS/$t.cmin.log" 2>&1 \
      || { tail -n 5 "$LOGS/$t.cmin.log"; echo "cmin failed; the corpus is kept unminimised"; break; }
    files=$(find "fuzz/corpus/$t" -type f | wc -l)
    [ "$files" -gt "$corpus_max" ] || break
  done
  files=$(find "fuzz/corpus/$t" -type f | wc -l)
  summary+=("$(printf '%-13s %11s executions %6s s %7s exec/s %3s crashes %5s corpus files  %s' \
    "$t" "$execs" "$secs" "$rate" "$crashes" "$files" "${paths:+(paths: $paths)}")")
done

if [ "$mode" = runs ]; then step "summary ($runs executions per target; appended to $log)"; else step "summary ($seconds s per target)"; fi
printf '%s\n' "${summary[@]}"
[ "$status" -eq 0 ] || echo "a target crashed or failed: see fuzz/regressions/<target>/ and the log above"
exit "$status"
