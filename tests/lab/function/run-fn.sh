#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Adapted from tests/lab/run-scenario.sh: boot the fn initramfs once, unpack the results.
set -euo pipefail
LAB=${LAB:-/tmp/tickscope-kernel-lab}
KVER=${KVER:-6.1.0-57-amd64}
KERNEL=$LAB/kernel/boot/vmlinuz-$KVER
INITRD=$LAB/initramfs-fn-$KVER.cpio.gz
NCPU=${NCPU:-2}; MEM=${MEM:-1024}
cd $LAB
qemu=(qemu-system-x86_64 -name lab,debug-threads=on -display none -monitor none -no-reboot -nodefaults)
probe_kvm() {
  local log=$LAB/.kvm-probe.log
  timeout 25 "${qemu[@]}" -accel kvm -smp 1 -m 256 -serial file:$log \
      -kernel $KERNEL -append "console=ttyS0 earlyprintk=ttyS0 panic=-1 rdinit=/nonexistent" \
      >/dev/null 2>&1 || true
  grep -q "Linux version" $log 2>/dev/null
}
ACCEL=${ACCEL:-auto}
if [ "$ACCEL" = auto ]; then
  if [ -f $LAB/.accel ]; then ACCEL=$(cat $LAB/.accel)
  elif probe_kvm; then ACCEL=kvm; echo kvm > $LAB/.accel
  else ACCEL=tcg; echo tcg > $LAB/.accel; fi
fi
if [ $ACCEL = kvm ]; then accel=(-accel kvm -cpu qemu64); else accel=(-accel tcg,thread=multi -cpu max); fi
append="console=ttyS0 loglevel=5 panic=-1 tsc=reliable ${EXTRA_APPEND:-}"
RUN=$LAB/runs/fn; rm -rf $RUN; mkdir -p $RUN
truncate -s 64M $RUN/out.img
echo "accel=$ACCEL ncpu=$NCPU append: $append" | tee $RUN/host.log
t0=$(date +%s.%N)
timeout ${QEMU_TIMEOUT:-900} "${qemu[@]}" "${accel[@]}" -smp $NCPU -m $MEM \
  -kernel $KERNEL -initrd $INITRD -append "$append" \
  -drive file=$RUN/out.img,format=raw,if=virtio \
  -serial stdio < /dev/null > >(tee $RUN/console.log | grep --line-buffered -E '^LAB:|Kernel panic|BUG|error') 2>&1 || true
sleep 0.5
t1=$(date +%s.%N)
echo "boot+run wall time: $(echo "$t1 - $t0" | bc) s (accel=$ACCEL)" | tee -a $RUN/host.log
tar -C $RUN -xf $RUN/out.img
rm -f $RUN/out.img
ls -l $RUN/result
