#!/usr/bin/env bash
# multi_receivers.sh - the numbers behind the gallery's "receivers of different kernels" figures
# (docs/figures.md): samples/dumbbell-cubic-oldrcv, two CUBIC flows through one 10 Mbit/s
# bottleneck (RTT 80 ms), flow 1's receiver this kernel's defaults, flow 2's without RFC 1323's
# options (net.ipv4.tcp_window_scaling=0, tcp_timestamps=0: a 64 KB window at most, as kernels
# before window scaling had), read as the gallery reads them (both sender captures, one run):
#  - the receivers differ as configured: flow 2's SYN-ACK carries no window scale and no time
#    stamp option, flow 1's both (tshark);
#  - the advertised window drawn in the inflight figures (series rwnd_bytes: its changes) equals
#    tshark's tcp.window_size of the receiver's packets at every change (the SYN-ACK's unscaled
#    window and the final RST's 0 are no advertisement of the connection's window); flow 2's never
#    exceeds 65535 bytes;
#  - the inflight figures' "largest N B in flight" (the largest inflight_bytes) equals tshark's
#    largest tcp.analysis.bytes_in_flight, and flow 2's is within its receiver's largest window;
#  - the throughput figure's steps (series throughput_bps, 100 ms intervals ending at multiples of
#    100 ms) equal tshark's payload bytes of the flow's data segments in each interval * 80; an
#    interval is drawn once a data segment or an ACK of the connection comes after its end, so the
#    one still open at the last of them is not (its rate would count a part of 100 ms; the iperf3
#    receiver's closing RSTs carry no ACK).
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v tshark >/dev/null || { echo "multi_receivers: no tshark; skip"; exit 77; }
dir=$src/samples/dumbbell-cubic-oldrcv
[ -f "$dir/snd2_eth0.pcap" ] || { echo "multi_receivers: no sample $dir; skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

check() {   # what got want
    if [ "$2" = "$3" ]; then echo "ok   $1: $2"; else echo "FAIL $1: got $2, want $3"; fail=1; fi
}

"$bin" -q --csv "$tmp/c" "$dir/snd1_eth0.pcap" "$dir/snd2_eth0.pcap" >/dev/null 2>&1 || { echo "FAIL: exit $?"; fail=1; }
tr -d '\r' < "$tmp/c/series.csv" > "$tmp/series"
for f in 1 2; do
    cp=$(sed -n "s/^flow${f}_sport=//p" "$dir/manifest.txt")
    sp=$(sed -n "s/^flow${f}_dport=//p" "$dir/manifest.txt")
    pcap=$dir/snd${f}_eth0.pcap
    conn=$(tr -d '\r' < "$tmp/c/connections.csv" | awk -F, -v p="$cp" '$4 == p { print $1 }')
    opts=$(tshark -r "$pcap" -Y "tcp.srcport == $sp && tcp.dstport == $cp && tcp.flags.syn == 1" -T fields \
               -e tcp.options.wscale.shift -e tcp.options.timestamp.tsval 2>/dev/null |
           awk -F'\t' '{ print ($1 == "" ? "no-wscale" : "wscale"), ($2 == "" ? "no-ts" : "ts") }')
    check "flow $f: the receiver's SYN-ACK options" "$opts" "$([ $f = 1 ] && echo "wscale ts" || echo "no-wscale no-ts")"
    # the advertised window at each change, ours and tshark's
    awk -F, -v c="$conn" '$1 == c && $2 == "a2b" && $3 == "rwnd_bytes" { v = $5 + 0; if (v != last) print $4, v; last = v }' \
        "$tmp/series" > "$tmp/rw_ours"
    tshark -r "$pcap" -Y "tcp.srcport == $sp && tcp.dstport == $cp && tcp.flags.syn == 0 && tcp.flags.reset == 0" \
        -T fields -e frame.time_epoch -e tcp.window_size 2>/dev/null |
        awk '$2 != last { print $1, $2; last = $2 }' > "$tmp/rw_ts"
    if cmp -s "$tmp/rw_ours" "$tmp/rw_ts"; then
        echo "ok   flow $f: advertised window at its $(wc -l < "$tmp/rw_ts") changes = tshark's," \
             "largest $(sort -k2 -n "$tmp/rw_ts" | tail -1 | cut -d' ' -f2)"
    else
        echo "FAIL flow $f: advertised window differs from tshark's"; fail=1
        diff "$tmp/rw_ours" "$tmp/rw_ts" | head -5
    fi
    rwmax=$(sort -k2 -n "$tmp/rw_ts" | tail -1 | cut -d' ' -f2)
    [ $f = 1 ] || [ "${rwmax:-70000}" -le 65535 ] || { echo "FAIL flow 2: a window of $rwmax without scaling"; fail=1; }
    # the largest data in flight
    ours=$(awk -F, -v c="$conn" '$1 == c && $2 == "a2b" && $3 == "inflight_bytes" && $5 + 0 > m { m = $5 + 0 } END { print m }' "$tmp/series")
    theirs=$(tshark -r "$pcap" -Y "tcp.srcport == $cp && tcp.dstport == $sp" -T fields -e tcp.analysis.bytes_in_flight \
                 2>/dev/null | sort -n | tail -1)
    check "flow $f: largest bytes in flight" "$ours" "$theirs"
    [ $f = 1 ] || [ "${ours:-70000}" -le "${rwmax:-0}" ] || { echo "FAIL flow 2: $ours in flight above the window $rwmax"; fail=1; }
    # throughput per 100 ms interval (the interval's end in whole 100 ms of the epoch)
    awk -F, -v c="$conn" '$1 == c && $2 == "a2b" && $3 == "throughput_bps" { printf "%.1f %.0f\n", $4, $5 }' \
        "$tmp/series" > "$tmp/tp_ours"
    last=$(tshark -r "$pcap" -Y "tcp.port == $cp && tcp.port == $sp && tcp.flags.reset == 0" -T fields \
               -e frame.time_epoch 2>/dev/null | tail -1)
    tshark -r "$pcap" -Y "tcp.srcport == $cp && tcp.dstport == $sp && tcp.len > 0" -T fields -e frame.time_epoch \
        -e tcp.len 2>/dev/null |
        awk -v last="$last" '{ split($1, t, "."); k = t[1] * 10 + substr(t[2], 1, 1) + 1   # (keys as integers: awk names
               b[sprintf("%.0f", k)] += $2; if (!lo || k < lo) lo = k; if (k > hi) hi = k }   # 1.8e10 "1.79655e+10")
             END { for (k = lo; k <= hi && k / 10 <= last; k++) printf "%.1f %.0f\n", k / 10, b[sprintf("%.0f", k)] * 80 }' \
        > "$tmp/tp_ts"
    n=$(wc -l < "$tmp/tp_ts")
    # ours may add empty intervals at either end (from the connection's first and last packet)
    if awk 'NR == FNR { w[$1] = $2; next } { if (!($1 in w)) { if ($2 != 0) bad = 1 } else if (w[$1] != $2) bad = 1; seen[$1] = 1 }
            END { for (k in w) if (!(k in seen)) bad = 1; exit bad }' "$tmp/tp_ts" "$tmp/tp_ours"; then
        echo "ok   flow $f: throughput in $n intervals = tshark's bytes per interval," \
             "mean $(awk '{ s += $2 } END { printf "%.2f", s / NR / 1e6 }' "$tmp/tp_ts") Mbit/s"
    else
        echo "FAIL flow $f: throughput per interval differs from tshark's"; fail=1
        join -a1 -a2 -e X -o 0,1.2,2.2 "$tmp/tp_ours" "$tmp/tp_ts" | awk '$2 != $3' | head -5
    fi
done
exit $fail
