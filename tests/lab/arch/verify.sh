#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Host-side checks of one trace.dat: trace-cmd report/dump (host trace-cmd 3.1.6 amd64) and tickscope-cli.
f=$1; CLI=${CLI:-$(cd "$(dirname "$0")/../../.." && pwd)/build/dev/app/tickscope-cli}
echo "### $f  ($(stat -c %s "$f") bytes, md5 $(md5sum < "$f" | cut -d' ' -f1))"
echo "--- trace-cmd report | head"; trace-cmd report "$f" 2>&1 | head -8
echo "--- trace-cmd report | wc -l: $(trace-cmd report "$f" 2>/dev/null | wc -l)"
echo "--- trace-cmd report stderr: [$(trace-cmd report "$f" 2>&1 >/dev/null)]"
echo "--- trace-cmd dump --summary"; trace-cmd dump --summary "$f" 2>&1
echo "--- tickscope-cli stats"; "$CLI" stats "$f" 2>&1; echo "rc=$?"
echo "--- tickscope-cli report (rc/stderr only)"; "$CLI" report "$f" >/dev/null 2>/tmp/v.err; echo "rc=$? stderr=[$(cat /tmp/v.err)]"
echo "--- tickscope-cli report --stream (rc/stderr only)"; "$CLI" report "$f" --stream >/dev/null 2>/tmp/v.err; echo "rc=$? stderr=[$(cat /tmp/v.err)]"
