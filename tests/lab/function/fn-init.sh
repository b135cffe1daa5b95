#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# /init of the function-tracer fixture initramfs (busybox sh).
# Records the kernel's function tracer (filtered to hrtimer_*) in the top-level buffer, once per
# trace_options form, writes /tmp/fn-<form>.txt, plus a trace-cmd record, and copies everything
# out through /dev/vda as a tar (as tests/lab/init.sh does).
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tracefs tracefs /sys/kernel/tracing
mount -t tmpfs tmpfs /tmp
R=/tmp/result; mkdir -p $R
log() { echo "LAB: $*"; echo "$*" >> $R/guest.log; }
for m in virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci virtio_blk; do
    insmod /lib/modules/$m.ko 2>>$R/guest.log
done
T=/sys/kernel/tracing
cd $T
log "uname=$(uname -a)"
log "cmdline=$(cat /proc/cmdline)"
log "online=$(cat /sys/devices/system/cpu/online) clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
log "available_tracers=$(cat available_tracers)"
log "trace_clock=$(cat trace_clock) buffer_size_kb=$(cat buffer_size_kb) current_tracer=$(cat current_tracer)"
for f in options/*; do echo "${f#options/} $(cat $f)"; done > $R/options-default.txt
restore_defaults() {
    while read o v; do
        [ "$(cat $T/options/$o)" = "$v" ] || echo $v > $T/options/$o
    done < $R/options-default.txt
}
# x CMD: log CMD to the form's command list, then run it
x() { echo "$*" >> $R/cmds-$FORM.txt; eval "$*"; }

MAXB=150000
# record FORM CMD... : CMDs (options / events) are run before the tracer is started
record() {
    FORM=$1; shift
    for FILTER in 'hrtimer_*' 'hrtimer_start_range_ns hrtimer_interrupt hrtimer_wakeup' 'hrtimer_interrupt'; do
        : > $R/cmds-$FORM.txt
        x "cd /sys/kernel/tracing"
        x "echo 0 > tracing_on"
        x "echo > trace"
        for c in "$@"; do x "$c"; done
        x "echo '$FILTER' > set_ftrace_filter"
        x "echo function > current_tracer"
        x "echo 1 > tracing_on"
        x "sleep 0.01"
        x "sleep 0.01"
        x "echo 0 > tracing_on"
        x "cat trace > /tmp/fn-$FORM.txt"
        # back to defaults (not part of the recording)
        echo nop > current_tracer; echo > set_ftrace_filter; echo 0 > events/enable
        restore_defaults; echo 1 > tracing_on
        sz=$(wc -c < /tmp/fn-$FORM.txt)
        n=$(grep -vc '^#' /tmp/fn-$FORM.txt)
        log "form=$FORM filter='$FILTER' bytes=$sz noncomment_lines=$n"
        [ $sz -le $MAXB ] && break
        log "form=$FORM too big, narrowing the filter"
    done
    cp /tmp/fn-$FORM.txt $R/
}

sleep 1   # let boot-time activity settle
record default
record noparent    "echo 0 > options/print-parent"
record symoffset   "echo 1 > options/sym-offset"
record symaddr     "echo 1 > options/sym-addr"
record symoffset-symaddr "echo 1 > options/sym-offset" "echo 1 > options/sym-addr"
record latency     "echo 1 > options/latency-format"
record mixed-events "echo 1 > events/timer/hrtimer_expire_entry/enable" "echo 1 > events/sched/sched_switch/enable"

# trace-cmd record of the same tracer
FORM=tracecmd
: > $R/cmds-$FORM.txt
x "cd /tmp"
x "trace-cmd record -p function -l 'hrtimer_*' -o /tmp/fn.dat sleep 0.05 > $R/trace-cmd-record.log 2>&1"
log "trace-cmd record rc=$? bytes=$(wc -c < /tmp/fn.dat 2>/dev/null)"
cp /tmp/fn.dat $R/ 2>/dev/null
cd $T
trace-cmd reset > /dev/null 2>&1
dmesg > $R/dmesg.txt
cat /proc/cmdline > $R/cmdline.txt
uname -a > $R/uname.txt
log "done; uptime=$(cut -d' ' -f1 /proc/uptime)"
if [ -b /dev/vda ]; then
    tar -C /tmp -cf /dev/vda result && sync && echo "LAB: wrote result tar to /dev/vda"
else
    echo "LAB: no /dev/vda, dumping base64 on console"
    tar -C /tmp -cf - result | base64 | sed 's/^/B64:/'
fi
echo "LAB: poweroff"
poweroff -f
