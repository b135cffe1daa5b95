#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# make-many-cpus.sh DIR
# Inputs for the many-CPU checks (docs/BENCHMARKS.md): what a CPU costs when there are thousands of them.
#  - DIR/text-8192.txt: ftrace text, 8192 CPUs with 25 sched_switch events each (200,000 events, 26 MB):
#    the per-CPU fixed cost of the model and of the analysis, and anything quadratic in the CPUs.
#  - DIR/text-1024.txt: the same with 1024 CPUs, 20 events each.
#  - DIR/sim1024-3s.dat: the 128-CPU benchmark's server widened to 1024 CPUs (8 housekeeping, 1016
#    nohz_full running user loops, 64 stress threads), 3 simulated seconds: ~15.4 M events, 420 MB.
# Not committed: made when needed.
set -euo pipefail
dir=${1:?DIR}
here=$(cd "$(dirname "$0")" && pwd)
cli=${CLI:-$here/../../build/release/app/tickscope-cli}
mkdir -p "$dir"
text() { # CPUS EVENTS OUT
  awk -v cpus="$1" -v n="$2" 'BEGIN {
    print "# tracer: nop"; print "#"
    for (i = 0; i < n; i++)
      printf " a-1 [%03d] d..2. %.6f: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n", i % cpus, 1000 + i * 1e-6
  }' > "$3"
}
text 8192 200000 "$dir/text-8192.txt"
text 1024 20000 "$dir/text-1024.txt"
TICKSCOPE_SIM_MAX_EVENTS=100000000 "$cli" simulate seed000-nohzfull-poll --set cpus=1024 --set nohz_full=8-1023 \
  --set stress_threads=64 --set duration_ms=3000 --whole --out "$dir/sim1024-3s.dat" > /dev/null
"$cli" stats "$dir/sim1024-3s.dat" | grep -E '^(cpus|events|span):'
ls -la "$dir"
