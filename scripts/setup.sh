#!/usr/bin/env bash
# setup.sh - install what is missing (Debian 12, as root) and build tcptrace-ng.
#   scripts/setup.sh [BUILD_DIR] [extra cmake options...]
# Called by scripts/quickstart.sh and scripts/test.sh; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake pkg-config
  libpcap-dev libtrace3-dev libncurses-dev libcairo2-dev libcsv-dev check libsubunit-dev nettle-dev
  libtrace-tools
  tshark tcptrace tcpdump iperf3 iproute2 iptables ethtool iputils-ping jq tmux
  libxml2-utils fonts-dejavu-core gzip bzip2 xz-utils zstd procps bc time python3 git
  ns2
  clang
  openmpi-bin libopenmpi-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: these packages are missing and installing them needs root: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build=${1:-build}
shift || true
cmake -S . -B "$build" -DTN_WERROR=ON "$@" >/dev/null
cmake --build "$build" -j"$(nproc)"
