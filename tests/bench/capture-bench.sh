#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# capture-bench.sh [SECONDS] [BUF_KB]
# Live capture throughput: `tickscope-cli capture` against the record-then-extract way
# (tests/capture-live.sh: a private instance, then `trace-cmd extract`) on the same workload with the
# same per-CPU buffer, in one run. Prints per run: events, events/s, lost events (as `stats` counts
# them, from the pages the kernel marked), the file size, and the capturing process's CPU time.
# Needs root; mounts tracefs when it is not and unmounts it again. Workload: stress-ng --nanosleep
# and --switch on every CPU (override with WORKLOAD="...").
set -euo pipefail
secs=${1:-4}; buf=${2:-4096}
here=$(cd "$(dirname "$0")" && pwd)
cli=${CLI:-$here/../../build/release/app/tickscope-cli}
[ -x "$cli" ] || cli=$here/../../build/dev/app/tickscope-cli
T=/sys/kernel/tracing
mounted=0
if [ ! -e $T/events ]; then mount -t tracefs nodev $T; mounted=1; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; [ $mounted = 1 ] && umount $T || true' EXIT
cpus=$(nproc)
WORKLOAD=${WORKLOAD:-"stress-ng --nanosleep $cpus --switch $cpus --timeout $((secs + 1)) -q"}
echo "machine: $(uname -r), $cpus CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "workload: $WORKLOAD; $secs s; buffer $buf KiB per CPU"
summary() { # label file seconds cputime
  local st ev lost
  st=$("$cli" stats "$2")
  ev=$(awk '/^events:/{n += $2} END {print n}' <<<"$st")      # summed over the file's buffers
  lost=$(awk '/^lost:/{n += $4} END {print n}' <<<"$st")
  printf '%-28s %10s events  %6.2f M/s  lost %9s  %6.1f MB  CPU %5.2f s\n' "$1" "$ev" \
    "$(bc -l <<<"$ev / $3 / 1000000")" "$lost" "$(bc -l <<<"$(stat -c %s "$2") / 1000000")" "$4"
}
for round in 1 2; do
  /usr/bin/time -f "%e %U %S" -o "$tmp/t1" "$cli" capture --duration "$secs" --buffer-kb "$buf" \
    --out "$tmp/a.dat" -- sh -c "$WORKLOAD" 2>/dev/null
  read -r _ u s < "$tmp/t1"
  summary "tickscope-cli capture" "$tmp/a.dat" "$secs" "$(bc -l <<<"$u + $s")"
  BUF_KB=$buf /usr/bin/time -f "%e %U %S" -o "$tmp/t2" "$here/../capture-live.sh" "$tmp/b.dat" "$secs" -- \
    sh -c "$WORKLOAD"
  read -r _ u s < "$tmp/t2"
  summary "record + trace-cmd extract" "$tmp/b.dat" "$secs" "$(bc -l <<<"$u + $s")"
  rm -f "$tmp"/*.dat
done
