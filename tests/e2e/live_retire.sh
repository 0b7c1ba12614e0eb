#!/usr/bin/env bash
# live_retire.sh - a live capture retires its finished connections to the store as a run over
# files does (issue 12: "a busy mirror port runs out of memory in hours").
#
#   live_retire.sh BINARY CORPUS_DIR SOURCE_DIR     exit 0 pass, 1 fail, 77 skip
#
# tests/bench/soak_send.c sends, through a veth pair in a network namespace, 1000 frames a
# second for 10 s: units of one complete short connection (9 frames) and one unanswered SYN.
# tcpdump and two live runs capture the same interface until SIGINT:
#   A: -j 1 --csv DIR --max-connections 300
#   B: -j 2 (one store part per worker) --max-connections 300 (150 a worker)
#   C: -j 1 --max-connections 16
# About 2300 connections come, at most about 130 open at once (the sender's bursts of 64
# units), so the limit of A and B evicts the finished ones unless they leave the table for the
# store, and C's evicts open ones all the same.
# A and B run with a TIME-WAIT of 1 s (TCPTRACE_NG_TIME_WAIT_S; 60 s by default) and
# --idle-timeout 2: the brief of a connection that ended leaves memory (its list slot and
# flow-table entry too) 1-2 s after its last packet, and is read back at the end
# (docs/tcptrace-ng.1 MEMORY); TCPTRACE_NG_RETIRE_STATS=FILE says how many briefs were
# written out and how long the connection list grew.
# Checks, against tcpdump's count of the same interface (and the sender's frames):
#   - every connection is in the list and in connections.csv: one per pure SYN, "complete"
#     for every SYN-ACK, and the packets of all of them add up to tcpdump's TCP frames;
#   - A's list, connection by connection (number, endpoints, packets, state), is the list the
#     same binary gives for tcpdump's file of the capture;
#   - memory does not follow the connections that ended: A and B wrote out of memory the
#     briefs of more than half of the connections, and their connection lists never held
#     half of them;
#   - nothing was evicted ("connection table full" not said), exit 0 after SIGINT;
#   - C still evicts (the store does not switch the limit off): what it lists and what it says
#     it evicted add up to tcpdump's connections;
#   - while the run goes on it holds one unlinked store file per analysis thread in its
#     TMPDIR (/proc/PID/fd: "tcptrace-ng-retired-... (deleted)"), with bytes in it.
set -u
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
bin=${1:?usage: live_retire.sh BINARY CORPUS_DIR SOURCE_DIR}
src=${3:?source dir}
[ "$(id -u)" = 0 ] || { echo "skip: needs root (network namespaces, AF_PACKET)"; exit 77; }
command -v tcpdump >/dev/null && command -v cc >/dev/null || { echo "skip: tcpdump or cc missing"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/live_retire.XXXXXX") || exit 1
ns=tnlr.$$
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
    ip netns del "$ns" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

cc -O2 -o "$tmp/soak_send" "$src/tests/bench/soak_send.c" || { echo "FAIL: cannot build soak_send"; exit 1; }
ip netns add "$ns" 2>/dev/null || { echo "skip: no network namespaces"; exit 77; }
ip -n "$ns" link add tlra type veth peer name tlrb || { echo "skip: no veth"; exit 77; }
for i in tlra tlrb lo; do ip -n "$ns" link set "$i" up; done
ip netns exec "$ns" ethtool -K tlra gro off gso off tso off >/dev/null 2>&1

mkdir -p "$tmp/storeA" "$tmp/storeB" "$tmp/storeC"
ip netns exec "$ns" tcpdump -nn -i tlra -w "$tmp/all.pcap" tcp 2>"$tmp/tcpdump.err" &
pids+=($!); tdp=$!
export TCPTRACE_NG_TIME_WAIT_S=1   # A and B (C's limit evicts before any brief is due)
TCPTRACE_NG_RETIRE_STATS=$tmp/A.stats TMPDIR=$tmp/storeA ip netns exec "$ns" "$bin" -j 1 --max-connections 300 \
    --idle-timeout 2 --csv "$tmp/csv" -i tlra tcp >"$tmp/A.out" 2>"$tmp/A.err" &
pids+=($!); pa=$!
TCPTRACE_NG_RETIRE_STATS=$tmp/B.stats TMPDIR=$tmp/storeB ip netns exec "$ns" "$bin" -j 2 --max-connections 300 \
    --idle-timeout 2 -i tlra tcp >"$tmp/B.out" 2>"$tmp/B.err" &
pids+=($!); pb=$!
TMPDIR=$tmp/storeC ip netns exec "$ns" "$bin" -j 1 --max-connections 16 -i tlra tcp >"$tmp/C.out" 2>"$tmp/C.err" &
pids+=($!); pc=$!
sleep 2
ip netns exec "$ns" "$tmp/soak_send" tlrb 1000 10 >"$tmp/sent" || { echo "FAIL: soak_send"; exit 1; }
sleep 1

# store_files PID: "N BYTES", the unlinked store files the process holds and their bytes
store_files() {
    local n=0 bytes=0 fd
    for fd in /proc/"$1"/fd/*; do
        case "$(readlink "$fd")" in
        */tcptrace-ng-retired-*" (deleted)") n=$((n + 1)); bytes=$((bytes + $(stat -L -c %s "$fd"))) ;;
        esac
    done
    echo "$n $bytes"
}
# (ip netns exec runs the binary in its own process: the analyzer is its child or itself)
real_pid() { pgrep -P "$1" -x tcptrace-ng || echo "$1"; }
for run in A:1 B:2; do
    name=${run%%:*} want=${run##*:}
    pid=$([ "$name" = A ] && real_pid "$pa" || real_pid "$pb")
    read -r n bytes <<<"$(store_files "$pid")"
    [ "$n" = "$want" ] && [ "$bytes" -gt 0 ] && ok "$name: $n store file(s) in its TMPDIR, $bytes bytes of retired connections" ||
        bad "$name: $n store files ($bytes bytes), want $want with bytes in them"
done

kill -INT "$pa" "$pb" "$pc" "$tdp"
wait "$pa"; ra=$?
wait "$pb"; rb=$?
wait "$pc"; rc=$?
wait "$tdp"
pids=()

sent=$(cat "$tmp/sent")
frames=$(tcpdump -nr "$tmp/all.pcap" 2>/dev/null | wc -l)
syns=$(tcpdump -nr "$tmp/all.pcap" 'tcp[tcpflags] & (tcp-syn|tcp-ack) == tcp-syn' 2>/dev/null | wc -l)
synacks=$(tcpdump -nr "$tmp/all.pcap" 'tcp[tcpflags] & (tcp-syn|tcp-ack) == (tcp-syn|tcp-ack)' 2>/dev/null | wc -l)
echo "sender: $sent frames; tcpdump: $frames TCP frames, $syns connections (pure SYNs), $synacks answered"
[ "$frames" = "$sent" ] || bad "tcpdump saw $frames of the $sent frames sent: the count below is not the sender's"
[ "$syns" -ge 2000 ] || bad "only $syns connections sent: too few to fill the table"

for run in A:$ra B:$rb; do
    name=${run%%:*} rc=${run##*:}
    [ "$rc" = 0 ] && ok "$name: SIGINT ends the run, exit 0" || bad "$name: exit $rc: $(head -c 300 "$tmp/$name.err")"
    grep -q "connection table full" "$tmp/$name.err" && bad "$name: $(grep 'connection table full' "$tmp/$name.err")"
    read -r conns complete pkts <<<"$(awk '/^ *[0-9]+: .* tcp / { n++; gsub(">", "", $6); gsub("<", "", $7)
        p += $6 + $7; if ($NF == "complete") c++ } END { print n + 0, c + 0, p + 0 }' "$tmp/$name.out")"
    [ "$conns" = "$syns" ] && [ "$complete" = "$synacks" ] && [ "$pkts" = "$frames" ] &&
        ok "$name: the list has all $conns connections, $complete complete, $pkts packets" ||
        bad "$name: the list has $conns connections ($complete complete, $pkts packets), tcpdump $syns ($synacks, $frames)"
done

# the list, line by line without its times: number, endpoints, packets each way, state
conn_lines() { grep -E '^ *[0-9]+: .* tcp ' "$1" | awk '{ print $1, $2, $3, $4, $6, $7, $NF }'; }
"$bin" -j 1 "$tmp/all.pcap" >"$tmp/offline.out" 2>"$tmp/offline.err"
if [ -s "$tmp/A.out" ] && cmp -s <(conn_lines "$tmp/A.out") <(conn_lines "$tmp/offline.out"); then
    ok "A: the live list is, line by line, the list of tcpdump's file ($(conn_lines "$tmp/A.out" | wc -l) connections)"
else
    bad "A: the live list differs from the list of tcpdump's file: $(diff <(conn_lines "$tmp/A.out") \
        <(conn_lines "$tmp/offline.out") | head -4 | tr '\n' ' ')"
fi

for run in A B; do
    read -r out peak <<<"$(awk '$1 == "briefs_out" { o = $2 } $1 == "listed_peak" { p = $2 }
        END { print o + 0, p + 0 }' "$tmp/$run.stats" 2>/dev/null)"
    [ -s "$tmp/$run.stats" ] && [ "$out" -gt $((syns / 2)) ] && [ "$peak" -gt 0 ] && [ "$peak" -lt $((syns / 2)) ] &&
        ok "$run: $out briefs of the $syns connections written out of memory, the list at most $peak long" ||
        bad "$run: ${out:-no} briefs written out of memory, the list at most ${peak:-?} long, of $syns connections" \
            "(want more than half out, the list below half)"
done

[ "$rc" = 0 ] || bad "C: exit $rc: $(head -c 300 "$tmp/C.err")"
evicted=$(sed -n 's/.*connection table full: \([0-9]*\) evicted.*/\1/p' "$tmp/C.err")
listed=$(grep -cE '^ *[0-9]+: .* tcp ' "$tmp/C.out")
[ -n "$evicted" ] && [ "$evicted" -gt 0 ] && [ $((listed + evicted)) = "$syns" ] &&
    ok "C: the limit of 16 still evicts: $listed listed + $evicted evicted = $syns connections" ||
    bad "C: $listed listed, ${evicted:-none} evicted, tcpdump $syns connections"

read -r rows complete pkts <<<"$(awk -F, 'NR > 1 { n++; p += $10 + $11; if ($9 == "complete") c++ }
    END { print n + 0, c + 0, p + 0 }' "$tmp/csv/connections.csv" 2>/dev/null)"
[ "$rows" = "$syns" ] && [ "$complete" = "$synacks" ] && [ "$pkts" = "$frames" ] &&
    ok "A: connections.csv has all $rows connections, $complete complete, $pkts packets" ||
    bad "A: connections.csv has ${rows:-no} rows ($complete complete, $pkts packets), tcpdump $syns ($synacks, $frames)"
exit $fail
