#!/usr/bin/env bash
# multi_flow_identity.sh - an experiment keeps each flow's identity when the flows start in a
# different order in each trace (samples/dumbbell-cubic-rtt, two CUBIC flows of 10 and 90 ms RTT):
#   trace 1: snd1 then snd2 as they were captured;
#   trace 2: the same run with snd1 shifted 2 s later (editcap -t) and merged by time (mergecap),
#            so flow 2 starts first and gets the lower connection numbers;
#   trace 3: the files given the other way round (F2,F1).
# Checks, against values computed here from tshark's fields of the data connections named in the
# manifest (flowi_src_addr, flowi_dst_addr:flowi_dport, flowi_sport):
#  - every trace has exactly two rows (the iperf3 control connections carry under 1% of the data);
#  - the row of flow "SRC>DST:DPORT" carries that flow's throughput (payload bytes * 8 / (last -
#    first packet)) in every trace, whatever its connection number;
#  - --flow NAME=SPEC names them in every trace, by terms and by BPF filters; a bad --flow SPEC is
#    a usage error (exit 1).
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
s=$src/samples/dumbbell-cubic-rtt
[ -f "$s/snd1_eth0.pcap" ] && [ -f "$s/snd2_eth0.pcap" ] || { echo "multi_flow_identity: no sample; skip"; exit 77; }
for t in tshark editcap mergecap; do
    command -v $t >/dev/null || { echo "multi_flow_identity: no $t; skip"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
m() { sed -n "s/^$1=//p" "$s/manifest.txt"; }

editcap -t 2 "$s/snd1_eth0.pcap" "$tmp/snd1_late.pcap" >/dev/null
mergecap -w "$tmp/late.pcap" "$tmp/snd1_late.pcap" "$s/snd2_eth0.pcap"
"$bin" --experiment "run=1=$s/snd1_eth0.pcap,$s/snd2_eth0.pcap" --experiment "run=2=$tmp/late.pcap" \
    --experiment "run=3=$s/snd2_eth0.pcap,$s/snd1_eth0.pcap" --csv "$tmp/exp" >"$tmp/out" 2>"$tmp/err" ||
    { echo "FAIL: exit $?: $(cat "$tmp/err")"; exit 1; }
tr -d '\r' <"$tmp/exp/experiment.csv" >"$tmp/exp.csv"
want_hdr="trace,label,conn,proto,a_addr,a_port,b_addr,b_port,goodput_bps,throughput_bps,rexmit_pkts,rtt_ms_avg,jain_index,flow"
[ "$(head -1 "$tmp/exp.csv")" = "$want_hdr" ] || { echo "FAIL: header $(head -1 "$tmp/exp.csv")"; fail=1; }
for t in 1 2 3; do
    n=$(awk -F, -v t=$t 'NR > 1 && $1 == t' "$tmp/exp.csv" | wc -l)
    [ "$n" -eq 2 ] || { echo "FAIL: trace $t has $n rows, want the 2 data connections"; fail=1; }
done
# in trace 2 flow 2 starts first: it must have the lower connection number there
c1=$(awk -F, -v f="$(m flow1_src_addr)>$(m flow1_dst_addr):$(m flow1_dport)" 'NR > 1 && $1 == 2 && $14 == f { print $3 }' "$tmp/exp.csv")
c2=$(awk -F, -v f="$(m flow2_src_addr)>$(m flow2_dst_addr):$(m flow2_dport)" 'NR > 1 && $1 == 2 && $14 == f { print $3 }' "$tmp/exp.csv")
[ -n "$c1" ] && [ -n "$c2" ] && [ "$c2" -lt "$c1" ] || { echo "FAIL: trace 2 should number flow 2 ($c2) before flow 1 ($c1)"; fail=1; }

for i in 1 2; do
    key="$(m flow${i}_src_addr)>$(m flow${i}_dst_addr):$(m flow${i}_dport)"
    want=$(tshark -r "$s/snd${i}_eth0.pcap" -Y "tcp.port == $(m flow${i}_sport)" -T fields -e frame.time_epoch \
        -e tcp.len 2>/dev/null | sed 's/\./ /' | awk '{ t = ($1 - 1796000000) * 1e9 + substr($2 "000000000", 1, 9)
            if (n++ == 0) f = t; l = t; b += $3 } END { printf "%.1f", b * 8 / ((l - f) / 1e9) }')
    for t in 1 2 3; do
        got=$(awk -F, -v t=$t -v f="$key" 'NR > 1 && $1 == t && $14 == f { print $10 }' "$tmp/exp.csv")
        echo "multi_flow_identity: trace $t flow $key throughput $got (tshark $want)"
        awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= 1e-6 * b + 0.1) }' ||
            { echo "FAIL: trace $t flow $key throughput '$got' != $want"; fail=1; }
    done
done

# names by rule, and the ratio figure names the flows it divides
"$bin" --flow "short=client=$(m flow1_src_addr)" --flow "long=server=$(m flow2_dst_addr):$(m flow2_dport)" \
    --experiment "run=1=$tmp/late.pcap" --experiment "run=2=$s/snd1_eth0.pcap,$s/snd2_eth0.pcap" \
    --csv "$tmp/named" --plot "$tmp/fig" >/dev/null 2>&1
names=$(tr -d '\r' <"$tmp/named/experiment.csv" | awk -F, 'NR > 1 { printf "%s:%s ", $1, $14 }')
[ "$names" = "1:long 1:short 2:short 2:long " ] || { echo "FAIL: --flow names '$names'"; fail=1; }
for f in goodput throughput rexmit rtt jain ratio; do
    [ -s "$tmp/fig/experiment-$f.png" ] || { echo "FAIL: no experiment-$f.png"; fail=1; }
done
# the same names by BPF filters: one on the client's address, one on flow 2's ephemeral port
"$bin" --flow "short=src host $(m flow1_src_addr) and tcp" --flow "long=tcp src port $(m flow2_sport)" \
    --experiment "run=1=$tmp/late.pcap" --experiment "run=2=$s/snd1_eth0.pcap,$s/snd2_eth0.pcap" \
    --csv "$tmp/bpf" >/dev/null 2>&1
names=$(tr -d '\r' <"$tmp/bpf/experiment.csv" | awk -F, 'NR > 1 { printf "%s:%s ", $1, $14 }')
[ "$names" = "1:long 1:short 2:short 2:long " ] || { echo "FAIL: --flow BPF names '$names'"; fail=1; }
"$bin" --flow "bad=color=blue" --experiment "a=$s/snd1_eth0.pcap" >/dev/null 2>"$tmp/bad"
[ $? -eq 1 ] && grep -q "color=blue" "$tmp/bad" || { echo "FAIL: a bad --flow SPEC is a usage error"; fail=1; }
"$bin" --flow "bad=client=10.0.0.1,color=blue" --experiment "a=$s/snd1_eth0.pcap" >/dev/null 2>"$tmp/bad"
[ $? -eq 1 ] && grep -q "term 'color=blue'" "$tmp/bad" || { echo "FAIL: a bad --flow term is a usage error"; fail=1; }
"$bin" --flow "eth=ether host 00:11:22:33:44:55" --experiment "a=$s/snd1_eth0.pcap" >/dev/null 2>"$tmp/bad"
[ $? -eq 1 ] && grep -q "IP headers" "$tmp/bad" || { echo "FAIL: a link-layer --flow filter is a usage error"; fail=1; }
[ $fail -eq 0 ] && echo "multi_flow_identity: passed"
exit $fail
