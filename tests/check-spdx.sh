#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every source, build and script file carries an SPDX licence line in its first three lines, and the
# licence text is at the top of the tree.
src=$1
[ -s "$src/LICENSE" ] || { echo "no LICENSE at the top of $src"; exit 1; }
missing=$(cd "$src" && find app core ui tests scripts cmake resources .ci -type f \
  \( -name '*.cpp' -o -name '*.h' -o -name '*.c' -o -name '*.in' -o -name '*.sh' -o -name '*.py' \
     -o -name '*.cmake' -o -name CMakeLists.txt -o -name run -o -name '*.1' -o -name '*.desktop' \) \
  -not -path 'tests/data/*' -not -path 'tests/fuzz/regressions/*' | sort |
  while read -r f; do head -3 "$f" | grep -q 'SPDX-License-Identifier: ' || echo "$f"; done)
if [ -n "$missing" ]; then echo "files without an SPDX-License-Identifier line:"; echo "$missing"; exit 1; fi
echo "every source file has its SPDX line"
