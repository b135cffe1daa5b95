#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The function-tracer lab's image: the kernel lab's (tests/lab/build-initramfs.sh) with fn-init.sh as
# /init, as $LAB/initramfs-fn-$KVER.cpio.gz (run-fn.sh boots it).
SRC=$(cd "$(dirname "$0")" && pwd)
INIT=$SRC/fn-init.sh TAG=fn exec "$SRC/../build-initramfs.sh" "$@"
