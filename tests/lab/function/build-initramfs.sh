#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Adapted from tests/lab/build-initramfs.sh for the function-tracer fixtures:
# busybox (static) + trace-cmd + its shared libs + virtio_blk modules + /init (fn-init.sh).
# No workload binary is needed.
set -euo pipefail
SRC=$(cd "$(dirname "$0")" && pwd)
LAB=${LAB:-/tmp/tickscope-kernel-lab}
mkdir -p $LAB
KVER=${KVER:-6.1.0-57-amd64}
KDIR=$LAB/kernel
if [ ! -e $KDIR/boot/vmlinuz-$KVER ]; then
    (cd $LAB && { ls linux-image-${KVER}_*.deb >/dev/null 2>&1 || apt-get download linux-image-$KVER >/dev/null; } && dpkg-deb -x linux-image-${KVER}_*.deb $KDIR)
fi
KMOD=$KDIR/lib/modules/$KVER/kernel
ROOT=$LAB/initramfs-root
cd $LAB
rm -rf $ROOT
mkdir -p $ROOT/{bin,sbin,etc,proc,sys,dev,tmp,lib/modules,lib64,lib/x86_64-linux-gnu,usr/bin,usr/sbin}
cp /bin/busybox $ROOT/bin/busybox
for a in $($ROOT/bin/busybox --list); do
    [ -e $ROOT/bin/$a ] || ln -s busybox $ROOT/bin/$a
done
cp /usr/bin/trace-cmd $ROOT/bin/trace-cmd
for lib in $(ldd /usr/bin/trace-cmd | awk '/=>/ {print $3} /ld-linux/ {print $1}'); do
    dest=$ROOT$lib
    mkdir -p $(dirname $dest)
    cp -L $lib $dest
done
for m in virtio/virtio_ring virtio/virtio virtio/virtio_pci_legacy_dev \
         virtio/virtio_pci_modern_dev virtio/virtio_pci ../drivers/block/virtio_blk; do
    cp $KMOD/drivers/$m.ko $ROOT/lib/modules/
done
cp $SRC/fn-init.sh $ROOT/init
chmod 755 $ROOT/init
(cd $ROOT && find . | cpio -o -H newc --quiet | gzip -6) > $LAB/initramfs-fn-$KVER.cpio.gz
ls -l $LAB/initramfs-fn-$KVER.cpio.gz
