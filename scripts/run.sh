#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what is missing, builds and starts the GUI. Usage: scripts/run.sh [FILE ...]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh --build
cmake --preset dev >/dev/null
cmake --build --preset dev -j "$(nproc)" --target tickscope tickscope-cli
exec ./build/dev/app/tickscope "$@"
