#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# /init of the arm64 lab initramfs (Debian's static busybox only, no compiler, no trace-cmd).
# Records the tracefs `trace` file around a shell workload on CPU 1 and writes it, with notes,
# as a tar to the virtio disk /dev/vda (the console gets a summary and the trace's md5sum).
# Kernel command line parameters (unknown key=value params reach init as environment):
#   lab_n      iterations of the busy shell loop on CPU 1   (default 60000)
#   lab_sleeps number of 100 ms usleeps on CPU 1            (default 5)
#   lab_buf    ftrace buffer per CPU, KB                     (default 4096)
#   lab_name   label                                         (default run)
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tracefs tracefs /sys/kernel/tracing
mount -t tmpfs tmpfs /tmp
taskset -p 1 $$ >/dev/null 2>&1      # init and everything it starts stay on CPU 0

N=${lab_n:-60000}; SLEEPS=${lab_sleeps:-5}; BUF=${lab_buf:-4096}; NAME=${lab_name:-run}
T=/sys/kernel/tracing
R=/tmp/result; mkdir -p $R
log() { echo "LAB: $*"; echo "$*" >> $R/guest.log; }

log "name=$NAME uname=$(uname -r) uptime_at_init=$(cut -d' ' -f1 /proc/uptime)"
log "cmdline=$(cat /proc/cmdline)"
log "nohz_full=$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null) online=$(cat /sys/devices/system/cpu/online)"
log "clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
log "clockevent=$(cat /sys/devices/system/clockevents/clockevent0/current_device 2>/dev/null)"
for m in virtio_mmio virtio_blk; do
    [ -e /lib/modules/$m.ko ] && { insmod /lib/modules/$m.ko || log "insmod $m failed"; }
done

echo 0 > $T/tracing_on
echo nop > $T/current_tracer
echo $BUF > $T/buffer_size_kb
echo 1024 > $T/saved_cmdlines_size 2>/dev/null
echo > $T/trace
for e in irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry irq/softirq_exit \
         irq/softirq_raise sched/sched_switch sched/sched_waking sched/sched_wakeup \
         timer raw_syscalls/sys_enter raw_syscalls/sys_exit power/cpu_idle; do
    if [ -e $T/events/$e/enable ]; then echo 1 > $T/events/$e/enable
    else log "missing event $e"; fi
done
log "enabled: $(cat $T/set_event | tr '\n' ' ')"
echo 1 > /proc/sys/kernel/printk      # keep printk off the console while recording

sleep 1                               # let boot-time activity settle
log "tracing on; uptime=$(cut -d' ' -f1 /proc/uptime)"
echo 1 > $T/tracing_on
echo "lab $NAME: idle start" > $T/trace_marker
usleep 300000
# phase 1: busy shell loop on CPU 1 (user space, no system calls inside the loop)
taskset 2 sh -c "echo 'workload start' > $T/trace_marker
i=0; while [ \$((i+=1)) -lt $N ]; do :; done
echo 'workload end' > $T/trace_marker"
# phase 2: CPU 1 sleeps in 100 ms steps, its tick can stop in idle
taskset 2 sh -c "echo 'sleep start' > $T/trace_marker
k=0; while [ \$((k+=1)) -le $SLEEPS ]; do usleep 100000; done
echo 'sleep end' > $T/trace_marker"
usleep 200000
echo "lab $NAME: end" > $T/trace_marker
echo 0 > $T/tracing_on
log "tracing off; uptime=$(cut -d' ' -f1 /proc/uptime)"

for c in $T/per_cpu/cpu*; do
    log "$(basename $c): $(grep -E 'entries|overrun|dropped' $c/stats | tr '\n' ' ')"
done
cat $T/trace > $R/trace.txt
log "trace: $(wc -c < $R/trace.txt) bytes, $(wc -l < $R/trace.txt) lines, md5 $(md5sum < $R/trace.txt | cut -d' ' -f1)"
cat /proc/interrupts > $R/interrupts.txt
cat /proc/timer_list > $R/timer_list.txt 2>/dev/null
dmesg > $R/dmesg.txt
uname -a > $R/uname.txt
cat /proc/cmdline > $R/cmdline.txt
grep -i arch_timer $R/interrupts.txt | while read -r l; do log "irq: $l"; done
if [ -b /dev/vda ]; then
    tar -C /tmp -cf /dev/vda result && sync && log "wrote result tar to /dev/vda"
else
    log "no /dev/vda: trace follows on the console"
    echo "=====TRACE BEGIN====="
    cat $R/trace.txt
    echo "=====TRACE END====="
fi
log "poweroff"
poweroff -f
