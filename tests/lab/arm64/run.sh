#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Usage: run.sh nohzfull|idle
#   nohzfull   nohz_full=1 rcu_nocbs=1   (CPU 1 adaptive-tick, CPU 0 housekeeping)
#   idle       no nohz_full: plain dynticks-idle (the kernel has CONFIG_NO_HZ_FULL=y, which
#              without nohz_full= on the command line behaves as NO_HZ_IDLE)
# Boots Debian's arm64 kernel under qemu-system-aarch64 (TCG, -M virt, 2 vCPUs), runs init.sh,
# reads the result tar back from the virtio disk and writes
#   $OUT/arm64-<major.minor>-<scenario>.txt         the tracefs `trace` file, byte for byte
#   $OUT/arm64-<major.minor>-<scenario>.truth.txt   truth.py's summary of it
# Knobs: KVER [6.1.0-57-arm64] (run build-initramfs.sh with the same KVER first),
#        ARMLAB [/tmp/tickscope-arm64-lab], OUT [$ARMLAB/out], CPU [cortex-a57],
#        LAB_N [60000] busy-loop iterations, LAB_SLEEPS [5], LAB_BUF [4096] KB per CPU.
set -euo pipefail
SRC=$(cd "$(dirname "$0")" && pwd)
ARMLAB=${ARMLAB:-/tmp/tickscope-arm64-lab}
KVER=${KVER:-6.1.0-57-arm64}
OUT=${OUT:-$ARMLAB/out}
sc=${1:?usage: run.sh nohzfull|idle}
case $sc in
  nohzfull) kp="nohz_full=1 rcu_nocbs=1";;
  idle)     kp="";;
  *) echo "unknown scenario $sc" >&2; exit 2;;
esac
kshort=$(echo "$KVER" | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')
name=arm64-$kshort-$sc
KERNEL=$ARMLAB/k-$KVER/boot/vmlinuz-$KVER
INITRD=$ARMLAB/initramfs-$KVER.cpio.gz
RUN=$ARMLAB/runs/$name
rm -rf "$RUN"; mkdir -p "$RUN" "$OUT"
truncate -s 64M "$RUN/out.img"
append="console=ttyAMA0 loglevel=6 panic=-1 $kp lab_name=$name lab_n=${LAB_N:-60000} lab_sleeps=${LAB_SLEEPS:-5} lab_buf=${LAB_BUF:-4096}"
cmd=(qemu-system-aarch64 -M virt -cpu "${CPU:-cortex-a57}" -smp 2 -m 512 -nographic -nic none -no-reboot
     -kernel "$KERNEL" -initrd "$INITRD" -append "$append"
     -drive if=none,file="$RUN/out.img",format=raw,id=out -device virtio-blk-device,drive=out)
printf '%q ' "${cmd[@]}" > "$RUN/qemu-cmd.txt"; echo >> "$RUN/qemu-cmd.txt"
t0=$(date +%s.%N)
timeout "${QEMU_TIMEOUT:-600}" "${cmd[@]}" < /dev/null > "$RUN/console.log" 2>&1 || echo "qemu exit status $?"
t1=$(date +%s.%N)
echo "wall time (boot+record+dump): $(python3 -c "print(round($t1-$t0,1))") s" | tee "$RUN/host.log"
grep -a '^LAB:' "$RUN/console.log" || true
tar -C "$RUN" -xf "$RUN/out.img"
rm -f "$RUN/out.img"
cp "$RUN/result/trace.txt" "$OUT/$name.txt"
ls -l "$OUT/$name.txt"
python3 "$SRC/truth.py" "$OUT/$name.txt" > "$OUT/$name.truth.txt"
cat "$OUT/$name.truth.txt"
