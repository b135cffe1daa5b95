#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# record-large-trace.sh OUT.dat
#
# Records the large real trace used by the benchmarks (not kept in the repository; the
# usual place is /work/bigtrace/large.dat). Needs root, trace-cmd >= 3.0, stress-ng and
# cyclictest (Debian packages stress-ng, rt-tests). Prints the number of records
# `trace-cmd report` prints for the file.
#
# Environment:
#   SECS      traced seconds at most (default 12); tracing stops earlier once a per-CPU
#             buffer is 95% full, which with this load on a 2-CPU machine is after ~6-8 s
#   BUF_KB    per-CPU ring buffer size (default 131072)
#   PIN       1 (default) or 0, see the workload below
#   NANOSLEEP stress-ng --nanosleep workers with PIN=0 (default 2)
#   V6=path   also write an uncompressed file-format v6 copy there
#             (`trace-cmd convert --file-version 6`)
#
# The capture logic is based on the project's capture script: the default tick-analysis
# event set is enabled in a private tracefs instance and written with
# `trace-cmd extract -B INSTANCE` (trace-cmd v7 file, zstd compressed). The script
# always cleans up (tracing_on 0, rmdir of its instance, unmount of tracefs if it had to
# mount it) and checks that the top-level tracefs state is unchanged at the end. One change it
# cannot avoid: `trace-cmd extract` expands the top-level ring buffer when it is still at its
# boot size (buffer_size_kb read "7 (expanded: 1410)" before and "1410" after on the
# benchmark machine), which only a reboot undoes; the script then warns. tickscope's own
# capture (record-busy-cpu.sh) writes in its own instance only.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 OUT.dat" >&2; exit 2; }
out=$1
SECS=${SECS:-12}
BUF_KB=${BUF_KB:-131072}
NANOSLEEP=${NANOSLEEP:-2}
T=/sys/kernel/tracing
. "$(dirname "$0")/../tick-events.sh"
EVENTS=$TICK_EVENTS

[ "$(id -u)" -eq 0 ] || { echo "record-large-trace: must run as root" >&2; exit 1; }
for c in trace-cmd stress-ng cyclictest; do
  command -v $c >/dev/null || { echo "record-large-trace: $c missing" >&2; exit 1; }
done

mounted_by_us=0
if [ ! -e $T/events ]; then mount -t tracefs nodev $T; mounted_by_us=1; fi
tracefs_state() {
  echo "instances: $(ls $T/instances | tr '\n' ' ')"
  echo "set_event: $(tr '\n' ' ' < $T/set_event)"
  for f in tracing_on current_tracer buffer_size_kb trace_clock trace_options; do
    echo "$f: $(tr '\n' ' ' < $T/$f)"
  done
}
STATE_BEFORE=$(tracefs_state)

inst=tickscope_bench_$$
I=$T/instances/$inst
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
  if [ -d $I ]; then echo 0 > $I/tracing_on; rmdir $I; fi
  # unmount only if we mounted it and nobody else has an instance in it
  if [ $mounted_by_us -eq 1 ] && [ -z "$(ls $T/instances)" ]; then umount $T 2>/dev/null || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir $I
echo 0 > $I/tracing_on           # a new instance starts with tracing on
echo "$BUF_KB" > $I/buffer_size_kb
for e in $EVENTS; do
  [ -e $I/events/$e/enable ] && echo 1 > $I/events/$e/enable
done

# Workloads, each in its own session so that it can be stopped as a whole.
# PIN=1 (default): the same load pinned evenly, one stress-ng nanosleep worker and one
# cyclictest thread per CPU, so that the per-CPU buffers fill at the same rate (unpinned,
# one CPU often got 2-3x the events of the other and filled its buffer long before).
# PIN=0: exactly `stress-ng --nanosleep $NANOSLEEP` and `cyclictest -t2 -p99 -i200 -q`.
ncpu=$(nproc)
if [ "${PIN:-1}" -eq 1 ]; then
  for ((c = 0; c < ncpu; c++)); do
    setsid stress-ng --nanosleep 1 --taskset $c </dev/null >/dev/null 2>&1 & pids+=($!)
  done
  setsid cyclictest -t$ncpu -a -p99 -i200 -q </dev/null >/dev/null 2>&1 & pids+=($!)
else
  setsid stress-ng --nanosleep "$NANOSLEEP" </dev/null >/dev/null 2>&1 & pids+=($!)
  setsid cyclictest -t2 -p99 -i200 -q </dev/null >/dev/null 2>&1 & pids+=($!)
fi
sleep 1                            # start-up
# Trace for SECS seconds, but stop early once a per-CPU buffer is 95% full: beyond that
# the ring buffer overwrites its oldest pages and the file starts with EVENTS DROPPED.
limit=$((BUF_KB * 1024 / 100 * 95))
echo 1 > $I/tracing_on
start=$(date +%s.%N)
reason="$SECS s elapsed"
while :; do
  sleep 0.1
  now=$(date +%s.%N)
  awk -v a="$start" -v b="$now" -v s="$SECS" 'BEGIN { exit !(b - a >= s) }' && break
  full=$(awk -v l=$limit '/^bytes:/ && $2 >= l { f = 1 } END { print f + 0 }' $I/per_cpu/cpu*/stats)
  [ "$full" -eq 1 ] && { reason="a per-CPU buffer reached 95% of $BUF_KB KB"; break; }
done
echo 0 > $I/tracing_on
echo "traced $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s ($reason)"
for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done
for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
pids=()

log=$(mktemp)
trace-cmd extract -B $inst -o "$out" > "$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; exit 1; }
if [ -n "${V6:-}" ]; then
  trace-cmd convert -i "$out" -o "$V6" --file-version 6 > "$log" 2>&1 ||
    { cat "$log" >&2; rm -f "$log"; exit 1; }
fi
rm -f "$log"

# Our instance is gone (extract removes it, cleanup too); other differences are reported
# (another program may be using tracefs at the same time, e.g. with its own instance).
[ ! -d $I ] || { echo "record-large-trace: instance $inst left behind" >&2; exit 1; }
STATE_AFTER=$(tracefs_state)
if [ "$STATE_BEFORE" != "$STATE_AFTER" ]; then
  echo "record-large-trace: WARNING: top-level tracefs state differs from the start:" >&2
  diff <(echo "$STATE_BEFORE") <(echo "$STATE_AFTER") >&2 || true
fi

ls -l "$out" ${V6:+"$V6"}
# records = lines of `trace-cmd report` minus the cpus= header and EVENTS DROPPED lines
trace-cmd report "$out" 2>/dev/null |
  awk '/^cpus=/ { next } /CPU:[0-9]+ \[[0-9]* ?EVENTS DROPPED\]$/ { dropped++; next } NF { n++ }
       END { printf "events: %d\ndropped-events lines: %d\n", n, dropped }'
