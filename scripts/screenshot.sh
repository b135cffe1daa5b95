#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Real-window screenshot of the GUI under Xvfb, for review:
#   scripts/screenshot.sh FILE OUT.png [tickscope options, e.g. --view 1.0:1.05]
# TICKSCOPE_BIN selects the binary (default: build/dev/app/tickscope, built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 FILE OUT.png [--view A:B]" >&2; exit 2; }
file=$1 out=$2
shift 2
bin=${TICKSCOPE_BIN:-build/dev/app/tickscope}
if [ ! -x "$bin" ]; then
  cmake --preset dev >/dev/null && cmake --build --preset dev --target tickscope
fi
exec xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" --screenshot "$out" "$@" "$file"
