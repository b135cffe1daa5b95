#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The core modules' layers, as the build enforces them (core/CMakeLists.txt): each module compiles
# against an include root of its own, BUILD/layers/MODULE, holding links to the folders it may use.
# Usage: check-layers.sh SOURCE_DIR BUILD_DIR [CXX]
# Checks that
#  - every quoted include of a core source names a folder its module sees, or a file beside it;
#  - no source reaches another folder with "../";
#  - the compiler, given a module's include root, cannot find a header of any module above it (the
#    include that runs up a layer fails to build).
set -uo pipefail
src=$1 layers=$2/layers cxx=${3:-c++}
fail=0
[ -d "$layers" ] || { echo "no $layers: configure the build first"; exit 1; }
modules=$(cd "$src/core" && for d in */; do [ -f "${d%/}/CMakeLists.txt" ] || echo "${d%/}"; done)
for m in $modules; do
  [ -d "$layers/$m" ] || { echo "core/$m is not a module of the build (no $layers/$m)"; fail=1; continue; }
  sees=" $(ls "$layers/$m" | tr '\n' ' ') "
  # 1. the includes of the module's sources
  while IFS=: read -r file line text; do
    inc=$(sed -E 's/.*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/' <<<"$text")
    case $inc in
      ../* | */../*) echo "$file:$line: includes \"$inc\" through ../"; fail=1 ;;
      */*) top=${inc%%/*}
           if [[ $sees != *" $top "* ]]; then
             echo "$file:$line: core/$m includes \"$inc\", but $m may only use:$sees"; fail=1
           fi ;;
      *) [ -f "$src/core/$m/$inc" ] || { echo "$file:$line: \"$inc\" is not in core/$m"; fail=1; } ;;
    esac
  done < <(cd "$src" && grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "core/$m" --include='*.h' --include='*.cpp')
  # 2. the compiler cannot reach the modules the module does not see
  for other in $modules; do
    [[ $sees == *" $other "* ]] && continue
    header=$(cd "$src/core/$other" && ls *.h 2>/dev/null | head -1)
    [ -n "$header" ] || continue
    out=$(printf '#include "%s/%s"\n' "$other" "$header" |
          "$cxx" -std=c++20 -fsyntax-only -x c++ -I "$layers/$m" - 2>&1)
    if ! grep -q "$other/$header.*No such file" <<<"$out"; then
      echo "core/$m can include $other/$header, a module it does not use"; fail=1
    fi
  done
  echo "core/$m uses:${sees% }"
done
for d in ui app; do
  hits=$(cd "$src" && grep -rnE '#[[:space:]]*include[[:space:]]*"\.\./' "$d" 2>/dev/null)
  [ -z "$hits" ] || { echo "$hits"; fail=1; }
done
[ $fail = 0 ] && echo "every include stays inside its module's layers"
exit $fail
