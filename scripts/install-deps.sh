#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian 12 packages tickscope needs. Run as root (CI does); otherwise it prints the
# apt-get line to run and stops.
# Usage: scripts/install-deps.sh [--build | --test | --bench | --lab]
#   --build  what building and running the GUI and the CLI needs (scripts/run.sh)
#   --test   that, plus the test suite's tools: GoogleTest, trace-cmd (the reference the tests compare
#            against), Xvfb, clang-14 with libFuzzer (the bounded fuzz run), stress-ng and rt-tests
#            (workloads for recording traces), the validators of the installed desktop files, man and
#            bash completion, dpkg-dev (the package's Depends), lintian (the package's policy checks),
#            poppler-utils (pdftotext reads the rendered PDFs) and libkshark2 (KernelShark's loader reads
#            the trace.dat files the writer makes). The default.
#   --bench  that, plus KernelShark and the window tools of tests/bench/open-time.sh.
#   --lab    that, plus QEMU and the initramfs tools of tests/lab/ (recording traces on other kernels).
set -euo pipefail
BUILD_PKGS=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-svg-dev libgl-dev libqcustomplot-dev
  libtraceevent-dev libtracefs-dev libtracecmd-dev
  libzstd-dev zlib1g-dev
  nlohmann-json3-dev libfmt-dev libcli11-dev
)
TEST_PKGS=(
  trace-cmd libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth
  clang-14 libclang-rt-14-dev
  stress-ng rt-tests
  desktop-file-utils appstream shared-mime-info bash-completion man-db bsdextrautils dpkg-dev
  poppler-utils lintian libkshark2
)
BENCH_PKGS=(kernelshark xdotool bc)
LAB_PKGS=(qemu-system-x86 qemu-system-arm qemu-system-misc busybox-static cpio xz-utils bc gcc python3)
case "${1:---test}" in
  --build) PKGS=("${BUILD_PKGS[@]}") ;;
  --test) PKGS=("${BUILD_PKGS[@]}" "${TEST_PKGS[@]}") ;;
  --bench) PKGS=("${BUILD_PKGS[@]}" "${TEST_PKGS[@]}" "${BENCH_PKGS[@]}") ;;
  --lab) PKGS=("${BUILD_PKGS[@]}" "${TEST_PKGS[@]}" "${BENCH_PKGS[@]}" "${LAB_PKGS[@]}") ;;
  *) echo "usage: scripts/install-deps.sh [--build | --test | --bench | --lab]" >&2; exit 2 ;;
esac
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && { echo "install-deps: all packages present"; exit 0; }
cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: not root; run: sudo apt-get update && sudo $cmd" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$cmd
