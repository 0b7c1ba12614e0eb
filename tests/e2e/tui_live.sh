#!/bin/bash
# tui_live: the dashboard on a live interface.  Two network namespaces joined by a veth pair;
# tcptrace-ng --tui captures on one end (with -w) while iperf3 (or bash /dev/tcp) sends over it.
# The dashboard's packet count (status line, and the rows' packets summed) equals the number of
# packets in the -w capture; q prints the final report, whose count agrees too, and leaves a
# valid pcap.  Needs root (CI runs as root), ip, tmux, tcpdump.
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
BIN=$1
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root for network namespaces"; exit 77; }
for t in ip tmux tcpdump; do command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }; done
TMP=$(mktemp -d)
chmod 755 "$TMP"
SOCK=$TMP/tmux.sock
T="tmux -S $SOCK"
NS1=tnt1-$$ NS2=tnt2-$$
cleanup() {
    $T kill-server 2>/dev/null
    [ -n "${SRV:-}" ] && kill "$SRV" 2>/dev/null
    ip netns del "$NS1" 2>/dev/null
    ip netns del "$NS2" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- screen ---"; cat "$TMP/screen" 2>/dev/null; exit 1; }
ip netns add "$NS1" && ip netns add "$NS2" || { echo "SKIP: cannot create network namespaces"; exit 77; }
ip link add tnv1 netns "$NS1" type veth peer name tnv2 netns "$NS2" || { echo "SKIP: no veth"; exit 77; }
ip -n "$NS1" addr add 10.99.0.1/24 dev tnv1
ip -n "$NS2" addr add 10.99.0.2/24 dev tnv2
ip -n "$NS1" link set tnv1 up; ip -n "$NS1" link set lo up
ip -n "$NS2" link set tnv2 up; ip -n "$NS2" link set lo up

wait_for() {
    for _ in $(seq 1 $(( $2 * 10 ))); do
        $T capture-pane -p -t tui > "$TMP/screen" 2>/dev/null
        grep -q -- "$1" "$TMP/screen" && return 0
        sleep 0.1
    done
    return 1
}

$T new-session -d -s tui -x 160 -y 40 \
    "ip netns exec $NS1 env LC_ALL=C.UTF-8 $BIN --tui -i tnv1 -w $TMP/live.pcap tcp; echo TN_EXIT=\$?; sleep 60"
wait_for "live tnv1" 10 || fail "the dashboard did not start on tnv1"
sleep 0.5

# Traffic: iperf3 for one second (installed by scripts/setup.sh).
command -v iperf3 >/dev/null || { echo "SKIP: iperf3 not installed"; exit 77; }
ip netns exec "$NS2" iperf3 -s -1 -B 10.99.0.2 >/dev/null 2>&1 & SRV=$!
sleep 0.5
ip netns exec "$NS1" iperf3 -c 10.99.0.2 -t 1 -l 16K >/dev/null 2>&1 || fail "iperf3 client failed"
wait "$SRV" 2>/dev/null; SRV=
sleep 1.5   # let the last packets reach the screen (refresh every 200 ms)
wait_for "conns [1-9]" 5 || fail "the dashboard saw no connection"
shown=$(grep -o 'pkts [0-9]*  drops' "$TMP/screen" | awk '{ print $2 }')
rows=$(awk '$2 == "tcp" && $1 ~ /^[0-9]+$/ { s += $7 + $8 } END { print s + 0 }' "$TMP/screen")
grep -q "drops: kernel 0 " "$TMP/screen" || echo "note: the kernel dropped packets"
$T send-keys -t tui q
wait_for "TN_EXIT=" 10 || fail "q did not end the dashboard"
grep -q "TN_EXIT=0" "$TMP/screen" || fail "exit status not 0"
[ -f "$TMP/live.pcap" ] || fail "-w file not complete (still .tmp?)"
saved=$(tcpdump -r "$TMP/live.pcap" 2>/dev/null | wc -l)
$T capture-pane -p -S -200 -t tui > "$TMP/final"
reported=$(awk '/packets read:/ { print $3 }' "$TMP/final")
echo "dashboard status $shown, rows $rows, -w capture $saved, final report $reported"
[ "$saved" -gt 20 ] || fail "too few packets captured ($saved)"
[ "$shown" = "$saved" ] || fail "dashboard shows $shown packets, the -w capture holds $saved"
[ "$rows" = "$saved" ] || fail "the rows' packets sum to $rows, the -w capture holds $saved"
[ "$reported" = "$saved" ] || fail "final report read $reported packets, the -w capture holds $saved"
grep -q "Capture: .* packets received by filter" "$TMP/final" || fail "no capture statistics in the final report"
echo "PASS"
