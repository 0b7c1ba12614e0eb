#!/usr/bin/env bash
# quickstart.sh - install, build, and analyze a bundled sample: the first README command.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh build
sample=${1:-samples/loopback-iperf3.pcap}
echo "== build/tcptrace-ng -l $sample"
./build/tcptrace-ng -l "$sample"
