#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what is missing, builds a preset and runs the whole test suite.
# Usage: scripts/test.sh [dev|asan|tsan|release]
# With the dev preset (the default, and CI) it also runs the libFuzzer targets for FUZZ_SECONDS
# (default 30) over the seeds and the committed regression inputs: scripts/fuzz.sh. FUZZ_SECONDS=0
# skips that. It runs clang-tidy (scripts/tidy.sh) on the sources changed since .ci/tidy-base first.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-dev}
./scripts/install-deps.sh --test
cmake --preset "$preset" -DTICKSCOPE_WERROR=ON >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
if [ "$preset" = dev ]; then # clang-tidy on what changed since the last whole-tree clean run
  rc=0
  ./scripts/tidy.sh || rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 77 ] || exit "$rc"
fi
if [ "$preset" = dev ] && [ "${FUZZ_SECONDS:-30}" != 0 ]; then
  ./scripts/fuzz.sh "${FUZZ_SECONDS:-30}" fuzz_tracedat fuzz_tracedat_reference fuzz_text fuzz_scenario
fi
ctest --preset "$preset" -j "$(nproc)"
