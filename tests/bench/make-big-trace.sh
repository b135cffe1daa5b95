#!/usr/bin/env bash
# make-big-trace.sh EVENTS OUT.dat
# A simulated 128-CPU server as a trace.dat of at least EVENTS events (e.g. 100000000), for the scale
# benchmarks (load_bench, paint_bench, open-time.sh): 8 housekeeping CPUs, nohz_full CPUs 8-127 running
# user loops, 64 stress threads, idle=poll (seed000-nohzfull-poll's kernel, widened). The duration is
# chosen from the rate this configuration simulates (about 640 k events per simulated second), then the
# real count is printed. Needs about 22 bytes of memory per event while simulating and writes ~27 bytes
# per event to disk. Not committed: made when needed.
set -euo pipefail
events=${1:?EVENTS}; out=${2:?OUT.dat}
here=$(cd "$(dirname "$0")" && pwd)
cli=${CLI:-$here/../../build/release/app/tickscope-cli}
ms=$(( (events / 640000 + 1) * 1000 ))
# above the simulator's default limit of 50 M estimated events (it estimates ~0.9 M/s here)
TICKSCOPE_SIM_MAX_EVENTS=$(( ms * 1000 )) "$cli" simulate seed000-nohzfull-poll --set cpus=128 --set nohz_full=8-127 --set stress_threads=64 \
  --set duration_ms="$ms" --whole --out "$out" > /dev/null
"$cli" stats "$out" | grep -E '^(events|span|model):'
ls -la "$out"
