#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# record-busy-cpu.sh OUT.dat
#
# Records a real trace where one CPU has nearly all the events (the usual place is
# /work/bigtrace/busy.dat): two stress-ng nanosleep workers pinned to CPU 0 for SECS seconds,
# captured with tickscope's own `capture` (the tick analysis's event set, a private tracefs
# instance, nothing else in tracefs changed). On the 2-CPU benchmark machine 6 s gave 5.35 M
# events, 95 % of them on CPU 0 (737 k syscalls, 629 k switches, 619 k hrtimer starts): the
# input that shows whether the analysis of one busy CPU is spread over the cores.
# Needs root, tracefs and stress-ng (scripts/install-deps.sh --bench). Not committed.
#
# Environment: SECS (default 6), BUF_KB per-CPU buffer (default 262144), CPU (default 0).
set -euo pipefail
out=${1:?OUT.dat}
here=$(cd "$(dirname "$0")" && pwd)
cli=${CLI:-$here/../../build/release/app/tickscope-cli}
secs=${SECS:-6}
[ "$(id -u)" -eq 0 ] || { echo "record-busy-cpu: must run as root" >&2; exit 1; }
command -v stress-ng >/dev/null || { echo "record-busy-cpu: stress-ng missing" >&2; exit 1; }
"$cli" capture --out "$out" --duration "$secs" --buffer-kb "${BUF_KB:-262144}" -- \
  taskset -c "${CPU:-0}" stress-ng --nanosleep 2 --timeout "$secs" >/dev/null
"$cli" stats "$out" | sed -n '/^events:/p;/^lost:/p;/^model:/p;/^per CPU:/,/^$/p'
