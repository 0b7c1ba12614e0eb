#!/usr/bin/env bash
# accuracy.sh - grade the TCP inference against the kernel's ground truth on every lab sample,
# at the sender's, the routers' and the receiver's capture: one line per (sample, capture, flow).
#   tests/accuracy/accuracy.sh [BINARY] [SAMPLES_DIR]
# Columns: cwnd error median/p90 over window-limited ACKs, smoothed RTT error median/p90,
# fast-recovery and timeout episodes (kernel/ours/matched), retransmissions (kernel/ours),
# retransmission causes matched (same cause as the kernel's state / all kernel retransmissions).
set -u
bin=${1:-build/tcptrace-ng}
samples=${2:-samples}
printf '%-22s %-15s %5s %13s %13s %11s %9s %9s %7s\n' sample capture conn "cwnd med/p90" "rtt med/p90" \
    "recov k/o/m" "rto k/o/m" "rexmit k/o" "causes"
for dir in "$samples"/*/; do
    name=$(basename "$dir")
    [ -f "$dir/tcp_probe.csv" ] || continue
    for cap in "$dir"/snd*_eth0.pcap "$dir"/rtr*.pcap "$dir"/rcv*_eth0.pcap; do
        [ -f "$cap" ] || continue
        "$bin" -q --truth "$dir/tcp_probe.csv" "$cap" 2>/dev/null | awk -v s="$name" -v c="$(basename "$cap" .pcap)" '
            /^  connection [0-9]+ .* sender:/ { if (conn != "") out(); conn = $2; lim = $(NF-1); cw = "-"; rt = "-"; rec = ""; rto = ""; rx = ""; ok = 0; tot = 0; row = 0 }
            /cwnd estimate error \(all\)/ { cw = ($5 == "-" || NF < 6) ? "-" : $6 "/" $8 }
            /smoothed RTT error/ { rt = (NF < 9) ? "-" : $7 "/" $9 }
            /fast recovery episodes/ { rec = $5 "/" $7 "/" $9; gsub(/[,;]/, "", rec) }
            /timeout \(Loss\) episodes/ { rto = $5 "/" $7 "/" $9; gsub(/[,;]/, "", rto) }
            /retransmissions:/ { rx = $3 "/" $5; gsub(/,/, "", rx) }
            /^      (fast|timeout|other) / { row++; for (i = 2; i <= 5; i++) tot += $i; ok += $(row + 1) }
            function out() { if (lim + 0 > 0) printf "%-22s %-15s %5s %13s %13s %11s %9s %9s %7s\n", s, c, conn, cw, rt, rec, rto, rx, ok "/" tot }
            END { if (conn != "") out() }'
    done
done
