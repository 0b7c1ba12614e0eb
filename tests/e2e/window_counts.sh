#!/usr/bin/env bash
# window_counts.sh - --from/--to cut -l, connections.csv and senders.csv, not only the figures
# (issue 14 item 6), on the lab's lossy CUBIC flow (samples/cubic-loss1-owd10, 10 Mbit/s, 1% loss),
# at the sender and at the receiver capture:
#  - packets, data packets and data bytes each way, duplicate ACKs, and the first and last packet
#    inside the window equal tshark's count over frame.time_relative in [FROM, TO];
#  - "rexmt data pkts" inside the window equals an awk count of data segments that start below
#    the highest sequence end sent before them, over every packet of the trace (the definition,
#    with the warm-up before the window), and at the sender the retransmissions by cause add up
#    to the kernel's tcp_retransmit_skb events in the window (tcp_retransmit.csv);
#  - the inference sees every packet: the window run's events.csv is the whole run's, cut to the
#    window;
#  - a connection without packets in the window is left out; --time-base conn counts the window
#    from the connection's own first packet;
#  - senders.csv's setup_s is the handshake's (first SYN to its ACK, from tshark) although the SYN
#    lies before the window;
#  - the trace summary's window lines: its connections, TCP packets, the first and the last, from
#    tshark;
#  - senders.csv's syn_retries counts the SYNs inside the window that are not their direction's
#    first SYN (tshark's SYNs over frame.time_relative): 0 on the lab flow, whose SYN lies before
#    the window, and on the corpus capture suricata-verify/bug-4376/syn_retransmit_with_ts.pcap
#    (a SYN sent again after 1 s) in windows with and without the first SYN (skipped without the
#    corpus).
# Args: $1 binary, $2 corpus dir, $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
corpus=${2:-}
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v tshark >/dev/null || { echo "window_counts: no tshark; skip"; exit 77; }
s=$src/samples/cubic-loss1-owd10
[ -f "$s/snd1_eth0.pcap" ] || { echo "window_counts: no sample $s; skip"; exit 77; }
port=$(sed -n 's/^flow1_sport=//p' "$s/manifest.txt")
[ -n "$port" ] || port=40001
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
from=1 to=2

check() {   # what got want
    if [ "$2" = "$3" ]; then echo "ok   $1: $2"; else echo "FAIL $1: got $2, want $3"; fail=1; fi
}

# tshark's view of the data connection in [lo, hi] seconds after the first packet: packets, data
# packets and bytes, dupacks of direction "src" (tcp.srcport == port) and "dst", first and last time
tshark_counts() {   # file lo hi
    tshark -r "$1" -Y "tcp.port == $port && frame.time_relative >= $2 && frame.time_relative <= $3" \
        -T fields -e tcp.srcport -e tcp.len -e tcp.analysis.duplicate_ack -e frame.time_epoch 2>/dev/null |
        awk -F'\t' -v p="$port" '{ d = $1 == p ? "a2b" : "b2a"; n[d]++; if ($2 > 0) { dp[d]++; db[d] += $2 }
                            if ($3 != "" && $3 != $4) du[d]++
                            if (!first) first = $NF; last = $NF }
            END { printf "%d %d %d %d %d %d %d %d %s %s\n", n["a2b"], n["b2a"], dp["a2b"], dp["b2a"],
                  db["a2b"], db["b2a"], du["a2b"], du["b2a"], first, last }'
}

# data segments of port's direction in [lo, hi] that start below the highest end sent before them:
# "rexmt" when they overlap bytes seen before, "ooo" when they fall into a hole never seen (every
# packet of the trace builds the highest end and the holes); relative sequence numbers from tshark
overlap_count() {   # file lo hi -> rexmt ooo
    tshark -r "$1" -Y "tcp.srcport == $port && tcp.len > 0" -T fields -e frame.time_relative \
        -e tcp.seq -e tcp.len 2>/dev/null |
        awk -v lo="$2" -v hi="$3" '{ start = $2; end = start + $3; inw = $1 >= lo && $1 <= hi
            if (!seen) { seen = 1; top = end; next }
            if (start >= top) { if (start > top) { hl[++nh] = top; hh[nh] = start }; top = end; next }
            e = end < top ? end : top; hole = 0
            for (i = 1; i <= nh; i++) if (hl[i] <= start && e <= hh[i]) hole = i
            if (inw) { if (hole) o++; else r++ }
            for (i = 1; i <= nh; i++) {   # the bytes [start, e) are seen now
                if (e <= hl[i] || start >= hh[i]) continue
                if (start > hl[i] && e < hh[i]) { hl[++nh] = e; hh[nh] = hh[i]; hh[i] = start }
                else if (start <= hl[i] && e >= hh[i]) hh[i] = hl[i]
                else if (start <= hl[i]) hl[i] = e
                else hh[i] = start
            }
            if (end > top) top = end } END { print r + 0, o + 0 }'
}

# the trace summary counts the window too: its connections, TCP and DFCP packets, the first and
# the last of them, from tshark over frame.time_relative (DFCP: UDP port 9253, dfcp-wire-format.md)
trace_summary() {   # file lo hi -> "connections TCP DFCP first last"
    tshark -r "$1" -Y "frame.time_relative >= $2 && frame.time_relative <= $3 && (tcp || udp.port == 9253)" \
        -T fields -e frame.time_epoch -e tcp.stream -e udp.stream 2>/dev/null |
        awk -F'\t' '{ if ($2 != "") { tcp++; s["t" $2] = 1 } else { dfcp++; s["u" $3] = 1 }
                      if (!first) first = $1; last = $1 }
            END { for (k in s) n++; printf "%d %d %d %.6f %.6f\n", n, tcp, dfcp, first, last }'
}
summary_of() {   # long report -> the same from its trace summary's window lines
    awk '/^  within --from/ { on = 1 } on && /^    connections:/ { n = $2 } on && /^    TCP:/ { t = $2 }
         on && /^    DFCP:/ { d = $2 } on && /^    first packet:/ { f = $3 } on && /^    last packet:/ { l = $3 }
         END { print n, t, d, f, l }' "$1"
}

# SYNs (SYN or SYN-ACK) in [lo, hi] (hi empty: to the end) beyond the first SYN of their direction,
# of the directions "a2b" (from port p) and "b2a", from tshark's flags over every packet; "-" for a
# direction without data in the window (senders.csv has no row for it)
syn_retries() {   # file port lo hi
    tshark -r "$1" -Y "tcp.port == $2 && (tcp.flags.syn == 1 || tcp.len > 0)" -T fields -e frame.time_relative \
        -e tcp.srcport -e tcp.flags.syn -e tcp.len 2>/dev/null |
        awk -v p="$2" -v lo="$3" -v hi="$4" '{ d = $2 == p ? "a2b" : "b2a"; inw = $1 >= lo && (hi == "" || $1 <= hi)
            if ($3 == 1 && seen[d]++ && inw) n[d]++
            if ($4 > 0 && inw) data[d] = 1 }
            END { print (data["a2b"] ? n["a2b"] + 0 : "-"), (data["b2a"] ? n["b2a"] + 0 : "-") }'
}
# senders.csv has a row for a direction that sent data in the window: "-" where it has none
senders_syn_retries() {   # senders.csv port -> "a2b b2a" (the rows of the connection of client port)
    python3 -c 'import csv, sys
v = {"a2b": "-", "b2a": "-"}
for r in csv.DictReader(open(sys.argv[1])):
    if r["src_port"] == sys.argv[2] or r["dst_port"] == sys.argv[2]: v[r["dir"]] = r["syn_retries"]
print(v["a2b"], v["b2a"])' "$1" "$2"
}

for side in snd1 rcv1; do
    f=$s/${side}_eth0.pcap
    t0=$(tshark -r "$f" -c 1 -T fields -e frame.time_epoch 2>/dev/null)
    rm -rf "$tmp/w" "$tmp/all"
    "$bin" -l --from $from --to $to --csv "$tmp/w" "$f" > "$tmp/long" 2>&1 || { echo "FAIL: exit $?"; fail=1; }
    "$bin" --csv "$tmp/all" "$f" > /dev/null 2>&1 || { echo "FAIL: exit $?"; fail=1; }
    check "$side: trace summary in the window" "$(summary_of "$tmp/long")" "$(trace_summary "$f" $from $to)"
    conns=$(tr -d '\r' < "$tmp/w/connections.csv")
    row=$(echo "$conns" | awk -F, -v p="$port" '$4 == p')
    check "$side: connections in the window" "$(echo "$conns" | awk 'NR > 1' | wc -l)" \
        "$(tshark -r "$f" -Y "frame.time_relative >= $from && frame.time_relative <= $to" -T fields \
             -e tcp.stream 2>/dev/null | sort -u | grep -c .)"
    # connections.csv: first_s 7, last_s 8, pkts 10 11, data_pkts 12 13, data_bytes 14 15,
    # rexmit_pkts 18 19, dupacks 22 23
    got=$(echo "$row" | awk -F, '{ printf "%s %s %s %s %s %s %s %s %s %s\n", $10, $11, $12, $13, $14, $15, $22, $23, $7, $8 }')
    check "$side: pkts, data pkts, data bytes, dupacks, first, last" "$got" "$(tshark_counts "$f" $from $to)"
    check "$side: rexmt data pkts (overlap), outoforder pkts" "$(echo "$row" | awk -F, '{ print $18, $24 }')" \
        "$(overlap_count "$f" $from $to)"
    # setup_s describes the handshake, which lies before the window: the first SYN to the
    # handshake's ACK (the first packet of side a with ACK and without SYN after a SYN-ACK)
    hs=$(tshark -r "$f" -Y "tcp.port == $port && tcp.flags.syn == 1 || tcp.srcport == $port && tcp.flags.ack == 1" \
            -T fields -e frame.time_epoch -e tcp.srcport -e tcp.flags.syn -e tcp.flags.ack 2>/dev/null |
        awk -v p="$port" '$2 == p && $3 == 1 && $4 == 0 && !syn { syn = $1 } $2 != p && $3 == 1 && $4 == 1 { sa = 1 }
                          $2 == p && $3 == 0 && sa && !ack { ack = $1 } END { printf "%.6f\n", ack - syn }')
    check "$side: senders.csv setup_s (SYN before the window)" \
        "$(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["conn"] == sys.argv[2] and r["dir"] == "a2b": print(r["setup_s"])' "$tmp/w/senders.csv" "$(echo "$row" | cut -d, -f1)")" "$hs"
    lp=$(awk '/^TCP connection/ { c = $3 } c && /total packets:/ && NF == 3 { print c, $3; exit }' "$tmp/long")
    check "$side: -l total packets" "$lp" "$(echo "$row" | awk -F, '{ print $1 ":", $10 + $11 }')"
    # the inference unchanged: the whole run's events inside the window are the window run's
    tr -d '\r' < "$tmp/all/events.csv" |
        awk -F, -v lo="$t0" -v a=$from -v b=$to 'NR == 1 || ($2 - lo >= a - 1e-9 && $2 - lo <= b + 1e-9)' > "$tmp/ev_cut"
    if cmp -s "$tmp/ev_cut" <(tr -d '\r' < "$tmp/w/events.csv"); then
        echo "ok   $side: events in the window = the whole run's events cut to it ($(($(wc -l < "$tmp/ev_cut") - 1)))"
    else
        echo "FAIL $side: events differ from the whole run's cut to the window"; fail=1
        diff "$tmp/ev_cut" <(tr -d '\r' < "$tmp/w/events.csv") | head -5
    fi
    # the handshake lies before the window: no SYN retry in it (only a2b carries data)
    got=$(senders_syn_retries "$tmp/w/senders.csv" "$port")
    check "$side: senders.csv syn_retries a2b b2a in the window" "$got" \
        "$(syn_retries "$f" "$port" $from $to)"
    if [ $side = snd1 ]; then
        # the kernel's retransmissions in the window (none within 2 ms of its edges: the capture
        # sees a segment microseconds after tcp_retransmit_skb)
        kern=$(awk -F, -v lo="$t0" -v a=$from -v b=$to -v p="$port" 'NR > 1 && $4 == p && $8 == 0 {
                   t = $1 - lo; if ((t > a - 0.002 && t < a + 0.002) || (t > b - 0.002 && t < b + 0.002)) edge = 1
                   if (t >= a && t <= b) n++ } END { print edge ? "edge" : n + 0 }' "$s/tcp_retransmit.csv")
        ours=$(awk '/^TCP connection/ { c = $3 } c == "'"$(echo "$row" | cut -d, -f1)"':" && /retransmissions:/ && /fast/ {
                    gsub(/[,;]/, ""); print $3 + $5 + $7; exit }' "$tmp/long")
        check "$side: retransmissions in the window (fast + timeout + other) = kernel's" "$ours" "$kern"
        # a window from the connection's own first packet
        c0=$(tshark -r "$f" -Y "tcp.port == $port" -T fields -e frame.time_relative 2>/dev/null | head -1)
        rm -rf "$tmp/c"
        "$bin" --time-base conn --from $from --to $to --csv "$tmp/c" "$f" > /dev/null 2>&1 || { echo "FAIL: exit $?"; fail=1; }
        got=$(tr -d '\r' < "$tmp/c/connections.csv" | awk -F, -v p="$port" '$4 == p { printf "%s %s %s %s %s %s %s %s %s %s\n", $10, $11, $12, $13, $14, $15, $22, $23, $7, $8 }')
        check "$side: --time-base conn window" "$got" \
            "$(tshark_counts "$f" "$(awk -v a=$from -v c="$c0" 'BEGIN { printf "%.9f", a + c }')" \
                 "$(awk -v b=$to -v c="$c0" 'BEGIN { printf "%.9f", b + c }')")"
    fi
done

# a SYN sent again: the client's second SYN at 0.999996 s, with the SYN-ACK; data to 1.9996 s
# (the server sends data, the client a 135-byte request, so both directions have a row)
sf=$corpus/suricata-verify/bug-4376/syn_retransmit_with_ts.pcap
if [ -n "$corpus" ] && [ -f "$sf" ]; then
    sp=33372
    for w in ":" "0.5:" "1.5:" "0.5:1.5"; do
        lo=${w%%:*} hi=${w#*:}
        rm -rf "$tmp/syn"
        "$bin" ${lo:+--from $lo} ${hi:+--to $hi} --csv "$tmp/syn" "$sf" > /dev/null 2>&1 || { echo "FAIL: exit $?"; fail=1; }
        got=$(senders_syn_retries "$tmp/syn/senders.csv" $sp)
        check "syn_retransmit_with_ts window [$w]: senders.csv syn_retries a2b b2a" "$got" \
            "$(syn_retries "$sf" $sp "${lo:-0}" "$hi")"
    done
else
    echo "skip syn_retransmit_with_ts: no corpus"
fi
exit $fail
