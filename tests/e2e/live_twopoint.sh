#!/usr/bin/env bash
# live_twopoint.sh - two capture points live (--ingress-if/--egress-if) on a router made of
# network namespaces: sender -- router -- receiver, a small drop-tail TBF on the router's way
# out.  The drops the dashboard-less run locates at the router must equal the qdisc's own drop
# counter, and it must have matched packets across the router.   args: BINARY CORPUS SOURCE
set -u
bin=$1
[ "$(id -u)" = 0 ] || { echo "skip: needs root for network namespaces"; exit 77; }
command -v iperf3 >/dev/null || { echo "skip: iperf3 missing"; exit 77; }
ns_a=tn2p_a.$$ ns_r=tn2p_r.$$ ns_b=tn2p_b.$$
tmp=$(mktemp -d)
cleanup() {
    ip netns del "$ns_a" 2>/dev/null; ip netns del "$ns_r" 2>/dev/null; ip netns del "$ns_b" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
ip netns add "$ns_a" && ip netns add "$ns_r" && ip netns add "$ns_b" || { echo "skip: no netns"; exit 77; }
ip link add tpa netns "$ns_a" type veth peer name tpra netns "$ns_r"
ip link add tprb netns "$ns_r" type veth peer name tpb netns "$ns_b"
ip -n "$ns_a" addr add 10.71.1.1/24 dev tpa
ip -n "$ns_r" addr add 10.71.1.254/24 dev tpra
ip -n "$ns_r" addr add 10.71.2.254/24 dev tprb
ip -n "$ns_b" addr add 10.71.2.1/24 dev tpb
for x in "$ns_a:tpa" "$ns_r:tpra" "$ns_r:tprb" "$ns_b:tpb"; do
    ip -n "${x%%:*}" link set "${x##*:}" up
    ip netns exec "${x%%:*}" ethtool -K "${x##*:}" tso off gso off gro off >/dev/null 2>&1
done
for n in "$ns_a" "$ns_r" "$ns_b"; do ip -n "$n" link set lo up; done
ip -n "$ns_a" route add default via 10.71.1.254
ip -n "$ns_b" route add default via 10.71.2.254
ip netns exec "$ns_r" sysctl -qw net.ipv4.ip_forward=1
# the bottleneck: 5 Mbit/s, a queue of about 20 full-size packets
ip netns exec "$ns_r" tc qdisc add dev tprb root tbf rate 5mbit burst 3000 limit 30000

ip netns exec "$ns_b" iperf3 -s -1 -D -p 5299
ip netns exec "$ns_r" "$bin" -q --ingress-if tpra --egress-if tprb tcp port 5299 >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 1
ip netns exec "$ns_a" iperf3 -c 10.71.2.1 -p 5299 -t 2 -C reno >/dev/null 2>&1
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
qdrops=$(ip netns exec "$ns_r" tc -s qdisc show dev tprb | awk '/dropped/ { gsub(",", ""); for (i = 1; i <= NF; i++) if ($i ~ /dropped/) { print $(i + 1) + 0; exit } }')
line=$(grep 'dropped at the router' "$tmp/out")
matched=$(echo "$line" | awk '{ for (i = 1; i <= NF; i++) if ($i == "matched") print $(i + 1) + 0 }')
drops=$(echo "$line" | awk '{ for (i = 1; i <= NF; i++) if ($i == "router") print $(i + 1) + 0 }')
echo "live two-point: exit $rc, matched $matched, drops at the router $drops, qdisc counter $qdrops"
fail=0
[ "$rc" = 0 ] || { echo "FAIL: exit $rc"; cat "$tmp/err"; fail=1; }
[ "${matched:-0}" -gt 100 ] || { echo "FAIL: too few packets matched across the router"; fail=1; }
[ -n "$qdrops" ] && [ "${drops:-x}" = "$qdrops" ] || { echo "FAIL: drops ${drops:-?} != qdisc ${qdrops:-?}"; fail=1; }
grep -q 'packets received by filter' "$tmp/out" || { echo "FAIL: no capture statistics"; fail=1; }
[ $fail = 0 ] && sed -n '/Router queue/,/flow/p' "$tmp/out"
exit $fail
