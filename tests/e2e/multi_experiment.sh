#!/usr/bin/env bash
# multi_experiment.sh - experiment report over the lab's delay series (samples/cubic-owd5,
# cubic-owd25, cubic-owd50; labels from their manifests):
#  - experiment.csv has the header of csv-contract.md and one row per trace (the iperf3 control
#    connections carry under 1% of the data and are left out, like in the fairness section);
#  - every row equals the per-trace report: the connection of the same number in that trace's
#    own connections.csv, with throughput = data bytes * 8 / (last_s - first_s), goodput = unique
#    bytes * 8 / (last_s - first_s), computed here;
#  - rexmit_pkts is what the sender retransmitted: the kernel's tcp_retransmit_skb events of the
#    data connection (tcp_retransmit.csv, err 0), at the sender capture and at the receiver's;
#  - the fairness column equals the per-trace fairness section (a two-flow DFCP+CUBIC trace);
#  - --plot writes experiment-goodput and experiment-ratio.
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
args=()
traces=(cubic-owd5 cubic-owd25 cubic-owd50)
for t in "${traces[@]}"; do
    f=$src/samples/$t/snd1_eth0.pcap
    [ -f "$f" ] || { echo "multi_experiment: no sample $f; skip"; exit 77; }
    label=$(sed -n 's/^label=//p' "$src/samples/$t/manifest.txt")
    args+=(--experiment "$label=$f")
done
"$bin" "${args[@]}" --csv "$tmp/exp" --plot "$tmp/fig" >"$tmp/out" 2>"$tmp/err" ||
    { echo "FAIL: exit $?: $(cat "$tmp/err")"; exit 1; }
tr -d '\r' <"$tmp/exp/experiment.csv" >"$tmp/exp.csv"
want_hdr="trace,label,conn,proto,a_addr,a_port,b_addr,b_port,goodput_bps,throughput_bps,rexmit_pkts,rtt_ms_avg,jain_index,flow"
[ "$(head -1 "$tmp/exp.csv")" = "$want_hdr" ] || { echo "FAIL: header $(head -1 "$tmp/exp.csv")"; fail=1; }
rows=$(($(wc -l <"$tmp/exp.csv") - 1))
[ "$rows" -eq ${#traces[@]} ] || { echo "FAIL: $rows rows for ${#traces[@]} traces"; cat "$tmp/exp.csv"; fail=1; }

i=0
for t in "${traces[@]}"; do
    i=$((i + 1))
    "$bin" -q --csv "$tmp/one$i" "$src/samples/$t/snd1_eth0.pcap" >/dev/null 2>&1
    label=$(sed -n 's/^label=//p' "$src/samples/$t/manifest.txt")
    row=$(awk -F, -v i=$i 'NR > 1 && $1 == i' "$tmp/exp.csv")
    conn=$(echo "$row" | cut -d, -f3)
    # the same connection in the per-trace connections.csv: expected cells computed here
    want=$(tr -d '\r' <"$tmp/one$i/connections.csv" | awk -F, -v c="$conn" -v l="$label" -v i=$i 'NR > 1 && $1 == c {
        d = $8 - $7
        printf "%d,%s,%s,%s,%s,%s,%s,%s,%.1f,%.1f\n", i, l, $1, $2, $3, $4, $5, $6, ($16 + $17) * 8 / d,
            ($14 + $15) * 8 / d }')
    got=$(echo "$row" | cut -d, -f1-10)
    echo "multi_experiment: trace $i: $got"
    # goodput/throughput: the first_s/last_s cells are read back into doubles here (an epoch
    # time keeps about 0.2 us), so allow a relative 1e-6
    if ! awk -F, -v a="$got" -v b="$want" 'BEGIN { na = split(a, x, ","); nb = split(b, y, ",")
            if (na != 10 || nb != 10) exit 1
            for (k = 1; k <= 10; k++) {
                if (k == 9 || k == 10) { d = x[k] - y[k]; if (d < 0) d = -d; if (d > 1e-6 * y[k] + 0.1) exit 1 }
                else if (x[k] != y[k]) exit 1 }
            exit 0 }'; then
        echo "FAIL: trace $i row '$got' != per-trace '$want'"
        fail=1
    fi
    sport=$(sed -n 's/^flow1_sport=//p' "$src/samples/$t/manifest.txt")
    kernel=$(awk -F, -v p="$sport" 'NR > 1 && $4 == p && $8 == 0' "$src/samples/$t/tcp_retransmit.csv" | wc -l)
    "$bin" --experiment "$label=$src/samples/$t/rcv1_eth0.pcap" --csv "$tmp/rcv$i" >/dev/null 2>&1
    rx_snd=$(echo "$row" | cut -d, -f11)
    rx_rcv=$(tr -d '\r' <"$tmp/rcv$i/experiment.csv" | awk -F, 'NR == 2 { print $11 }')
    echo "multi_experiment: trace $i retransmissions: sender capture $rx_snd, receiver capture $rx_rcv, kernel $kernel"
    [ "$rx_snd" = "$kernel" ] && [ "$rx_rcv" = "$kernel" ] ||
        { echo "FAIL: trace $i rexmit_pkts $rx_snd / $rx_rcv != the kernel's $kernel"; fail=1; }
    rtt=$(echo "$row" | cut -d, -f12)
    awk -v r="$rtt" 'BEGIN { exit !(r + 0 > 0) }' || { echo "FAIL: trace $i rtt '$rtt'"; fail=1; }
    [ "$(echo "$row" | cut -d, -f13)" = "1.000000" ] || { echo "FAIL: trace $i one flow, jain != 1"; fail=1; }
done
for fig in experiment-goodput experiment-ratio; do
    [ "$fig" = experiment-ratio ] && continue   # one flow per trace: no ratio figure
    [ -s "$tmp/fig/$fig.png" ] || { echo "FAIL: no $fig.png"; fail=1; }
done

# two flows in one trace: the experiment's index equals the per-trace fairness section's
f=$src/samples/dfcp-cubic-fair/snd1_eth0.pcap
if [ -f "$f" ]; then
    "$bin" --experiment "fair=$f" --csv "$tmp/fair" --plot "$tmp/fairfig" >/dev/null 2>&1
    ej=$(tr -d '\r' <"$tmp/fair/experiment.csv" | awk -F, 'NR == 2 { printf "%.4f", $13 }')
    tj=$("$bin" -q --fairness-by conn "$f" | sed -n "s/.*Jain's fairness index: \([0-9.]*\).*/\1/p")
    echo "multi_experiment: DFCP+CUBIC trace: experiment jain $ej, fairness section $tj"
    [ -n "$ej" ] && [ "$ej" = "$tj" ] || { echo "FAIL: jain $ej != $tj"; fail=1; }
    [ "$(tr -d '\r' <"$tmp/fair/experiment.csv" | wc -l)" -eq 3 ] || { echo "FAIL: two rows expected"; fail=1; }
    [ -s "$tmp/fairfig/experiment-ratio.png" ] || { echo "FAIL: no experiment-ratio.png"; fail=1; }
fi
[ $fail -eq 0 ] && echo "multi_experiment: passed"
exit $fail
