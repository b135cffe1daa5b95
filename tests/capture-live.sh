#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# capture-live.sh OUT.dat SECONDS -- WORKLOAD...
# Records this machine's kernel into a private tracefs instance and writes OUT.dat with
# `trace-cmd extract` (trace-cmd record needs /proc/sys/kernel/ftrace_enabled, which may be locked).
# Needs root and tracefs. Leaves tracefs as it found it (the instance is removed on any exit).
set -euo pipefail
out=$1; secs=$2; shift 3
T=/sys/kernel/tracing
mounted_here=0
if [ ! -e $T/events ]; then mount -t tracefs nodev $T; mounted_here=1; fi
inst=tickscope_test_$$
I=$T/instances/$inst
mkdir $I
cleanup() {
  if [ -d $I ]; then echo 0 > $I/tracing_on; rmdir $I; fi
  if [ $mounted_here = 1 ]; then umount $T || true; fi
}
trap cleanup EXIT
echo ${BUF_KB:-4096} > $I/buffer_size_kb
. "$(dirname "$0")/tick-events.sh"
for e in ${EVENTS:-$TICK_EVENTS}; do
  [ -e $I/events/$e/enable ] && echo 1 > $I/events/$e/enable
done
echo 1 > $I/tracing_on
( "$@" ) >/dev/null 2>&1 &
wp=$!
sleep "$secs"
echo 0 > $I/tracing_on
kill $wp 2>/dev/null || true; wait $wp 2>/dev/null || true
trace-cmd extract -B $inst -o "$out" >/dev/null 2>&1
