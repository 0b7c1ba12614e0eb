#!/usr/bin/env bash
# multi_window.sh - the experiment's averaging windows on the lab's delay series (samples/cubic-owd5,
# owd25, owd50: one CUBIC flow each, sender and receiver captures):
#  - --window 1:2 (seconds from the trace's first packet): throughput = payload bytes of the data
#    connection's packets inside the window * 8 / 1 s, goodput = the advance of the highest
#    sequence end inside it, both computed here from tshark's fields;
#  - --transfer-period at the receiver capture against iperf3's own receiver rate (its JSON,
#    sum_received): iperf3 times the test from its start to its end, and the first and last data
#    packets lie within one round trip of those instants, so the two agree to RTT / duration
#    (the manifest's flow1_rtt_config_ms over sum_received.seconds), while the lifetime average
#    (handshake and closing exchange included) may not.
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v tshark >/dev/null || { echo "multi_window: no tshark; skip"; exit 77; }
command -v python3 >/dev/null || { echo "multi_window: no python3; skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for o in 5 25 50; do
    s=$src/samples/cubic-owd$o
    [ -f "$s/snd1_eth0.pcap" ] || { echo "multi_window: no sample $s; skip"; exit 77; }
    port=$(sed -n 's/^flow1_sport=//p' "$s/manifest.txt")
    for side in snd1 rcv1; do
        f=$s/${side}_eth0.pcap
        "$bin" --window 1:2 --experiment "owd=$o=$f" --csv "$tmp/w" >/dev/null 2>&1 || { echo "FAIL: exit $?"; fail=1; }
        got=$(tr -d '\r' <"$tmp/w/experiment.csv" | awk -F, 'NR == 2 { print $9, $10 }')
        t0=$(tshark -r "$f" -c 1 -T fields -e frame.time_epoch 2>/dev/null)
        want=$(tshark -r "$f" -Y "tcp.port == $port && tcp.srcport == $port" -T fields -e frame.time_epoch \
            -e tcp.seq -e tcp.len 2>/dev/null | awk -v t0="$t0" '
            { t = $1 - t0; end = $2 + $3; adv = 0
              if ($3 > 0) { if (!seen) { hi = $2; seen = 1 } if (end > hi) { adv = end - hi; hi = end } }
              if (t >= 1 && t <= 2) { all += $3; fresh += adv } }
            END { printf "%.1f %.1f", fresh * 8, all * 8 }')
        echo "multi_window: owd=$o $side --window 1:2 goodput/throughput ours $got, tshark $want"
        awk -v a="$got" -v b="$want" 'BEGIN { split(a, x, " "); split(b, y, " ")
            for (k = 1; k <= 2; k++) { d = x[k] - y[k]; if (d < 0) d = -d; if (d > 1e-6 * y[k] + 1) exit 1 } }' ||
            { echo "FAIL: owd=$o $side window 1:2: $got != $want"; fail=1; }
    done
    "$bin" --transfer-period --experiment "owd=$o=$s/rcv1_eth0.pcap" --csv "$tmp/t" >/dev/null 2>&1
    ours=$(tr -d '\r' <"$tmp/t/experiment.csv" | awk -F, 'NR == 2 { print $9 }')
    rtt=$(sed -n 's/^flow1_rtt_config_ms=//p' "$s/manifest.txt")
    read -r ip secs < <(python3 -c "import json, sys
e = json.load(open(sys.argv[1]))['end']['sum_received']; print(e['bits_per_second'], e['seconds'])" "$s/iperf3_flow1.json")
    echo "multi_window: owd=$o receiver transfer-period goodput $ours, iperf3 $ip (tolerance rtt $rtt ms / $secs s)"
    awk -v a="$ours" -v b="$ip" -v r="$rtt" -v d="$secs" 'BEGIN { x = a - b; if (x < 0) x = -x
        exit !(a > 0 && x <= b * (r / 1000) / d) }' || { echo "FAIL: owd=$o transfer period $ours vs iperf3 $ip"; fail=1; }
done
[ $fail -eq 0 ] && echo "multi_window: passed"
exit $fail
