#!/usr/bin/env bash
# Installs every Debian 12 package tickscope needs to build, test and benchmark.
# Run as root (CI does); otherwise it prints the apt-get line to run and stops.
set -euo pipefail
PKGS=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev libgl-dev libqcustomplot-dev
  libtraceevent-dev libtracefs-dev libtracecmd-dev trace-cmd
  libzstd-dev zlib1g-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth
  stress-ng rt-tests
  nlohmann-json3-dev
)
# Optional, only for the open-time benchmark against KernelShark (tests/bench/open-time.sh); CI does not
# need them. Installed with: scripts/install-deps.sh --bench
BENCH_PKGS=(kernelshark xdotool bc)
if [ "${1:-}" = "--bench" ]; then PKGS+=("${BENCH_PKGS[@]}"); fi
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
