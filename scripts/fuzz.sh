#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets (the `fuzz` preset: clang-14, ASan + UBSan) and runs each one.
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET ...]     (default 60 s, every target)
#        FUZZ_RUNS=N scripts/fuzz.sh 0 TARGET                   (N executions instead of a time limit)
# Seeds are made fresh from tests/data and the presets; the growing corpus stays in build/fuzz/corpus/
# and findings in build/fuzz/artifacts/. Minimised crashers belong in tests/fuzz/regressions/TARGET/,
# which every run replays first. Exits non-zero on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz_tracedat fuzz_tracedat_reference fuzz_text fuzz_scenario)
if ! command -v clang++-14 >/dev/null; then
  echo "fuzz: clang++-14 is missing (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
out=build/fuzz
mkdir -p "$out"
# Several runs may go at once (one target per core): the build and the seeds are made by one at a time.
exec 9>"$out.lock"
flock 9
cmake --preset fuzz -DTICKSCOPE_WERROR=ON >/dev/null
cmake --build --preset fuzz -j "$(nproc)" --target make_fuzz_seeds "${targets[@]}"
"$out/tests/fuzz/make_fuzz_seeds" tests/data "$out/seeds" >/dev/null
flock -u 9
declare -A dict=([fuzz_tracedat]=tracedat [fuzz_tracedat_reference]=tracedat [fuzz_text]=text [fuzz_scenario]=scenario)
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
for t in "${targets[@]}"; do
  corpus="$out/corpus/$t"
  mkdir -p "$corpus" "$out/artifacts/$t" "$out/seeds/$t"
  regressions=()
  [ -d "tests/fuzz/regressions/$t" ] && regressions=("tests/fuzz/regressions/$t")
  limit=(-max_total_time="$seconds")
  [ -n "${FUZZ_RUNS:-}" ] && limit=(-runs="$FUZZ_RUNS")
  echo "== $t: ${FUZZ_RUNS:+$FUZZ_RUNS runs}${FUZZ_RUNS:-$seconds s}"
  if ! "$out/tests/fuzz/$t" "${limit[@]}" -timeout=20 -rss_limit_mb=2560 -max_len=65536 -print_final_stats=1 \
      -dict="tests/fuzz/${dict[$t]}.dict" -artifact_prefix="$out/artifacts/$t/" \
      "$corpus" "$out/seeds/$t" "${regressions[@]}" 2>"$out/$t.log"; then
    echo "fuzz: $t found a failure; see $out/$t.log and $out/artifacts/$t/" >&2
    tail -40 "$out/$t.log" >&2
    status=1
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$out/$t.log" | sed "s/^/  /"
done
exit $status
