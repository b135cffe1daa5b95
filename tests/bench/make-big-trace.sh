#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# make-big-trace.sh EVENTS OUT.dat [ticks]
# A simulated 128-CPU server as a trace.dat of at least EVENTS events (e.g. 100000000), for the scale
# benchmarks (load_bench, paint_bench, open-time.sh, report):
#   default  server128.json beside this script: housekeeping CPUs 0-7 with stress threads, services, NIC
#            and NVMe interrupts and kernel timers; nohz_full CPUs 8-79 each running a busy user loop, 80-95
#            a user loop that blocks every 100 ms; 96-127 isolated and idle (idle=halt). About 1.36 M events
#            per simulated second: switches, wakeups, syscalls, interrupts, hrtimers, idle, ticks.
#            (server128.py writes the JSON: `python3 server128.py 90 > server128.json`; its interrupt
#            sources cover 90 simulated seconds, about 120 M events.)
#   ticks    the input of the figures in docs/BENCHMARKS.md before 2026-12-06 afternoon: seed000-nohzfull-poll
#            widened to 128 CPUs (idle=poll, almost only periodic ticks, about 640 k events per second).
# The duration is chosen from the rate, then the real count is printed. Needs about 22 bytes of memory per
# event while simulating and writes 27-32 bytes per event to disk. Not committed: made when needed.
set -euo pipefail
events=${1:?EVENTS}; out=${2:?OUT.dat}; kind=${3:-server}
here=$(cd "$(dirname "$0")" && pwd)
cli=${CLI:-$here/../../build/release/app/tickscope-cli}
if [ "$kind" = ticks ]; then
  ms=$(( (events / 640000 + 1) * 1000 ))
  # above the simulator's default limit of 50 M estimated events (it estimates ~0.9 M/s here)
  TICKSCOPE_SIM_MAX_EVENTS=$(( ms * 1000 )) "$cli" simulate seed000-nohzfull-poll --set cpus=128 \
    --set nohz_full=8-127 --set duration_ms="$ms" --whole --out "$out" > /dev/null
else
  ms=$(( (events / 1360000 + 1) * 1000 ))
  [ "$ms" -le 90000 ] || { echo "make-big-trace.sh: server128.json's interrupts cover 90 s (about 120 M events)" >&2; exit 2; }
  TICKSCOPE_SIM_MAX_EVENTS=$(( ms * 2000 )) "$cli" simulate "$here/server128.json" --set duration_ms="$ms" \
    --whole --out "$out" > /dev/null
fi
"$cli" stats "$out" | grep -E '^(events|span|model):'
ls -la "$out"
