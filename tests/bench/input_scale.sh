#!/usr/bin/env bash
# input_scale.sh - run time of the ns-2 reader and of --truth grading as their inputs grow 4x:
# a linear reader takes about 4x as long, a quadratic one 16x.  Not part of the test suite: run
# it by hand on an idle machine (issue 17: "quadratic run time on large ns-2 traces and large
# truth files").
#
#   tests/bench/input_scale.sh [CACHE_DIR]        (default /tmp/tcptrace-ng-input-scale)
#
# Environment: BIN (default build/tcptrace-ng), FLOWS (ns-2 flows of the small trace, default
# 4000), K (truth records repeated K and 4K times, default 10).
# ns-2: synthetic traces of FLOWS and 4*FLOWS TCP flows over one link (+ - r of each packet and
# of its ACK), 20 and 5 packets a flow: the same number of lines, so the ratio shows the cost of
# the number of flows.  A second pair doubles the lines at fixed flows (100 flows).
# Truth: samples/cubic-bdp-owd40 (6946 probes, 8 states, 556 retransmissions) with every record
# repeated K and 4K times, 1 us apart, graded against its sender capture.
# There is no peer for these inputs (tcptrace reads neither); the ratios are the measure.
set -u

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cache=${1:-/tmp/tcptrace-ng-input-scale}
BIN=${BIN:-$src/build/tcptrace-ng}
FLOWS=${FLOWS:-4000}
K=${K:-10}
mkdir -p "$cache" || exit 1
command -v python3 >/dev/null || { echo "input_scale: needs python3"; exit 1; }
[ -x "$BIN" ] || { echo "input_scale: no $BIN"; exit 1; }

ns2() {   # ns2 FILE FLOWS PACKETS_PER_FLOW
    [ -s "$1" ] && return
    python3 - "$2" "$3" > "$1" <<'EOF'
import sys
nflows, npk = int(sys.argv[1]), int(sys.argv[2])
w = sys.stdout.write
t, pid = 0.0, 0
for k in range(npk):
    for f in range(nflows):
        t += 0.00001
        pid += 1
        d, a = "0.%d" % (f + 1), "1.%d" % (f + 1)
        for ev, dt in (("+", 0), ("-", 0), ("r", 0.001)):
            w("%s %.6f 0 1 tcp 1040 ------- %d %s %s %d %d\n" % (ev, t + dt, f, d, a, k, pid))
        for ev, dt in (("+", 0.001), ("-", 0.001), ("r", 0.002)):
            w("%s %.6f 1 0 ack 40 ------- %d %s %s %d %d\n" % (ev, t + dt, f, a, d, k, pid + 1))
EOF
}

truth() {   # truth DIR K
    [ -s "$1/tcp_probe.csv" ] && return
    mkdir -p "$1"
    python3 - "$src/samples/cubic-bdp-owd40" "$1" "$2" <<'EOF'
import os, sys
src, dst, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
for name in ("tcp_probe.csv", "tcp_cong_state.csv", "tcp_retransmit.csv"):
    lines = open(os.path.join(src, name)).read().splitlines()
    out = [lines[0]]
    for l in lines[1:]:
        f = l.split(",")
        t = float(f[0])
        for i in range(k):
            f[0] = "%.6f" % (t + i * 1e-6)
            out.append(",".join(f))
    open(os.path.join(dst, name), "w").write("\n".join(out) + "\n")
EOF
}

secs() {   # secs CMD...: wall seconds of one run
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc -l
}

ratio() { printf '%-44s %8.2f s %8.2f s   x%.1f (linear 4, quadratic 16)\n' "$1" "$2" "$3" "$(echo "$3 / $2" | bc -l)"; }

ns2 "$cache/flows1.tr" "$FLOWS" 20
ns2 "$cache/flows4.tr" $((FLOWS * 4)) 5
ns2 "$cache/lines1.tr" 100 200
ns2 "$cache/lines4.tr" 100 800
truth "$cache/truth1" "$K"
truth "$cache/truth4" $((K * 4))

printf '%-44s %10s %10s   %s\n' input small large ratio
ratio "ns-2: $FLOWS -> $((FLOWS * 4)) flows, same lines" \
    "$(secs "$BIN" -q --ns2 "$cache/flows1.tr")" "$(secs "$BIN" -q --ns2 "$cache/flows4.tr")"
ratio "ns-2: 120k -> 480k lines, 100 flows" \
    "$(secs "$BIN" -q --ns2 "$cache/lines1.tr")" "$(secs "$BIN" -q --ns2 "$cache/lines4.tr")"
cap="$src/samples/cubic-bdp-owd40/snd1_eth0.pcap"
ratio "--truth: records x$K -> x$((K * 4))" \
    "$(secs "$BIN" -q --truth "$cache/truth1/tcp_probe.csv" "$cap")" \
    "$(secs "$BIN" -q --truth "$cache/truth4/tcp_probe.csv" "$cap")"
