#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Open-time benchmark (issue 5, item 6): the time from process start until the window is idle with the
# trace drawn, for `tickscope FILE` and `kernelshark FILE`, measured the same way in one run on one file.
#
# usage: tests/bench/open-time.sh [FILE] [TICKSCOPE]
#   FILE       default /work/bigtrace/large.dat
#   TICKSCOPE  the GUI binary, default build/release/app/tickscope
#
# Method (both programs, in a private Xvfb 1920x1080 display, the same loop):
#   - the script takes the time, starts the program, and samples the process's CPU time (utime + stime
#     of all its threads, /proc/PID/stat) every 20 ms with bash builtins only (no process is started
#     per sample: on 2 cores a forking poller slows the program it measures);
#   - every 100 ms, until it is found, `xdotool search` looks for the program's main window (mapped);
#   - the window is "idle with the trace drawn" once its main window is mapped and the CPU time has not
#     grown for QUIET seconds (default 2); the open time is the moment of the last growth;
#   - KernelShark run as root opens a modal "running as root" warning in its main window's constructor,
#     before it reads the file; the same 100 ms search finds that dialog, dismisses it with Return, and
#     the time it was up is not counted: from the program's last CPU use before the dialog was found
#     (it waits on it, idle) to its dismissal.
#   tickscope is also run with its hidden --quit-when-drawn flag: once the trace is shown and the event
#   loop is about to block, it paints and prints the seconds since its process started (its own view).
# RUNS=N rounds (default 3); TICKSCOPE_ONLY=1 measures tickscope only (for quick iterations; the ratio needs both).
# Needs: Xvfb, xdotool, kernelshark (scripts/install-deps.sh --bench installs them).
set -euo pipefail
FILE=${1:-/work/bigtrace/large.dat}
TICKSCOPE=${2:-build/release/app/tickscope}
QUIET=${QUIET:-2}
RUNS=${RUNS:-3}
[ -r "$FILE" ] || { echo "open-time: cannot read $FILE" >&2; exit 1; }
[ -x "$TICKSCOPE" ] || { echo "open-time: no tickscope binary at $TICKSCOPE (build first)" >&2; exit 1; }
for tool in Xvfb xdotool kernelshark bc; do
  command -v "$tool" >/dev/null || { echo "open-time: $tool not found (scripts/install-deps.sh --bench)" >&2; exit 1; }
done

# A private X display; -displayfd picks a free one.
fifo=$(mktemp -u); mkfifo "$fifo"
Xvfb -displayfd 3 -screen 0 1920x1080x24 -nolisten tcp 3>"$fifo" 2>/dev/null &
xvfb=$!
read -r disp <"$fifo"; rm -f "$fifo"
export DISPLAY=":$disp"
child=
cleanup() { [ -n "$child" ] && kill "$child" 2>/dev/null; kill "$xvfb" 2>/dev/null; wait 2>/dev/null || true; }
trap cleanup EXIT

# A sleep without a process: wait on a pipe nobody writes to.
exec {nap}<> <(:)
# The id of a mapped window of process $1 whose name matches $2 (an extended regex), or nothing.
# (`xdotool search --name` misses KernelShark's dialog, so the names are matched here.)
window_of() {
  local id
  for id in $(xdotool search --all --onlyvisible --pid "$1" 2>/dev/null); do
    [[ "$(xdotool getwindowname "$id" 2>/dev/null)" =~ $2 ]] && { echo "$id"; return; }
  done
}

# measure NAME MAIN_TITLE_REGEX DIALOG_TITLE_REGEX CMD... -> prints seconds
measure() {
  local name=$1 main=$2 dialog=$3; shift 3
  local t0 t last cpu prev=-1 dlg_up=0 paused=0 mapped=0 n=0 s d
  local -a f
  t0=${EPOCHREALTIME/./}
  "$@" >/dev/null 2>&1 &
  child=$!
  last=$t0
  while :; do
    read -r -t 0.02 -u "$nap" _ || true
    t=${EPOCHREALTIME/./}
    if ! { read -r s <"/proc/$child/stat"; } 2>/dev/null; then
      local rc=0
      wait "$child" 2>/dev/null || rc=$?
      child=
      echo "open-time: $name exited early (exit status $rc)" >&2
      return 1
    fi
    s=${s##*) }
    f=($s)
    cpu=$((f[11] + f[12]))
    if [ "$cpu" != "$prev" ]; then prev=$cpu; last=$t; fi
    n=$((n + 1))
    [ $((n % 5)) = 0 ] || [ "$dlg_up" != 0 ] || continue # windows: every 100 ms
    if [ -n "$dialog" ]; then
      d=$(window_of "$child" "$dialog")
      if [ -n "$d" ]; then
        [ "$dlg_up" = 0 ] && dlg_up=$last # idle since its last CPU use: the dialog was up from then
        xdotool key --window "$d" Return 2>/dev/null || true
        if [ $((t - dlg_up)) -ge 20000000 ]; then echo "open-time: cannot dismiss $name's dialog" >&2; return 1; fi
        continue
      elif [ "$dlg_up" != 0 ]; then
        paused=$((paused + t - dlg_up)); dlg_up=0; last=$t
      fi
    fi
    [ "$mapped" = 0 ] && [ -n "$(window_of "$child" "$main")" ] && mapped=1
    if [ "$mapped" = 1 ] && [ $((t - last)) -ge $((QUIET * 1000000)) ]; then break; fi
    if [ $((t - t0)) -ge 600000000 ]; then echo "open-time: $name not idle after 600 s" >&2; return 1; fi
  done
  kill "$child" 2>/dev/null; wait "$child" 2>/dev/null || true; child=
  [ "$paused" != 0 ] && echo "  ($name: dialog up for $(echo "scale=3; $paused / 1000000" | bc) s, not counted)" >&2
  echo "scale=3; ($last - $t0 - $paused) / 1000000" | bc
}

events=$("$(dirname "$TICKSCOPE")/tickscope-cli" stats "$FILE" 2>/dev/null | awk '/^events:/{print $2}') || true
echo "file: $FILE (${events:-?} events, $(du -h "$FILE" | cut -f1)), display $DISPLAY, idle = no CPU time for ${QUIET} s"
# RUNS rounds (default 3), tickscope then KernelShark in each: a machine that speeds up or slows down
# during the run moves both. The ratio is of the medians.
# measure, once more when the program exits before its window is idle (seen once: KernelShark on the first
# round, the next round fine); a second failure ends the run.
measure_again() {
  local out
  if out=$(measure "$@"); then echo "$out"; return 0; fi
  echo "open-time: measuring $1 again" >&2
  measure "$@"
}
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
self=() ts=() ks=()
for ((r = 1; r <= RUNS; r++)); do
  self+=("$("$TICKSCOPE" --quit-when-drawn "$FILE" 2>/dev/null | awk '/drawn and idle/{print $4}')")
  ts+=("$(measure_again tickscope "^tickscope" "" "$TICKSCOPE" "$FILE")")
  if [ -z "${TICKSCOPE_ONLY:-}" ]; then
    ks+=("$(measure_again kernelshark "^Kernel Shark" "^kernelshark$" kernelshark "$FILE")")
  fi
done
echo "tickscope   (own --quit-when-drawn): ${self[*]} s; median $(median "${self[@]}") s"
echo "tickscope   (CPU idle method):       ${ts[*]} s; median $(median "${ts[@]}") s"
[ -n "${TICKSCOPE_ONLY:-}" ] && exit 0
echo "kernelshark (CPU idle method):       ${ks[*]} s; median $(median "${ks[@]}") s  (KernelShark $(dpkg-query -W -f='${Version}' kernelshark 2>/dev/null || echo "?"))"
echo "ratio kernelshark / tickscope:       $(echo "scale=1; $(median "${ks[@]}") / $(median "${ts[@]}")" | bc)x (medians)"
