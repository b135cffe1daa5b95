#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# /init of the datlab initramfs (Debian static busybox + Debian trace-cmd 3.1.6 of the guest's
# architecture).  Adapted from tests/lab/arm64/init.sh.  Records several trace.dat files with
# the guest's own trace-cmd around a short busy/sleep shell workload and writes them, with logs,
# as a tar to the virtio disk /dev/vda.
# Kernel command line params (reach init as environment):
#   dat_n      iterations of the busy shell loop on CPU 1   (default 15000)
#   dat_sleeps number of 100 ms usleeps on CPU 1            (default 4)
#   dat_buf    trace-cmd -b, KB per CPU                     (default 512)
#   dat_recs   which recordings: space/comma separated subset of default,v6,v7zstd,v7none
/bin/busybox --install -s /bin
export PATH=/usr/bin:/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tracefs nodev /sys/kernel/tracing
mount -t tmpfs tmpfs /tmp
taskset -p 1 $$ >/dev/null 2>&1      # init and everything it starts stay on CPU 0

N=${dat_n:-15000}; SLEEPS=${dat_sleeps:-4}; BUF=${dat_buf:-512}
RECS=$(echo "${dat_recs:-default,v6,v7zstd,v7none}" | tr ',' ' ')
R=/tmp/result; mkdir -p $R
log() { echo "DAT: $*"; echo "$*" >> $R/guest.log; }

log "uname=$(uname -a)"
log "cmdline=$(cat /proc/cmdline)"
log "online=$(cat /sys/devices/system/cpu/online) clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
for m in $(cat /lib/modules/order); do
    [ -e /lib/modules/$m.ko ] && { insmod /lib/modules/$m.ko || log "insmod $m failed"; }
done
log "trace-cmd: $(trace-cmd --version 2>&1 | tr '\n' ' ')"
log "compression algorithms: $(trace-cmd list -c 2>&1 | tr '\n' ' ')"
log "kallsyms lines: $(wc -l < /proc/kallsyms)"

cat > /tmp/work.sh <<EOF
taskset 2 sh -c 'i=0; while [ \$((i+=1)) -lt $N ]; do :; done'
taskset 2 sh -c 'k=0; while [ \$((k+=1)) -le $SLEEPS ]; do usleep 100000; done'
EOF
echo 1 > /proc/sys/kernel/printk      # keep printk off the console while recording
sleep 1                               # let boot-time activity settle

EV="-e timer -e irq -e sched:sched_switch -e sched:sched_wakeup"
for r in $RECS; do
    case $r in
      default) opt="";;
      v6)      opt="--file-version 6";;
      v7zstd)  opt="--file-version 7 --compression zstd";;
      v7none)  opt="--file-version 7 --compression none";;
      *) log "unknown recording $r"; continue;;
    esac
    cmd="trace-cmd record -b $BUF -o $R/$r.dat $opt $EV sh /tmp/work.sh"
    echo "$cmd" > $R/$r.cmd
    t0=$(cut -d' ' -f1 /proc/uptime)
    $cmd > $R/$r.record.log 2>&1
    rc=$?
    t1=$(cut -d' ' -f1 /proc/uptime)
    log "$r: rc=$rc uptime $t0 -> $t1, $(wc -c < $R/$r.dat 2>/dev/null) bytes: $cmd"
    trace-cmd dump --summary -i $R/$r.dat > $R/$r.summary.txt 2>&1
    log "$r: guest report lines: $(trace-cmd report -i $R/$r.dat 2>/dev/null | wc -l), md5 $(md5sum < $R/$r.dat | cut -d' ' -f1)"
done
dmesg > $R/dmesg.txt
if [ -b /dev/vda ]; then
    tar -C /tmp -cf /dev/vda result && sync && log "wrote result tar to /dev/vda"
else
    log "no /dev/vda"
fi
log "poweroff"
poweroff -f
