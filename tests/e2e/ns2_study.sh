#!/usr/bin/env bash
# ns2_study.sh - the high-speed TCP study from ns-2 (samples/ns2/highspeed.tcl: two flows of one
# flavour of Agent/TCP/Linux through a 10 Mbit/s drop-tail bottleneck, flow 2's access link longer
# by 0, 10 and 30 ms each way), for CUBIC, HighSpeed, Scalable, H-TCP and BIC: one experiment over
# the fifteen runs, labelled FLAVOUR:extra=Xms (a line per flavour in the trace-level figures).
# Checks, against values counted here from the ns-2 trace lines with awk:
#  - each flow keeps its identity (10.0.0.2>10.0.0.3:0 and 10.0.0.4>10.0.0.5:0) in every run;
#  - its throughput = payload bytes (size - 40, the header ns-2 counts) of its 'tcp' packets
#    leaving its source node * 8 / (its first to its last packet: data leaving the source, ACKs
#    arriving back there), in every run;
#  - with --link-rate 10M, each run's link utilisation = the two flows' unique payload bytes
#    ((highest - lowest packet number + 1) * segment size, over the packets with payload: ns-2's
#    first packet of a flow is 40 header bytes only) * 8 / (the span from the first flow's
#    start to the last one's end) / 10 Mbit/s, to the report's 4 decimals;
#  - experiment-ratio, experiment-jain, experiment-utilisation and the cwnd-all figure of one run
#    are written.
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v ns >/dev/null || { echo "ns2_study: ns-2 (ns) not installed; skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
args=()
flavours="cubic highspeed scalable htcp bic"
for ca in $flavours; do
    for x in 0 10 30; do
        ns "$src/samples/ns2/highspeed.tcl" $ca 10 10 50 $x 4 "$tmp/$ca-x$x.tr" >/dev/null 2>&1 ||
            { echo "FAIL: ns $ca exit $?"; exit 1; }
        args+=(--experiment "$ca:extra=${x}ms=$tmp/$ca-x$x.tr")
    done
done
"$bin" "${args[@]}" --link-rate 10M --csv "$tmp/exp" --plot "$tmp/fig" >"$tmp/out" 2>"$tmp/err" ||
    { echo "FAIL: exit $?: $(cat "$tmp/err")"; exit 1; }
tr -d '\r' <"$tmp/exp/experiment.csv" >"$tmp/exp.csv"
t=0
for run in $(for ca in $flavours; do for x in 0 10 30; do echo $ca-x$x; done; done); do
    ca=${run%-x*} x=${run#*-x}
    tr=$tmp/$run.tr
    t=$((t + 1))
    for s in 2 4; do
        key="10.0.0.$s>10.0.0.$((s + 1)):0"
        want=$(awk -v s=$s '($1 == "-" && $5 == "tcp" && $3 == s) || ($1 == "r" && $5 == "ack" && $4 == s) {
                if (!n++) f = $2; l = $2; if ($5 == "tcp") b += $6 - 40 }
            END { printf "%.1f", b * 8 / (l - f) }' "$tr")
        got=$(awk -F, -v t=$t -v k="$key" 'NR > 1 && $1 == t && $14 == k { print $10 }' "$tmp/exp.csv")
        echo "ns2_study: $ca extra ${x} ms flow $key throughput $got, from the trace $want"
        awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= 1e-6 * b + 0.1) }' ||
            { echo "FAIL: $ca extra $x ms flow $key: '$got' != $want"; fail=1; }
    done
    uwant=$(awk '($1 == "-" && $5 == "tcp" && ($3 == 2 || $3 == 4)) || ($1 == "r" && $5 == "ack" && ($4 == 2 || $4 == 4)) {
            s = $5 == "tcp" ? $3 : $4
            if (!(s in f)) f[s] = $2; l[s] = $2
            if ($5 == "tcp" && $6 > 40) { q = $11 + 0; if (!(s in lo) || q < lo[s]) lo[s] = q; if (q > hi[s]) hi[s] = q
                               if ($6 - 40 > seg[s]) seg[s] = $6 - 40 } }
        END { a = 1e18; b = -1; for (s in f) { bits += (hi[s] - lo[s] + 1) * seg[s] * 8
                                               if (f[s] < a) a = f[s]; if (l[s] > b) b = l[s] }
              printf "%.4f", bits / ((b - a) * 1e7) }' "$tr")
    ugot=$(sed -n "s/^  trace $t $ca:extra=${x}ms: .*link utilisation \([0-9.]*\)$/\1/p" "$tmp/out")
    echo "ns2_study: $ca extra ${x} ms link utilisation $ugot, from the trace $uwant"
    [ -n "$ugot" ] && [ "$ugot" = "$uwant" ] || { echo "FAIL: $ca extra $x ms utilisation '$ugot' != $uwant"; fail=1; }
done
for f in experiment-ratio experiment-jain experiment-throughput experiment-utilisation; do
    [ -s "$tmp/fig/$f.png" ] || { echo "FAIL: no $f.png"; fail=1; }
done
"$bin" -q --ns2 "$tmp/cubic-x10.tr" --plot "$tmp/one" >/dev/null 2>&1
[ -s "$tmp/one/cwnd-all.png" ] || { echo "FAIL: no cwnd-all.png for two ns-2 flows"; fail=1; }
[ $fail -eq 0 ] && echo "ns2_study: passed"
exit $fail
