#!/usr/bin/env bash
# Real-window screenshot of the GUI under Xvfb, for review: scripts/screenshot.sh FILE OUT.png
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: $0 FILE OUT.png" >&2; exit 2; }
bin=build/dev/app/tickscope
[ -x "$bin" ] || { cmake --preset dev >/dev/null && cmake --build --preset dev --target tickscope; }
exec xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" --screenshot "$2" "$1"
