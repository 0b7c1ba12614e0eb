#!/usr/bin/env bash
# lab_scenario.sh - runs the shortest lab scenario end to end (samples/lab/run single, 1 s of
# cubic) and checks that every output exists, is non-empty, that the pcap and the kernel
# truth cover overlapping times (one clock), and that the namespaces are gone afterwards.
# args: $1 tcptrace-ng binary (unused), $2 corpus dir (unused), $3 source dir.
# exit: 0 pass, 1 fail, 77 skip (not root, no netns, missing tools).
SRC=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$SRC/samples/lab/test_lib.sh"

[ "$(id -u)" = 0 ] || tl_skip "needs root (network namespaces, tracefs)"
tl_need ip tc iptables ethtool tcpdump iperf3 tshark jq cc ping
ip netns add "tnlprobe$$" 2>/dev/null || tl_skip "cannot create network namespaces here"
ip netns del "tnlprobe$$"
[ -d /sys/kernel/tracing/events/tcp ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
[ -f /sys/kernel/tracing/events/tcp/tcp_probe/enable ] || tl_skip "tracefs tcp events not available"

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
start=$(date +%s)
"$SRC/samples/lab/run" single --flows cubic --duration 1 --delay 5 --rate 10mbit \
    --limit 20p --capture snd,rcv -o "$OUT/run" >"$OUT/log" 2>&1 &
RUN_PID=$!   # the runner names its namespaces tnl<its pid>-*
( sleep 40; kill "$RUN_PID" 2>/dev/null ) &
WATCHDOG=$!
wait "$RUN_PID"
rc=$?
kill "$WATCHDOG" 2>/dev/null
if [ "$rc" != 0 ]; then
    cat "$OUT/log"
    echo "FAIL: samples/lab/run failed"
    exit 1
fi
D=$OUT/run
for f in manifest.txt flows.csv captures.csv snd1_eth0.pcap rcv1_eth0.pcap iperf3_flow1.json \
    tcp_probe.csv tcp_cong_state.csv tcp_retransmit.csv qdisc.csv alignment.txt ping_flow1.txt \
    delayline_dl1.txt; do
    [ -s "$D/$f" ] || tl_fail "$f missing or empty"
done
[ "$(awk 'END { print NR }' "$D/tcp_probe.csv" 2>/dev/null)" -gt 10 ] || tl_fail "tcp_probe.csv has (almost) no rows"
head -1 "$D/tcp_probe.csv" | grep -q '^time_s,flow,saddr,sport,daddr,dport,' || tl_fail "tcp_probe.csv header"
# one clock: truth times inside the sender capture's time range (which spans the whole run)
read -r p0 p1 < <(tl_pcap_range "$D/snd1_eth0.pcap")
read -r t0 t1 < <(awk -F, 'NR > 1 && $2 == 1 { if (lo == "" || $1 < lo) lo = $1; if ($1 > hi) hi = $1 } END { print lo, hi }' "$D/tcp_probe.csv")
echo "pcap $p0 .. $p1, tcp_probe (flow 1) $t0 .. $t1"
awk -v a="$p0" -v b="$p1" -v c="$t0" -v d="$t1" 'BEGIN { exit !(c != "" && c >= a && d <= b + 0.5 && c <= b) }' ||
    tl_fail "truth time range not inside the pcap time range (clock misaligned?)"
# tcp_probe fires when the sender's socket processes an incoming segment: each event must
# follow a packet received in the sender capture (receiver -> sender) by a few microseconds
tshark -r "$D/snd1_eth0.pcap" -Y "tcp.srcport == 5201 && tcp.dstport == $(tl_flow "$D" 1 sport)" -T fields -e frame.time_epoch 2>/dev/null |
    awk '{ print $1, "p" }' >"$OUT/pk"
awk -F, 'NR > 1 && $2 == 1 { print $1, "e" }' "$D/tcp_probe.csv" >>"$OUT/pk"
sort -n "$OUT/pk" | awk '$2 == "p" { last = $1; next }
    last != "" { n++; d[n] = ($1 - last) * 1e6 }
    END { if (!n) { print "no tcp_probe pairs"; exit 1 }
          for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (d[j] < d[i]) { t = d[i]; d[i] = d[j]; d[j] = t }
          for (i = 1; i <= n; i++) if (d[i] < 2000) ok++
          printf "tcp_probe - preceding received packet at the sender: %d events, min %.1f us, median %.1f us, %.0f%% under 2 ms\n", n, d[1], d[int((n + 1) / 2)], 100 * ok / n
          exit !(d[1] >= 0 && d[int((n + 1) / 2)] < 1000 && ok >= 0.9 * n) }' ||
    tl_fail "tcp_probe events do not line up with the received packets of the capture (clock?)"
grep -q '^ranges_overlap=yes' "$D/alignment.txt" || tl_fail "alignment.txt does not report overlap"
gp=$(tl_manifest "$D" flow1_goodput_bps)
[ -n "$gp" ] && [ "$gp" -gt 0 ] || tl_fail "no goodput in manifest"
if ip netns list | grep -q "^tnl$RUN_PID-"; then
    tl_fail "namespaces of the run left behind: $(ip netns list | grep "^tnl$RUN_PID-" | tr '\n' ' ')"
fi
echo "elapsed $(($(date +%s) - start)) s"
[ "$TL_FAILED" = 0 ] && echo PASS && exit 0
exit 1
