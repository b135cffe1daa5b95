#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Build $ARMLAB/initramfs-$KVER.cpio.gz for the arm64 lab: Debian's static arm64 busybox,
# the virtio-mmio and virtio-blk modules of the kernel (to write the results to a disk)
# and init.sh as /init. Downloads (once, with apt-get download, nothing installed):
#   linux-image-$KVER:arm64   (KVER default 6.1.0-57-arm64)
#   busybox-static:arm64
# Needs: dpkg --add-architecture arm64 && apt-get update; cpio, xz-utils on the host.
set -euo pipefail
SRC=$(cd "$(dirname "$0")" && pwd)
ARMLAB=${ARMLAB:-/tmp/tickscope-arm64-lab}
KVER=${KVER:-6.1.0-57-arm64}
mkdir -p "$ARMLAB"
cd "$ARMLAB"
KDIR=$ARMLAB/k-$KVER
if [ ! -e "$KDIR/boot/vmlinuz-$KVER" ]; then
    ls linux-image-${KVER}_*_arm64.deb >/dev/null 2>&1 || apt-get download "linux-image-$KVER:arm64"
    dpkg-deb -x linux-image-${KVER}_*_arm64.deb "$KDIR"
fi
if [ ! -e bb/bin/busybox ]; then
    ls busybox-static_*_arm64.deb >/dev/null 2>&1 || apt-get download busybox-static:arm64
    dpkg-deb -x busybox-static_*_arm64.deb bb
fi
grep -E '^CONFIG_(HZ|NO_HZ_FULL|NO_HZ_IDLE|HIGH_RES_TIMERS|ARM_ARCH_TIMER|VIRTIO_MMIO|VIRTIO_BLK)=' \
    "$KDIR/boot/config-$KVER" || true

ROOT=$ARMLAB/root-$KVER
rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,sbin,proc,sys,dev,tmp,lib/modules}
cp bb/bin/busybox "$ROOT/bin/busybox"
ln -s busybox "$ROOT/bin/sh"            # /init installs the other applet links itself
KMOD=$KDIR/lib/modules/$KVER/kernel
for m in drivers/virtio/virtio_mmio drivers/block/virtio_blk; do
    n=$(basename $m)
    if [ -e "$KMOD/$m.ko" ]; then cp "$KMOD/$m.ko" "$ROOT/lib/modules/$n.ko"
    elif [ -e "$KMOD/$m.ko.xz" ]; then xz -dc "$KMOD/$m.ko.xz" > "$ROOT/lib/modules/$n.ko"
    else echo "note: $m not a module in $KVER (built in?)"; fi
done
mknod -m 600 "$ROOT/dev/console" c 5 1
mknod -m 666 "$ROOT/dev/null" c 1 3
cp "$SRC/init.sh" "$ROOT/init"
chmod 755 "$ROOT/init"
(cd "$ROOT" && find . | cpio -o -H newc --quiet | gzip -6) > "$ARMLAB/initramfs-$KVER.cpio.gz"
ls -l "$ARMLAB/initramfs-$KVER.cpio.gz"
