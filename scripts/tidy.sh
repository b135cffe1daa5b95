#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# clang-tidy, with the checks of .clang-tidy, on the C++ sources a change touches: the files of core/,
# ui/ and app/ changed since BASE (default: the commit before HEAD) and those not committed yet; a changed
# header brings its .cpp. Needs a configured build for compile_commands.json (default build/dev).
# Usage: scripts/tidy.sh [BASE]   (TIDY_BUILD=DIR for another build; exit 1 on a finding)
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-HEAD~1}
build=${TIDY_BUILD:-build/dev}
tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
[ -n "$tidy" ] || { echo "tidy: clang-tidy is not installed (scripts/install-deps.sh --test)" >&2; exit 1; }
[ -f "$build/compile_commands.json" ] || { echo "tidy: no $build/compile_commands.json: configure first" >&2; exit 1; }
git rev-parse -q --verify "$base^{commit}" >/dev/null || { echo "tidy: $base is not a commit of this clone"; exit 0; }
mapfile -t changed < <({ git diff --name-only --diff-filter=d "$base" -- core ui app
                         git ls-files --others --exclude-standard -- core ui app; } | sort -u)
files=()
for f in "${changed[@]}"; do
  case $f in
    *.cpp) files+=("$f") ;;
    *.h) [ -f "${f%.h}.cpp" ] && files+=("${f%.h}.cpp") ;;
  esac
done
mapfile -t files < <(printf '%s\n' "${files[@]}" | sort -u | sed '/^$/d')
if [ ${#files[@]} -eq 0 ]; then echo "tidy: no C++ source of core/, ui/ or app/ changed since $base"; exit 0; fi
echo "tidy: ${#files[@]} file(s) changed since $base"
# one file per run, on every core; WarningsAsErrors in .clang-tidy makes a finding fail the run
if printf '%s\0' "${files[@]}" | xargs -0 -n 1 -P "$(nproc)" "$tidy" -p "$build" -quiet 2>/dev/null; then
  echo "tidy: clean"
else
  echo "tidy: findings above" >&2
  exit 1
fi
