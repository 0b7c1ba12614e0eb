#!/usr/bin/env bash
# multi_steady.sh - --steady-state averages each experiment row over its sender's steady state, from
# the end of its first slow start to its last data packet (docs/tcptrace-ng.1), checked on five lab
# flows at the sender capture whose slow start ends in different ways (HyStart: cubic-owd5; a
# queue overflow: cubic-owd25, cubic-owd50; random loss: cubic-loss1-owd10; Reno without SACK,
# ending in loss: reno-smallq):
#  - against the kernel: tcp_probe.csv records the socket before it processes each ACK, so the
#    kernel set ssthresh (left slow start) between its last record with the "infinite" ssthresh
#    (0x7fffffff) and its first with a finite one.  The capture sees that ACK up to 2 ms before the
#    record (docs/lab.md: 609 tcp_probe events 1.7 us - 2 ms after their ACK in the capture), and the
#    packets show the change within one round trip (the retransmission at once after a loss; after a
#    HyStart exit, the next round's growth), so the steady state starts somewhere in
#    [last infinite record - 2 ms, first finite record + the configured RTT].  The goodput and
#    throughput must lie within the range that the window [T, last data packet] takes for T in that
#    interval, computed here from tshark's fields (exactly: between two packets the bytes stay and
#    the span shrinks, so the extremes lie at the packets' times and the interval's ends);
#  - against the definition: both equal tshark's count over [slowstart_end_s of senders.csv, the
#    last data packet of the flow] to the bit/s (goodput: the advance of the highest sequence end,
#    as multi_window.sh counts it).
# With --steady-state left out (the lifetime average) or replaced by --transfer-period, both checks
# fail on all five flows.
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v tshark >/dev/null || { echo "multi_steady: no tshark; skip"; exit 77; }
command -v python3 >/dev/null || { echo "multi_steady: no python3; skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 ran=0

# goodput and throughput (bit/s) over [T, last data packet], exactly at T = $1 and as the range
# over T in [$2, $3]; stdin: tshark's epoch (ns digits), seq, len of the flow's data segments
rates() {   # T lo hi
    python3 -c '
import sys
from decimal import Decimal
ns = lambda s: int(Decimal(s) * 10**9)
pk = []                      # (t_ns, payload bytes, advance of the highest end)
hi = None
for line in sys.stdin:
    t, seq, ln = line.split()
    seq, ln = int(seq), int(ln)
    if ln == 0:
        continue
    end = seq + ln
    lo = hi if hi is not None else seq
    pk.append((ns(t), ln, max(end - lo, 0)))
    if hi is None or end > hi:
        hi = end
last = pk[-1][0]
def at(T):                   # the window [T, last]: every packet with T <= t <= last
    a = f = 0
    for t, ln, adv in pk:
        if t >= T:
            a += ln; f += adv
    d = (last - T) / 1e9
    return f * 8 / d, a * 8 / d
T, lo, hi_ = ns(sys.argv[1]), ns(sys.argv[2]), ns(sys.argv[3])
g, a = at(T)
# candidates: the ends, each packet time inside (the largest value of the piece it ends) and just
# after it (the smallest of the next piece)
cand = [lo, hi_] + [t for t, _, _ in pk if lo < t < hi_] + [t + 1 for t, _, _ in pk if lo <= t < hi_]
vals = [at(c) for c in cand if c < last]
print("%.1f %.1f %.1f %.1f %.1f %.1f" % (g, a, min(v[0] for v in vals), max(v[0] for v in vals),
                                          min(v[1] for v in vals), max(v[1] for v in vals)))
' "$@"
}

for s in cubic-owd5 cubic-owd25 cubic-owd50 cubic-loss1-owd10 reno-smallq; do
    dir=$src/samples/$s
    f=$dir/snd1_eth0.pcap
    [ -f "$f" ] && [ -f "$dir/tcp_probe.csv" ] || continue
    ran=1
    port=$(sed -n 's/^flow1_sport=//p' "$dir/manifest.txt")
    rtt=$(sed -n 's/^flow1_rtt_config_ms=//p' "$dir/manifest.txt")
    # the kernel's last record before slow start ended and its first after (flow 1's rows)
    read -r k0 k1 < <(awk -F, 'NR > 1 && $2 == 1 { if ($11 != 2147483647) { print prev, $1; exit } prev = $1 }' \
                          "$dir/tcp_probe.csv")
    lo=$(awk -v t="$k0" 'BEGIN { printf "%.6f", t - 0.002 }')
    hi=$(awk -v t="$k1" -v r="$rtt" 'BEGIN { printf "%.6f", t + r / 1000 }')
    rm -rf "$tmp/x" "$tmp/c"
    "$bin" --steady-state --experiment "ss=$s=$f" --csv "$tmp/x" >/dev/null 2>&1 || { echo "FAIL $s: exit $?"; fail=1; }
    "$bin" -q --csv "$tmp/c" "$f" >/dev/null 2>&1 || { echo "FAIL $s: exit $?"; fail=1; }
    read -r g t < <(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if sys.argv[2] in (r["a_port"], r["b_port"]): print(r["goodput_bps"], r["throughput_bps"])' "$tmp/x/experiment.csv" "$port")
    ss=$(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["src_port"] == sys.argv[2] and r["dir"] == "a2b": print(r["slowstart_end_s"])' "$tmp/c/senders.csv" "$port")
    read -r eg et gmin gmax tmin tmax < <(tshark -r "$f" -Y "tcp.srcport == $port && tcp.len > 0" -T fields \
        -e frame.time_epoch -e tcp.seq -e tcp.len 2>/dev/null | rates "$ss" "$lo" "$hi")
    echo "multi_steady: $s: slow start ended (kernel) between $k0 and $k1, ours $ss;" \
         "goodput $g in [$gmin, $gmax], throughput $t in [$tmin, $tmax]; from slowstart_end_s: $eg $et"
    awk -v g="$g" -v t="$t" -v a="$gmin" -v b="$gmax" -v c="$tmin" -v d="$tmax" \
        'BEGIN { exit !(g != "" && g >= a - 0.5 && g <= b + 0.5 && t >= c - 0.5 && t <= d + 0.5) }' ||
        { echo "FAIL $s: outside the range the kernel's end of slow start allows"; fail=1; }
    awk -v g="$g" -v t="$t" -v x="$eg" -v y="$et" \
        'BEGIN { d = g - x; e = t - y; exit !(g != "" && d * d <= 1 && e * e <= 1) }' ||
        { echo "FAIL $s: $g $t != tshark's count from slowstart_end_s $eg $et"; fail=1; }
done
[ "$ran" = 1 ] || { echo "multi_steady: no samples; skip"; exit 77; }
[ $fail -eq 0 ] && echo "multi_steady: passed"
exit $fail
