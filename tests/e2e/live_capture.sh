#!/usr/bin/env bash
# live_capture.sh - the offline report's live path: -i IFACE with a BPF filter and -w, ended by
# SIGINT; the report lists the iperf3 connections with as many packets as the -w file holds
# (counted by tcpdump), prints the kernel's counters, and the -w file is complete.
#   args: BINARY CORPUS SOURCE
set -u
bin=$1
[ "$(id -u)" = 0 ] || { echo "skip: needs root for network namespaces"; exit 77; }
command -v iperf3 >/dev/null && command -v tcpdump >/dev/null || { echo "skip: iperf3/tcpdump missing"; exit 77; }
n1=tnlc_1.$$ n2=tnlc_2.$$
tmp=$(mktemp -d)
trap 'ip netns del "$n1" 2>/dev/null; ip netns del "$n2" 2>/dev/null; rm -rf "$tmp"' EXIT
ip netns add "$n1" && ip netns add "$n2" || { echo "skip: no netns"; exit 77; }
ip link add tlc1 netns "$n1" type veth peer name tlc2 netns "$n2"
ip -n "$n1" addr add 10.72.0.1/24 dev tlc1 && ip -n "$n2" addr add 10.72.0.2/24 dev tlc2
ip -n "$n1" link set tlc1 up && ip -n "$n2" link set tlc2 up
ip -n "$n1" link set lo up && ip -n "$n2" link set lo up
ip netns exec "$n2" iperf3 -s -1 -D -p 5298
ip netns exec "$n1" "$bin" -i tlc1 -w "$tmp/w.pcap" tcp port 5298 >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 1
ip netns exec "$n1" iperf3 -c 10.72.0.2 -p 5298 -t 1 -b 20M >/dev/null 2>&1
sleep 0.5
kill -INT "$pid"
wait "$pid"
rc=$?
fail=0
[ "$rc" = 0 ] || { echo "FAIL: exit $rc"; cat "$tmp/err"; fail=1; }
[ -f "$tmp/w.pcap" ] || { echo "FAIL: no -w file"; fail=1; }
wpk=$(tcpdump -nr "$tmp/w.pcap" 2>/dev/null | wc -l)
ours=$(awk '/^ *[0-9]+: .* tcp / { gsub(">", "", $6); gsub("<", "", $7); s += $6 + $7 } END { print s + 0 }' "$tmp/out")
echo "live: exit $rc, -w file $wpk packets (tcpdump), connections in the report $ours packets"
[ "$wpk" -gt 20 ] || { echo "FAIL: too few packets captured"; fail=1; }
[ "$ours" = "$wpk" ] || { echo "FAIL: report $ours != -w file $wpk"; cat "$tmp/out"; fail=1; }
grep -q 'packets received by filter' "$tmp/out" || { echo "FAIL: no kernel counters"; fail=1; }
exit $fail
