#!/usr/bin/env bash
# Installs what is missing, builds the dev preset and runs the whole test suite.
# Usage: scripts/test.sh [dev|asan|release]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-dev}
./scripts/install-deps.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
ctest --preset "$preset" -j "$(nproc)"
