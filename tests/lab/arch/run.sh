#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Boot Debian's kernel of $ARCH under QEMU (TCG, 2 vCPUs), let init.sh record trace.dat files with
# the guest's trace-cmd, read the result tar back from the virtio disk into $DATLAB/$ARCH/run/.
# Adapted from tests/lab/arm64/run.sh.  Knobs: ARCH, KVER, DAT_N, DAT_SLEEPS, DAT_BUF, DAT_RECS.
set -euo pipefail
DATLAB=${DATLAB:-/tmp/tickscope-arch-lab}
ARCH=${ARCH:-arm64}
W=$DATLAB/$ARCH
case $ARCH in
  arm64) KVER=${KVER:-6.1.0-57-arm64}; con=ttyAMA0
         q=(qemu-system-aarch64 -M virt -cpu cortex-a57); dev=virtio-blk-device;;
  i386)  KVER=${KVER:-6.1.0-57-686};   con=ttyS0
         q=(qemu-system-i386 -M pc -cpu qemu32); dev=virtio-blk-pci;;
  armhf) KVER=${KVER:-6.1.0-57-armmp}; con=ttyAMA0
         q=(qemu-system-arm -M virt,highmem=off -cpu cortex-a15); dev=virtio-blk-device;;
  s390x) KVER=${KVER:-6.1.0-50-s390x}; con=ttysclp0
         q=(qemu-system-s390x -M s390-ccw-virtio -cpu qemu); dev=virtio-blk-ccw;;
esac
RUN=$W/run
rm -rf "$RUN"; mkdir -p "$RUN"
truncate -s 64M "$RUN/out.img"
append="console=$con loglevel=6 panic=-1 dat_n=${DAT_N:-15000} dat_sleeps=${DAT_SLEEPS:-4} dat_buf=${DAT_BUF:-512} dat_recs=${DAT_RECS:-default,v6,v7zstd,v7none}"
cmd=("${q[@]}" -smp 2 -m 512 -nographic -nic none -no-reboot
     -kernel "$W/x/boot/vmlinuz-$KVER" -initrd "$W/initramfs-$KVER.cpio.gz" -append "$append"
     -drive if=none,file="$RUN/out.img",format=raw,id=out -device $dev,drive=out)
printf '%q ' "${cmd[@]}" > "$RUN/qemu-cmd.txt"; echo >> "$RUN/qemu-cmd.txt"
t0=$(date +%s.%N)
timeout "${QEMU_TIMEOUT:-900}" "${cmd[@]}" < /dev/null > "$RUN/console.log" 2>&1 || echo "qemu exit status $?"
t1=$(date +%s.%N)
echo "wall time: $(python3 -c "print(round($t1-$t0,1))") s" | tee "$RUN/host.log"
grep -a '^DAT:' "$RUN/console.log" || tail -30 "$RUN/console.log"
tar -C "$RUN" -xf "$RUN/out.img" && rm -f "$RUN/out.img"
ls -l "$RUN/result"
