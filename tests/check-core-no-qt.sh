#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# core/ must stay plain C++: fail on any Qt include.
hits=$(grep -rnE '#[[:space:]]*include[[:space:]]*[<"]Q' "$1" --include='*.h' --include='*.cpp')
if [ -n "$hits" ]; then echo "core/ includes Qt headers:"; echo "$hits"; exit 1; fi
echo "core/ is Qt-free"
