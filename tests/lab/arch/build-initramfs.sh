#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Build $DATLAB/initramfs-$ARCH-$KVER.cpio.gz: Debian's static busybox, Debian's trace-cmd 3.1.6
# of the same architecture with the shared libraries it needs (libtraceevent1 + plugins,
# libtracefs1, libzstd1, libc6 incl. the dynamic loader), the kernel's virtio modules (to write
# the results to a disk) and init.sh as /init.  Adapted from tests/lab/arm64/build-initramfs.sh.
# Everything is fetched with apt-get download (nothing installed on the host).
#   ARCH = arm64 | i386 | armhf | s390x
# Needs: dpkg --add-architecture $ARCH && apt-get update; cpio, xz-utils on the host.
set -euo pipefail
SRC=$(cd "$(dirname "$0")" && pwd)
DATLAB=${DATLAB:-/tmp/tickscope-arch-lab}
ARCH=${ARCH:-arm64}
case $ARCH in
  arm64) TRIPLET=aarch64-linux-gnu;   LOADER=ld-linux-aarch64.so.1; KVER=${KVER:-6.1.0-57-arm64}
         MODS="drivers/virtio/virtio_mmio drivers/block/virtio_blk";;
  i386)  TRIPLET=i386-linux-gnu;      LOADER=ld-linux.so.2;         KVER=${KVER:-6.1.0-57-686}
         MODS="drivers/virtio/virtio_ring drivers/virtio/virtio drivers/virtio/virtio_pci_legacy_dev drivers/virtio/virtio_pci_modern_dev drivers/virtio/virtio_pci drivers/block/virtio_blk";;
  armhf) TRIPLET=arm-linux-gnueabihf; LOADER=ld-linux-armhf.so.3;   KVER=${KVER:-6.1.0-57-armmp}
         MODS="drivers/virtio/virtio_mmio drivers/block/virtio_blk";;
  s390x) TRIPLET=s390x-linux-gnu;    LOADER=ld64.so.1;             KVER=${KVER:-6.1.0-50-s390x}
         MODS="drivers/block/virtio_blk";;
  *) echo "ARCH?" >&2; exit 2;;
esac
W=$DATLAB/$ARCH
mkdir -p "$W/debs"
cd "$W/debs"
pkgs="linux-image-$KVER busybox-static trace-cmd libtraceevent1 libtraceevent1-plugin libtracefs1 libzstd1 libc6"
for p in $pkgs; do
    ls ${p}_*_${ARCH}.deb >/dev/null 2>&1 || apt-get download "$p:$ARCH"
done
X=$W/x
if [ ! -d "$X" ]; then
    mkdir -p "$X"
    for d in *.deb; do dpkg-deb -x "$d" "$X"; done
fi
ls -l "$X/boot/"vmlinuz-$KVER
readelf -d "$X/usr/bin/trace-cmd" | grep NEEDED
grep -E '^CONFIG_(HZ|NO_HZ_FULL|NO_HZ_IDLE|HIGH_RES_TIMERS|VIRTIO_MMIO|VIRTIO_PCI|VIRTIO_BLK|FTRACE|TRACING)=' \
    "$X/boot/config-$KVER" || true

ROOT=$W/root
rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,sbin,proc,sys,dev,tmp,lib/modules,lib/$TRIPLET,usr/bin,usr/lib/$TRIPLET}
cp "$X/bin/busybox" "$ROOT/bin/busybox"
ln -s busybox "$ROOT/bin/sh"            # /init installs the other applet links itself
cp "$X/usr/bin/trace-cmd" "$ROOT/usr/bin/trace-cmd"
# libc6: the loader and libc (plus libm/libpthread/libdl/librt, small, in case a plugin wants them)
for l in $LOADER libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1; do
    [ -e "$X/lib/$TRIPLET/$l" ] && cp -L "$X/lib/$TRIPLET/$l" "$ROOT/lib/$TRIPLET/$l"
done
ln -s "$TRIPLET/$LOADER" "$ROOT/lib/$LOADER"
for l in libtraceevent.so.1 libtracefs.so.1 libzstd.so.1; do
    cp -L "$X/usr/lib/$TRIPLET/$l" "$ROOT/usr/lib/$TRIPLET/$l"
done
cp -a "$X/usr/lib/$TRIPLET/traceevent" "$ROOT/usr/lib/$TRIPLET/"
KMOD=$X/lib/modules/$KVER/kernel
for m in $MODS; do
    n=$(basename $m)
    if [ -e "$KMOD/$m.ko" ]; then cp "$KMOD/$m.ko" "$ROOT/lib/modules/$n.ko"
    elif [ -e "$KMOD/$m.ko.xz" ]; then xz -dc "$KMOD/$m.ko.xz" > "$ROOT/lib/modules/$n.ko"
    else echo "note: $m not a module in $KVER (built in?)"; fi
done
echo "$MODS" | tr ' ' '\n' | xargs -n1 basename > "$ROOT/lib/modules/order"
mknod -m 600 "$ROOT/dev/console" c 5 1
mknod -m 666 "$ROOT/dev/null" c 1 3
cp "$SRC/init.sh" "$ROOT/init"
chmod 755 "$ROOT/init"
(cd "$ROOT" && find . | cpio -o -H newc --quiet | gzip -6) > "$W/initramfs-$KVER.cpio.gz"
ls -l "$W/initramfs-$KVER.cpio.gz"
