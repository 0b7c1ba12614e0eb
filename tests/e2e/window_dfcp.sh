#!/usr/bin/env bash
# window_dfcp.sh - --from/--to count DFCP connections as they count TCP ones (issue 14 item 6), on
# the lab's DFCP flows with 2% random loss (samples/dfcp-loss) and with blocks that fail to decode
# (samples/dfcp-fail), at the sender and at the receiver capture, a window of [1, 2] s:
#  - packets, DATA packets, DATA bytes each way, BACK packets and the first and last packet
#    (connections.csv, -l) equal a count over tshark's udp.payload in frame.time_relative [1, 2];
#  - a block counts whole when one of its symbols or its BACK lies within the window: the blocks,
#    their outcomes (from the BACK's DECODE_FAILED flag, wherever the BACK lies), the symbols seen
#    and expected (senders.csv) and dfcp_blocks.csv's rows equal that count over the trace;
#  - throughput is the window's DATA bytes over its first to last DATA, goodput the source bytes
#    (k) of the blocks whose first BACK lies within it, without DECODE_FAILED, over the same time;
#  - the events inside the window are the whole run's, cut to it; a window after the last packet
#    leaves the connection out; the trace summary's window lines count the window's connections and packets (tshark).
# Header offsets from dfcp-wire-format.md (hex digits of udp.payload): type 10, flags 11-12, n
# 13-16, block 17-24, symbol index 25-28, k 33-40.
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v tshark >/dev/null || { echo "window_dfcp: no tshark; skip"; exit 77; }
command -v python3 >/dev/null || { echo "window_dfcp: no python3; skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 ran=0
from=1 to=2

check() {   # what got want
    if [ "$2" = "$3" ]; then echo "ok   $1: $2"; else echo "FAIL $1: got $2, want $3"; fail=1; fi
}

csv_cols() {   # file filter-column filter-value columns...: the rows' cells, quoted CSV read as CSV
    python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r[sys.argv[2]] == sys.argv[3]: print(" ".join(r[c] for c in sys.argv[4:]))' "$@"
}

# every packet of the flow: time since the first packet, epoch time, source port, UDP length,
# payload (cut at the capture's snap length: the sizes come from the UDP length)
fields() {   # file port
    tshark -r "$1" -Y "udp.port == $2" -T fields -e frame.time_relative -e frame.time_epoch \
        -e udp.srcport -e udp.length -e udp.payload 2>/dev/null
}

# packets, DATA packets, DATA bytes (UDP length - 8 - the 20-byte header) each way ("a2b" = from port sport),
# BACK packets b->a, first and last packet, all in [lo, hi]
window_counts() {   # sport lo hi < fields
    awk -v sp="$1" -v lo="$2" -v hi="$3" 'function h(s,  v, i) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
        $1 >= lo && $1 <= hi { d = $3 == sp ? "a" : "b"; p = tolower($5); ty = h(substr(p, 10, 1)); n[d]++
            if (ty == 0) { dp[d]++; db[d] += $4 - 28 } if (ty == 4) back[d]++
            if (!first) first = $2; last = $2 }
        END { printf "%d %d %d %d %d %d %d %s %s\n", n["a"], n["b"], dp["a"], dp["b"], db["a"], db["b"], back["b"], first, last }'
}

# the DFCP summary of the data direction (DATA from sport) counted the program's way, from its
# definition: blocks total, decoded, failed, unacked, symbols seen, expected, dfcp_blocks.csv rows,
# throughput and goodput (bit/s, rounded)
block_counts() {   # sport lo hi < fields
    awk -v sp="$1" -v lo="$2" -v hi="$3" 'function h(s,  v, i) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
        { p = tolower($5); if (substr(p, 9, 1) != "1") next
          ty = h(substr(p, 10, 1)); fl = h(substr(p, 11, 2)); b = h(substr(p, 17, 8)); inw = $1 >= lo && $1 <= hi }
        ty == 0 && $3 == sp { nn = h(substr(p, 13, 4)); ix = h(substr(p, 25, 4)); data[b] = 1; nb[b] = nn
            if (!(b in k)) k[b] = h(substr(p, 33, 8))
            if (ix < nn && !((b, ix) in seen)) { seen[b, ix] = 1; sym[b]++ }
            if (inw) { touched[b] = 1; bytes += $4 - 28; if (!seen0) { seen0 = 1; t0 = $1 } t1 = $1 } }
        ty == 4 && $3 != sp { if (inw) touched[b] = 1
            if (!(b in out)) { out[b] = int(fl / 4) % 2 ? "f" : "d"; if (!(b in k) || !k[b]) k[b] = h(substr(p, 33, 8))
                               if (inw && out[b] == "d") good += k[b] } }
        END { for (b in touched) { tot++; if (out[b] == "d") dec++; else if (out[b] == "f") fai++; else un++
                                   if (data[b]) { ss += sym[b]; se += nb[b] } }
              dur = t1 - t0; thr = 0; gp = 0
              if (dur > 0) { thr = bytes * 8 / dur; gp = good * 8 / dur }
              printf "%d %d %d %d %d %d %d %.0f %.0f\n", tot, dec, fai, un, ss, se, tot, thr, gp }'
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

for s in dfcp-loss dfcp-fail; do
    dir=$src/samples/$s
    [ -f "$dir/manifest.txt" ] || continue
    sport=$(sed -n 's/^flow1_sport=//p' "$dir/manifest.txt")
    dport=$(sed -n 's/^flow1_dport=//p' "$dir/manifest.txt")
    for side in snd1 rcv1; do
        f=$dir/${side}_eth0.pcap
        [ -f "$f" ] || continue
        ran=1
        fields "$f" "$dport" > "$tmp/fields"
        t0=$(tshark -r "$f" -c 1 -T fields -e frame.time_epoch 2>/dev/null)
        rm -rf "$tmp/w" "$tmp/all"
        "$bin" -l --from $from --to $to --csv "$tmp/w" "$f" > "$tmp/long" 2>&1 || { echo "FAIL: exit $?"; fail=1; }
        "$bin" --csv "$tmp/all" "$f" > /dev/null 2>&1 || { echo "FAIL: exit $?"; fail=1; }
        check "$s $side: trace summary in the window" "$(summary_of "$tmp/long")" "$(trace_summary "$f" $from $to)"
        conn=$(csv_cols "$tmp/w/connections.csv" a_port "$sport" conn)
        got=$(csv_cols "$tmp/w/connections.csv" a_port "$sport" a2b_pkts b2a_pkts a2b_data_pkts b2a_data_pkts \
                  a2b_data_bytes b2a_data_bytes)
        back=$(awk '/^DFCP connection/ { c = $3 } c && /BACK pkts:/ { print $NF; exit }' "$tmp/long")
        got="$got $back $(csv_cols "$tmp/w/connections.csv" a_port "$sport" first_s last_s)"
        check "$s $side: pkts, DATA pkts, DATA bytes each way, BACKs, first, last" "$got" \
            "$(window_counts "$sport" $from $to < "$tmp/fields")"
        got=$(csv_cols "$tmp/w/senders.csv" dir a2b dfcp_blocks dfcp_decoded dfcp_failed dfcp_unacked \
                  dfcp_symbols_seen dfcp_symbols_expected)
        got="$got $(($(wc -l < "$tmp/w/dfcp_blocks.csv") - 1))"
        got="$got $(awk '/^\tthroughput:/ { t = $2 } /^\tgoodput:/ { g = $2 } END { print t, g }' "$tmp/long")"
        check "$s $side: blocks, decoded, failed, unacked, symbols seen/expected, block rows, throughput, goodput" \
            "$got" "$(block_counts "$sport" $from $to < "$tmp/fields")"
        tr -d '\r' < "$tmp/all/events.csv" |
            awk -F, -v lo="$t0" -v a=$from -v b=$to 'NR == 1 || ($2 - lo >= a - 1e-9 && $2 - lo <= b + 1e-9)' > "$tmp/ev_cut"
        if cmp -s "$tmp/ev_cut" <(tr -d '\r' < "$tmp/w/events.csv"); then
            echo "ok   $s $side: events in the window = the whole run's cut to it ($(($(wc -l < "$tmp/ev_cut") - 1)))"
        else
            echo "FAIL $s $side: events differ from the whole run's cut to the window"; fail=1
            diff "$tmp/ev_cut" <(tr -d '\r' < "$tmp/w/events.csv") | head -5
        fi
        [ -n "$conn" ] || { echo "FAIL $s $side: no connection in the window"; fail=1; }
    done
    rm -rf "$tmp/late"
    "$bin" --from 100 --csv "$tmp/late" "$dir/snd1_eth0.pcap" > /dev/null 2>&1
    check "$s: connections in a window after the last packet" "$(($(wc -l < "$tmp/late/connections.csv") - 1))" 0
done
[ "$ran" = 1 ] || { echo "window_dfcp: no DFCP samples; skip"; exit 77; }
exit $fail
