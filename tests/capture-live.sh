#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# capture-live.sh OUT.dat SECONDS -- WORKLOAD...
# Records this machine's kernel into a private tracefs instance and writes OUT.dat with
# `trace-cmd extract` (trace-cmd record needs /proc/sys/kernel/ftrace_enabled, which may be locked).
# Needs root and tracefs. Leaves tracefs as it found it (the instance is removed on any exit).
set -euo pipefail
out=$1; secs=$2; shift 3
T=/sys/kernel/tracing
inst=tickscope_test_$$
I=$T/instances/$inst
mounted_here=0 wp=
# Everything undone on any exit (set -e included), in reverse: the workload stopped, the instance
# removed, then the mount made here undone. The trap is in place before the first change.
cleanup() {
  if [ -n "$wp" ]; then kill $wp 2>/dev/null || true; wait $wp 2>/dev/null || true; fi
  if [ -d $I ]; then echo 0 > $I/tracing_on || true; rmdir $I || true; fi
  if [ $mounted_here = 1 ]; then umount $T || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ ! -e $T/events ]; then mount -t tracefs nodev $T; mounted_here=1; fi
mkdir $I
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
kill $wp 2>/dev/null || true; wait $wp 2>/dev/null || true; wp=
trace-cmd extract -B $inst -o "$out" >/dev/null 2>&1
