#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# clang-tidy, with the checks of .clang-tidy, on the C++ sources a change touches: the files of core/,
# ui/ and app/ changed since BASE and those not committed yet; a changed header brings its .cpp.
# BASE: the argument, else .ci/tidy-base (the last commit whose whole tree was clean: the test command
# and so CI check what changed since), else the commit before HEAD. --all: every source (about 10 minutes
# on 2 cores); when that is clean, put `git rev-parse HEAD` in .ci/tidy-base (its last line).
# Needs a configured build for compile_commands.json (default build/dev).
# Usage: scripts/tidy.sh [BASE | --all]   (TIDY_BUILD=DIR for another build; exit 1 on a finding, 77 when
# BASE is not in this clone, e.g. a shallow checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --all ]; then
  base=$(git rev-list --max-parents=0 HEAD | tail -1)
elif [ -n "${1:-}" ]; then
  base=$1
elif [ -s .ci/tidy-base ]; then
  base=$(grep -v '^#' .ci/tidy-base | tr -d '[:space:]')
else
  base=HEAD~1
fi
build=${TIDY_BUILD:-build/dev}
tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
[ -n "$tidy" ] || { echo "tidy: clang-tidy is not installed (scripts/install-deps.sh --test)" >&2; exit 1; }
[ -f "$build/compile_commands.json" ] || { echo "tidy: no $build/compile_commands.json: configure first" >&2; exit 1; }
git rev-parse -q --verify "$base^{commit}" >/dev/null ||
  { echo "tidy: skipped: $base is not a commit of this clone (a shallow checkout?)"; exit 77; }
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
