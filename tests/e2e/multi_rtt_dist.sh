#!/usr/bin/env bash
# multi_rtt_dist.sh - the RTT samples behind the figures rtt-cdf and rtt-hist (each flow's series
# rtt_ms, series.csv: render_fig_flows.c draws exactly these, cut to the view's window) against
# tshark's tcp.analysis.ack_rtt at the sender capture, on the two flows of the gallery's dumbbell
# (samples/dumbbell-cubic-rtt, RTT 10 and 90 ms), the lossy CUBIC flow (cubic-loss1-owd10, SACK)
# and Reno without SACK with a timeout (reno-smallq).
# Definitions and how they are made equal:
#  - tshark times every ACK that acknowledges exactly the end of a data segment, from that
#    segment's first transmission, retransmitted or not; we keep Karn's rule (RFC 6298 §3: no
#    sample from an ACK that covers retransmitted data).  So tshark's samples are filtered here: an
#    ACK is left out when the bytes it newly acknowledges, [previous cumulative ACK, its ACK),
#    overlap a segment sent again before it (data starting below the highest end sent before it,
#    counted over every packet).  The receiver's SYN-ACK (tshark times the SYN) is left out too.
#  - ours is the monitor -> receiver -> monitor time plus the monitor -> sender -> monitor half
#    (RFC 7323 §4 TSval echoes: the time from the receiver's ACK carrying a TSval to the sender's
#    first segment echoing it; the handshake's SYN-ACK -> ACK before the first echo), a smoothed
#    (EWMA) value of those echo times.  At the sender's own interface that half is the host's
#    turnaround, and a mean of the echo times is never above their largest, M, computed here from
#    tshark's TSval/TSecr fields.  So each of our samples must lie within [tshark's, tshark's + M]
#    (+-0.5 us: series.csv has 3 decimals), for the same ACKs: the counts are equal and every
#    sample pairs with tshark's at the same ACK time; the median and the 90th percentile (nearest
#    rank), the figures' numbers, then differ by 0..M too.
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v tshark >/dev/null || { echo "multi_rtt_dist: no tshark; skip"; exit 77; }
command -v python3 >/dev/null || { echo "multi_rtt_dist: no python3; skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 ran=0

# tshark's Karn-filtered samples "epoch ms" and, on the last line, "M ms"; fields in capture order
tshark_rtt() {   # file client-port server-port
    tshark -r "$1" -Y "tcp.port == $2 && tcp.port == $3" -T fields -e frame.time_epoch -e tcp.srcport \
        -e tcp.seq -e tcp.len -e tcp.ack -e tcp.flags.syn -e tcp.analysis.ack_rtt \
        -e tcp.options.timestamp.tsval -e tcp.options.timestamp.tsecr 2>/dev/null |
        awk -F'\t' -v cp="$2" '
        $2 == cp {   # the sender: data (retransmitted when it starts below the highest end), echoes
            if ($6 == 1) next
            if ($4 > 0) { s = $3; e = $3 + $4; if (s < top) { rs[++nr] = s; re[nr] = e } if (e > top) top = e }
            if (hs_t != "" && !hs_done) { hs_done = 1; if ($1 - hs_t > m) m = $1 - hs_t }
            if ($9 in tv) { d = $1 - tv[$9]; delete tv[$9]; if (d > m) m = d }
            next }
        {            # the receiver: ACKs, their TSvals (the first packet carrying each is timed)
            if ($6 == 1) { hs_t = $1; next }
            if ($8 != "" && !($8 in used)) { used[$8] = 1; tv[$8] = $1 }
            a = $5; if (!acked) { una = 1; acked = 1 }   # above the SYN
            if ($7 != "" && a > una) {
                karn = 0; for (i = 1; i <= nr; i++) if (rs[i] < a && re[i] > una) karn = 1
                if (!karn) printf "%s %.6f\n", $1, $7 * 1000 }
            if (a > una) una = a }
        END { printf "M %.6f\n", m * 1000 }'
}

quantiles() {   # sorted values on stdin -> "n median p90" (nearest rank: ceil(q n))
    awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2); p = int(0.9 * NR); if (p < 0.9 * NR) p++
                              printf "%d %.3f %.3f\n", NR, v[m], v[p] }'
}

for spec in dumbbell-cubic-rtt:snd1:1 dumbbell-cubic-rtt:snd2:2 cubic-loss1-owd10:snd1:1 reno-smallq:snd1:1; do
    IFS=: read -r s side flow <<< "$spec"
    dir=$src/samples/$s
    f=$dir/${side}_eth0.pcap
    [ -f "$f" ] || continue
    ran=1
    cp=$(sed -n "s/^flow${flow}_sport=//p" "$dir/manifest.txt")
    sp=$(sed -n "s/^flow${flow}_dport=//p" "$dir/manifest.txt")
    rm -rf "$tmp/c"
    "$bin" -q --csv "$tmp/c" "$f" >/dev/null 2>&1 || { echo "FAIL $s $side: exit $?"; fail=1; }
    conn=$(tr -d '\r' < "$tmp/c/connections.csv" | awk -F, -v p="$cp" '$4 == p { print $1 }')
    tr -d '\r' < "$tmp/c/series.csv" | awk -F, -v c="$conn" '$1 == c && $2 == "a2b" && $3 == "rtt_ms" { print $4, $5 }' \
        > "$tmp/ours"
    tshark_rtt "$f" "$cp" "$sp" > "$tmp/ts_all"
    m=$(awk '$1 == "M" { print $2 }' "$tmp/ts_all")
    grep -v '^M ' "$tmp/ts_all" > "$tmp/theirs"
    # pairs by ACK time: unpaired samples on either side, and the largest differences
    read -r only_ours only_theirs dmin dmax < <(join -a1 -a2 -e X -o 0,1.2,2.2 <(sort "$tmp/ours") <(sort "$tmp/theirs") |
        awk '$2 == "X" { t++ } $3 == "X" { o++ } $2 != "X" && $3 != "X" { d = $2 - $3; if (n++ == 0 || d < lo) lo = d
                                                                          if (n == 1 || d > hi) hi = d }
             END { printf "%d %d %.4f %.4f\n", o, t, lo, hi }')
    read -r n1 med1 p901 < <(awk '{ print $2 }' "$tmp/ours" | sort -g | quantiles)
    read -r n2 med2 p902 < <(awk '{ print $2 }' "$tmp/theirs" | sort -g | quantiles)
    echo "multi_rtt_dist: $s $side conn $conn: ours n $n1 median $med1 p90 $p901 ms; tshark (Karn) n $n2" \
         "median $med2 p90 $p902 ms; unpaired $only_ours ours / $only_theirs tshark; ours - tshark in [$dmin, $dmax]," \
         "M = $m ms"
    [ "$n1" -gt 100 ] && [ "$n1" = "$n2" ] && [ "$only_ours" = 0 ] && [ "$only_theirs" = 0 ] ||
        { echo "FAIL $s $side: the samples are not tshark's (Karn) ACKs"; fail=1; }
    awk -v lo="$dmin" -v hi="$dmax" -v m="$m" -v a="$med1" -v b="$med2" -v c="$p901" -v d="$p902" \
        'function in_(x) { return x >= -0.0015 && x <= m + 0.0015 }
         BEGIN { exit !(in_(lo) && in_(hi) && in_(a - b) && in_(c - d)) }' ||
        { echo "FAIL $s $side: ours - tshark outside [0, M = $m ms]"; fail=1; }
done
[ "$ran" = 1 ] || { echo "multi_rtt_dist: no samples; skip"; exit 77; }
[ $fail -eq 0 ] && echo "multi_rtt_dist: passed"
exit $fail
