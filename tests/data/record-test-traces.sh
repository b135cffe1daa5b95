#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# record-test-traces.sh [OUTDIR]
#
# Records the small real-kernel test traces kept in tests/data/ (host-*.dat, host-*.txt).
# OUTDIR defaults to the directory this script lives in. Needs root, trace-cmd >= 3.0 and
# cyclictest (Debian package rt-tests). See tests/data/README.md for what each file is.
#
# The capture logic is based on the project's capture script: events are enabled in a
# private tracefs instance (never the top-level buffer) and the data is written with
# `trace-cmd extract -B INSTANCE` (`trace-cmd record` does not work on every machine).
# The script always cleans up (tracing_on 0, rmdir of its instances, unmount of tracefs if
# it had to mount it), fails if one of its instances is left, and warns if the top-level
# tracefs state (instances, set_event, tracing_on, ...) differs at the end from the start.
#
# Files that must stay small (host-cyclic-v6.dat, host-lost.dat) are written with "slim"
# metadata: trace-cmd always stores the whole /proc/kallsyms (~5 MB here) and the format of
# every event on the system (~2 MB uncompressed), which alone would exceed the size budget
# for an uncompressed v6 file. For those files trace-cmd runs in a private mount namespace
# in which /proc/kallsyms is replaced by the symbols the recorded events refer to (plus the
# symbol after each, so that address ranges stay bounded) and tracefs' events/ directory
# shows only header_page, header_event, the ftrace formats and the enabled events' formats.
# The file is still written by trace-cmd itself; only the metadata is smaller.
set -euo pipefail

OUT=$(cd "${1:-$(dirname "$0")}" && pwd)
T=/sys/kernel/tracing
BASE=tickscope_rec_$$
. "$(dirname "$0")/../tick-events.sh"
DEFAULT_EVENTS=$TICK_EVENTS
SCHED_EVENTS="sched/sched_switch sched/sched_wakeup sched/sched_waking sched/sched_wakeup_new sched/sched_migrate_task"
TIMER_EVENTS="timer/hrtimer_start timer/hrtimer_cancel timer/hrtimer_expire_entry timer/hrtimer_expire_exit
 timer/timer_start timer/timer_expire_entry timer/timer_expire_exit timer/timer_cancel timer/tick_stop"
SLEEP_LOOP='while :; do sleep 0.02; done'
BUSY_LOOP='while :; do sleep 0.001; done'

[ "$(id -u)" -eq 0 ] || { echo "record-test-traces: must run as root" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "record-test-traces: trace-cmd missing" >&2; exit 1; }
command -v cyclictest >/dev/null || { echo "record-test-traces: cyclictest missing (apt-get install rt-tests)" >&2; exit 1; }

mounted_by_us=0
if [ ! -e $T/events ]; then mount -t tracefs nodev $T; mounted_by_us=1; fi

# Top-level tracefs state that must be identical before and after.
tracefs_state() {
  echo "instances: $(ls $T/instances | tr '\n' ' ')"
  echo "set_event: $(tr '\n' ' ' < $T/set_event)"
  for f in tracing_on current_tracer buffer_size_kb trace_clock trace_options saved_cmdlines_size; do
    echo "$f: $(tr '\n' ' ' < $T/$f)"
  done
}
STATE_BEFORE=$(tracefs_state)

WORK=$(mktemp -d /tmp/record-test-traces.XXXXXX)
INSTANCES=()   # every instance this script may create
WORKLOAD_PID=

stop_workload() {
  if [ -n "$WORKLOAD_PID" ]; then
    kill -TERM -- "-$WORKLOAD_PID" 2>/dev/null || true
    wait "$WORKLOAD_PID" 2>/dev/null || true
    WORKLOAD_PID=
  fi
}
cleanup() {
  stop_workload
  for n in "${INSTANCES[@]}"; do
    if [ -d $T/instances/$n ]; then echo 0 > $T/instances/$n/tracing_on; rmdir $T/instances/$n; fi
  done
  rm -rf "$WORK"
  # unmount only if we mounted it and nobody else has an instance in it
  if [ $mounted_by_us -eq 1 ] && [ -z "$(ls $T/instances)" ]; then umount $T 2>/dev/null || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# new_instance NAME BUF_KB EVENTS... : create a private instance with those events enabled
new_instance() {
  local name=$1 kb=$2; shift 2
  local I=$T/instances/$name
  INSTANCES+=("$name")
  mkdir $I
  echo 0 > $I/tracing_on   # a new instance starts with tracing on
  echo "$kb" > $I/buffer_size_kb
  local e
  for e in $*; do
    [ -e $I/events/$e/enable ] && echo 1 > $I/events/$e/enable
  done
  return 0
}

# run_traced SECONDS WORKLOAD INSTANCE... : tracing on in the instances while WORKLOAD runs.
# WARMUP (seconds, default 0): let the workload start up before tracing is switched on.
run_traced() {
  local secs=$1 workload=$2 n; shift 2
  # own session/process group, so that the whole workload can be stopped at once
  setsid bash -c "$workload" </dev/null >/dev/null 2>&1 &
  WORKLOAD_PID=$!
  sleep "${WARMUP:-0}"
  for n in "$@"; do echo 1 > $T/instances/$n/tracing_on; done
  sleep "$secs"
  for n in "$@"; do echo 0 > $T/instances/$n/tracing_on; done
  stop_workload
}

# extract OUT.dat INSTANCE... : plain `trace-cmd extract` (removes the instances)
extract() {
  local out=$1 n args=(); shift
  for n in "$@"; do args+=(-B "$n"); done
  trace-cmd extract "${args[@]}" -o "$out" > "$WORK/extract.log" 2>&1 ||
    { cat "$WORK/extract.log" >&2; return 1; }
}

# extract_slim OUT.dat INSTANCE : `trace-cmd extract` with slim metadata (see header)
extract_slim() {
  local out=$1 inst=$2 I=$T/instances/$2 S=$WORK/slim
  rm -rf "$S"; mkdir -p "$S/events"
  # symbols named in the recorded events (read without consuming the buffer)
  grep -oE '[A-Za-z_][A-Za-z0-9_.]*' $I/trace | LC_ALL=C sort -u > "$S/tokens"
  cat /proc/kallsyms | LC_ALL=C sort > "$S/kallsyms.sorted"   # sort reading /proc directly is very slow
  awk 'NR == FNR { want[$1] = 1; next }
       { line[FNR] = $0; if ($3 in want) { keep[FNR] = 1; keep[FNR + 1] = 1 } }
       END { for (i = 1; i <= FNR; i++) if (i in keep) print line[i] }' \
      "$S/tokens" "$S/kallsyms.sorted" > "$S/kallsyms"
  cp $T/events/header_page $T/events/header_event "$S/events/"
  local d e
  for d in $T/events/ftrace/*/; do
    mkdir -p "$S/events/ftrace/$(basename $d)"
    cp $d/format "$S/events/ftrace/$(basename $d)/"
  done
  for e in $(tr ':' '/' < $I/set_event); do
    mkdir -p "$S/events/$e"; cp $T/events/$e/format "$S/events/$e/"
  done
  unshare --mount --propagation private bash -c '
    set -e
    mount --bind "$1/kallsyms" /proc/kallsyms
    mount --bind "$1/events" "$2/events"
    trace-cmd extract -B "$3" -o "$4"' _ "$S" $T "$inst" "$out" > "$WORK/extract.log" 2>&1 ||
    { cat "$WORK/extract.log" >&2; return 1; }
}

# number of records `trace-cmd report` prints (no cpus= header, no EVENTS DROPPED lines)
count_events() {
  # a dropped-events line looks like "INSTANCE: CPU:1 [8047 EVENTS DROPPED]"
  trace-cmd report "$1" 2>/dev/null | grep -vE '^cpus=|CPU:[0-9]+ \[[0-9]* ?EVENTS DROPPED\]$' | grep -c . || true
}

# fit FILE MAX_BYTES SECONDS... : run capture_FILE with each duration in turn until FILE
# is smaller than MAX_BYTES. Other activity on the machine makes the event rate (and so
# the size) vary from run to run.
fit() {
  local f=$1 max=$2 secs size; shift 2
  for secs in "$@"; do
    "capture_$f" "$secs"
    size=$(stat -c %s "$OUT/$f")
    [ "$size" -lt "$max" ] && { echo "$f: ${secs} s"; return 0; }
    echo "record-test-traces: $f: $size bytes after $secs s (limit $max), retrying" >&2
  done
  echo "record-test-traces: WARNING: $f stays over $max bytes" >&2
}

# a. host-sleep.dat: default event set, ~1 s of a `sleep 0.02` loop, small buffer
capture_host-sleep.dat() {
  new_instance $BASE 2048 $DEFAULT_EVENTS
  run_traced "$1" "$SLEEP_LOOP" $BASE
  extract "$OUT/host-sleep.dat" $BASE
}

# b. host-cyclic-v6.dat: default event set under cyclictest (traced after 0.5 s start-up),
#    file format v6, uncompressed. `trace-cmd extract` has no --file-version
#    ("--file_version has no effect with the command extract"), so extract and convert.
capture_host-cyclic-v6.dat() {
  new_instance $BASE 4096 $DEFAULT_EVENTS
  WARMUP=0.5 run_traced "$1" "exec cyclictest -t2 -p99 -i1000 -q" $BASE
  extract_slim "$WORK/cyclic-v7.dat" $BASE
  trace-cmd convert -i "$WORK/cyclic-v7.dat" -o "$OUT/host-cyclic-v6.dat" --file-version 6 \
    > "$WORK/convert.log" 2>&1 || { cat "$WORK/convert.log" >&2; return 1; }
}

# c. host-instances.dat: two instances recorded at the same time into one file
#    (`trace-cmd extract -B A -B B`), sched events in one, timer events in the other.
capture_host-instances.dat() {
  new_instance ${BASE}_sched 1024 $SCHED_EVENTS
  new_instance ${BASE}_timer 1024 $TIMER_EVENTS
  run_traced "$1" "$SLEEP_LOOP" ${BASE}_sched ${BASE}_timer
  extract "$OUT/host-instances.dat" ${BASE}_sched ${BASE}_timer
}

# d. host-trace.txt / host-trace-pipe.txt: tracefs text output of the default event set
capture_host-trace.txt() {
  new_instance $BASE 2048 $DEFAULT_EVENTS
  run_traced "$1" "$SLEEP_LOOP" $BASE
  cat $T/instances/$BASE/trace > "$OUT/host-trace.txt"
  rmdir $T/instances/$BASE
}
# trace_pipe is read only after tracing stopped: a reader running during the capture
# would trace its own read()/write() syscalls and feed back on itself.
capture_host-trace-pipe.txt() {
  new_instance $BASE 2048 $DEFAULT_EVENTS
  run_traced "$1" "$SLEEP_LOOP" $BASE
  # trace_pipe consumes the buffer and then blocks; timeout ends the read (status 124)
  timeout 2 cat $T/instances/$BASE/trace_pipe > "$OUT/host-trace-pipe.txt" || [ $? -eq 124 ]
  rmdir $T/instances/$BASE
}

# e. host-lost.dat: 16 KB per-CPU buffer and a busy load -> ring-buffer overrun, so that
#    `trace-cmd report` prints "CPU:N [NNN EVENTS DROPPED]"
capture_host-lost.dat() {
  new_instance $BASE 16 $DEFAULT_EVENTS
  run_traced "$1" "$BUSY_LOOP" $BASE
  extract_slim "$OUT/host-lost.dat" $BASE
}

echo "kernel $(uname -r), $(trace-cmd --version 2>&1 | grep -m1 version)"
fit host-sleep.dat      1500000 1 0.8 0.6 0.4
fit host-cyclic-v6.dat  2000000 1 0.8 0.6 0.4 0.3
fit host-instances.dat  1500000 0.5 0.3 0.2
fit host-trace.txt      1000000 0.3 0.2 0.15 0.1
fit host-trace-pipe.txt 1000000 0.3 0.2 0.15 0.1
fit host-lost.dat       1000000 0.5

# None of our instances may be left; other differences are reported (another program
# may be using tracefs at the same time, e.g. with its own instance).
for n in "${INSTANCES[@]}"; do
  [ ! -d $T/instances/$n ] || { echo "record-test-traces: instance $n left behind" >&2; exit 1; }
done
STATE_AFTER=$(tracefs_state)
if [ "$STATE_BEFORE" != "$STATE_AFTER" ]; then
  echo "record-test-traces: WARNING: top-level tracefs state differs from the start:" >&2
  diff <(echo "$STATE_BEFORE") <(echo "$STATE_AFTER") >&2 || true
fi

printf '%-22s %10s %9s %8s\n' file bytes events dropped
for f in host-sleep.dat host-cyclic-v6.dat host-instances.dat host-lost.dat; do
  printf '%-22s %10s %9s %8s\n' $f $(stat -c %s "$OUT/$f") $(count_events "$OUT/$f") \
    $(trace-cmd report "$OUT/$f" 2>/dev/null | grep -cE 'CPU:[0-9]+ \[.*EVENTS DROPPED\]$' || true)
done
for f in host-trace.txt host-trace-pipe.txt; do
  printf '%-22s %10s %9s\n' $f $(stat -c %s "$OUT/$f") $(grep -vc '^#' "$OUT/$f" || true)
done
