#!/bin/bash
# tui_replay: the dashboard replays samples/loopback-iperf3.pcap in tmux; when the trace ends the
# table shows the offline report's numbers (packets each way, state, goodput = the report's
# throughput, RTT average, retransmissions); the detail, fairness, event and help views show
# what they should; the layout survives a resize to 80x24 and TERM=vt100; q prints the final
# report, identical to the offline connection list.
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
BIN=$1 SRC=$3
SAMPLE=$SRC/samples/loopback-iperf3.pcap
command -v tmux >/dev/null || { echo "SKIP: tmux not installed"; exit 77; }
[ -f "$SAMPLE" ] || { echo "SKIP: $SAMPLE missing"; exit 77; }
TMP=$(mktemp -d)
SOCK=$TMP/tmux.sock
T="tmux -S $SOCK"
cleanup() { $T kill-server 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- screen ---"; cat "$TMP/screen" 2>/dev/null; exit 1; }
UTF=C.UTF-8
locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || UTF=en_US.UTF-8

# The offline report: the numbers the dashboard must show.
"$BIN" -l "$SAMPLE" > "$TMP/offline" || fail "offline run failed"

# Expected table cells per connection, computed from the offline long report.
awk '
function si(v,   p) {
    split("k M G T P", pf, " "); p = 0
    while (v >= 999.5 && p < 5) { v /= 1000; p++ }
    if (p == 0) return sprintf("%.0f", v)
    if (v < 9.995) return sprintf("%.2f%s", v, pf[p])
    if (v < 99.95) return sprintf("%.1f%s", v, pf[p])
    return sprintf("%.0f%s", v, pf[p])
}
/^TCP connection [0-9]+:/ { c = $3 + 0; sub(/:/, "", c); n = c }
/^   *[0-9]+: / && !inlong { split($0, f, " "); i = f[1] + 0; pa[i] = f[6]; pb[i] = f[7]; st[i] = f[8];
    sub(/>/, "", pa[i]); sub(/</, "", pb[i]) }
/^====/ { inlong = 1 }
/data bytes:/ { db[n, 0] = $3; db[n, 1] = $6 }

/throughput \(bit\/s\):/ { tp[n, 0] = $3; tp[n, 1] = $6 }
/a->b sender:/ { snd = 0 } /b->a sender:/ { snd = 1 }
/RTT min\/avg\/max:/ { split($0, r, "/"); rtt[n, snd] = r[4] + 0 }
/retransmissions:/ { gsub(/[,;]/, ""); fast += $3; rto += $5; rx[n] += $3 + $5 + $7 }
END {
    for (i = 1; i in pa; i++) {
        m = (db[i, 1] + 0 > db[i, 0] + 0) ? 1 : 0
        printf "%d %s %s %s %s %s %d\n", i, pa[i], pb[i], st[i], si(tp[i, m]), rtt[i, m], rx[i]
    }
    printf "EVENTS %d %d\n", fast, rto
}' "$TMP/offline" > "$TMP/expect"
# fairness: the report's fairness section (significant connections only: the iperf3 control
# connection is left out), its index to the dashboard's 3 decimals
"$BIN" -q --fairness-by conn "$SAMPLE" | awk '/^Fairness \(by conn, / { n = $4 + 0 }
    /Jain.s fairness index:/ { printf "JAIN %.3f %d\n", $4, n }' >> "$TMP/expect"
echo "expected (idx pkts_a pkts_b state goodput rtt_ms rexmt):"; cat "$TMP/expect"
grep -c . "$TMP/expect" | grep -q '^4$' || fail "could not read the offline report"

wait_for() {   # pattern, seconds
    for _ in $(seq 1 $(( $2 * 10 ))); do
        $T capture-pane -p -t tui > "$TMP/screen" 2>/dev/null
        grep -q -- "$1" "$TMP/screen" && return 0
        sleep 0.1
    done
    return 1
}
# A new session replaces the old one only once it runs: killing the server's last session first
# makes the server exit, and a client that connects meanwhile gets "server exited unexpectedly".
next_session() {
    $T rename-session -t tui old && $T new-session -d -s tui "$@" && $T kill-session -t old
}
screen() { sleep 0.6; $T capture-pane -p -t tui > "$TMP/screen"; }

$T new-session -d -s tui -x 160 -y 40 \
    "env LC_ALL=$UTF TERM=xterm-256color $BIN --tui --replay=2 $SAMPLE; echo TN_EXIT=\$?; sleep 60"
wait_for "t=" 10 || fail "the dashboard did not start"
grep -q "replay loopback-iperf3.pcap x2" "$TMP/screen" || fail "title does not name the replay"
wait_for "END OF TRACE" 20 || fail "the replay did not reach the end of the trace"
screen

# 1. the table equals the offline report
while read -r i pa pb st gp rtt rx; do
    [ "$i" = JAIN ] || [ "$i" = EVENTS ] && continue
    row=$(awk -v i="$i" '$1 == i && $2 == "tcp" { print; exit }' "$TMP/screen")
    [ -n "$row" ] || fail "no table row for connection $i"
    set -- $row   # idx proto a > b state pkts_a pkts_b now goodput rtt cwnd rexmt episode
    [ "$6" = "$st" ] || fail "conn $i state '$6', report says '$st'"
    [ "$7" = "$pa" ] && [ "$8" = "$pb" ] || fail "conn $i packets $7/$8, report says $pa/$pb"
    [ "${10}" = "$gp" ] || fail "conn $i goodput '${10}', report throughput is $gp"
    # RTT: the table shows us/ms; the report ms with 3 decimals
    got=$(echo "${11}" | awk '/us$/ { sub(/us/, ""); print $0 / 1000; next } /ms$/ { sub(/ms/, ""); print $0 + 0 }')
    awk -v a="$got" -v b="$rtt" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.0015) }' ||
        fail "conn $i RTT '${11}', report says $rtt ms"
    [ "${13}" = "$rx" ] || fail "conn $i rexmt ${13}, report says $rx"
    echo "ok: connection $i matches the report ($pa/$pb $st goodput $gp RTT ${11} rexmt $rx)"
done < "$TMP/expect"
grep -q "pkts 1353 " "$TMP/screen" || fail "status line packet count is not 1353 (the report's packets read)"
grep -q "drops: kernel 0 analyzer 0  anomalies 0" "$TMP/screen" || fail "status line drops/anomalies"

# 2. detail view of connection 2: numbers and four plots in braille
$T send-keys -t tui j Enter; screen
grep -q "#2 tcp  10.77.0.1:57988 > 10.77.0.2:5201  complete" "$TMP/screen" || fail "detail header"
grep -q "a>b  pkts 733 " "$TMP/screen" && grep -q "b>a  pkts 581 " "$TMP/screen" || fail "detail packet counts"
for p in Sequence Window RTT Throughput; do grep -q "$p" "$TMP/screen" || fail "detail plot '$p' missing"; done
[ "$(LC_ALL=C grep -o $'\xe2[\xa0-\xa3]' "$TMP/screen" | wc -l)" -gt 50 ] ||
    fail "the detail plots drew (almost) no braille dots"
echo "ok: detail view"

# 3. fairness: Jain's index over the significant flows, equal to the report's fairness section
read -r _ jain nflows < <(grep '^JAIN' "$TMP/expect")
$T send-keys -t tui 3; screen
grep -q "Jain's fairness index: $jain over $nflows active flow" "$TMP/screen" || fail "fairness index (want $jain)"
grep -q "100.0%" "$TMP/screen" || fail "fairness shares"
echo "ok: fairness $jain"

# 4. events: counts equal the report's retransmissions by cause
read -r _ fast rto < <(grep '^EVENTS' "$TMP/expect")
$T send-keys -t tui 4; screen
grep -q "rexmt fast $fast rto $rto " "$TMP/screen" || fail "event counts (want fast $fast rto $rto)"
echo "ok: events"

# 5. help, sort, filter
$T send-keys -t tui h; screen
grep -q "Quit *q or F10" "$TMP/screen" || fail "help view"
$T send-keys -t tui Escape; sleep 0.2; $T send-keys -t tui s; screen
grep -q "sort: now" "$TMP/screen" || fail "sort key did not change"
$T send-keys -t tui / 5 7 9 8 8 Enter; screen
grep -q "1 of 2 connections" "$TMP/screen" && grep -q "filter: 57988" "$TMP/screen" || fail "filter"
$T send-keys -t tui Escape; screen
grep -q "2 of 2 connections" "$TMP/screen" || fail "Esc did not clear the filter"
echo "ok: help, sort, filter"
$T send-keys -t tui e; screen   # no --plot: no per-packet history, the export says how to get it
grep -q "export: no per-packet history kept; start with --plot DIR" "$TMP/screen" || fail "export without history"
sleep 3

# 6. resize to 80x24: compact table, every line within 80 columns, keys still shown
$T resize-window -t tui -x 80 -y 24 2>/dev/null || $T resize-pane -t tui -x 80 -y 24
screen
grep -q " st .*goodpt" "$TMP/screen" || fail "compact header after resize"
grep -q "^   2 tcp .* done " "$TMP/screen" || fail "compact row after resize"
grep -q "q Quit" "$TMP/screen" || fail "key bar after resize"
[ "$(wc -l < "$TMP/screen")" -le 24 ] || fail "more than 24 lines"
echo "ok: 80x24"

# 7. quit: the final report equals the offline list
$T send-keys -t tui q
wait_for "TN_EXIT=" 10 || fail "q did not end the program"
grep -q "TN_EXIT=0" "$TMP/screen" || fail "exit status not 0"
$T capture-pane -p -S -100 -t tui > "$TMP/final"
grep -E '^ +[0-9]+: ' "$TMP/offline" > "$TMP/list.off"
grep -E '^ +[0-9]+: ' "$TMP/final" > "$TMP/list.tui"
diff "$TMP/list.off" "$TMP/list.tui" || fail "final report's connection list differs from the offline one"
grep -q "packets read:  1353" "$TMP/final" || fail "final summary"
echo "ok: final report"

# 8. monochrome: TERM=vt100 (no colours), ASCII plots without a UTF-8 locale
next_session -x 80 -y 24 "env LC_ALL=C TERM=vt100 $BIN --tui $SAMPLE; echo TN_EXIT=\$?; sleep 60"
wait_for "END OF TRACE" 20 || fail "vt100: the dashboard did not reach the end"
$T send-keys -t tui j Enter; screen
grep -q "Sequence" "$TMP/screen" || fail "vt100: detail view"
# at 80 columns every detail line ends with its last field (a shorter form where the long one
# would be cut), and a connection that has ended shows its last sampled window, the same number
# as the Window plot's title, instead of "-"
grep -Eq "^ rexmt fast .* idle [0-9]+ *$" "$TMP/screen" || fail "80 cols: the retransmission line is cut"
grep -Eq "^ now .* RTT avg .*(n [0-9]+|samples\)) *$" "$TMP/screen" || fail "80 cols: the RTT line is cut"
cw=$(sed -n 's/^ cwnd \([^ ]*\) .*(last sampled.*/\1/p' "$TMP/screen")
pw=$(sed -n 's/.*Window  cwnd \([^ ]*\) .*/\1/p' "$TMP/screen")
[ -n "$cw" ] && [ "$cw" = "$pw" ] || fail "ended connection: detail cwnd '$cw', Window plot says '$pw'"
grep -q $'\xe2' "$TMP/screen" && fail "vt100/C locale: UTF-8 characters on screen"
$T send-keys -t tui q
wait_for "TN_EXIT=0" 10 || fail "vt100: quit"

# 9. two competing flows (dumbbell, each with an iperf3 control connection): the fairness view's
# index equals the report's fairness section, and the control connections are left out
DB=$SRC/samples/dumbbell-cubic-rtt
if [ -f "$DB/snd1_eth0.pcap" ] && [ -f "$DB/snd2_eth0.pcap" ]; then
    read -r djain dn < <("$BIN" -q --fairness-by conn "$DB/snd1_eth0.pcap" "$DB/snd2_eth0.pcap" |
        awk '/^Fairness \(by conn, / { n = $4 + 0 } /Jain.s fairness index:/ { printf "%.3f %d\n", $4, n }')
    next_session -x 120 -y 30 \
        "env LC_ALL=$UTF TERM=xterm-256color $BIN --tui $DB/snd1_eth0.pcap $DB/snd2_eth0.pcap; sleep 60"
    wait_for "END OF TRACE" 20 || fail "dumbbell: the dashboard did not reach the end"
    $T send-keys -t tui 3; screen
    grep -q "Jain's fairness index: $djain over $dn active flows" "$TMP/screen" ||
        fail "dumbbell fairness index (the report says $djain over $dn flows)"
    grep -q "2 connections under 1% of the largest one's bytes left out" "$TMP/screen" ||
        fail "dumbbell: control connections not reported as left out"
    echo "ok: dumbbell fairness $djain over $dn flows, as the report"
fi
echo "PASS"
