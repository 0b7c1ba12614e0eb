#!/usr/bin/env bash
# multi_queue2pt.sh - two capture points around the lab router (samples/cubic-queue-4points):
#  - drops located at the router equal the kernel's qdisc drop counter (qdisc.csv, pfifo row);
#  - the queue length over time equals an independent count: tshark fields of both captures,
#    packets from the sender's address (the lab's data direction, from the manifest), matched
#    in awk on (addresses, ports, IP id, seq, ack, length, flags), queue at time T =
#    packets with t_in <= T < t_out; compared at every sample time of the lab's qdisc backlog
#    sampler; the mean absolute error against that count must be below 0.05 packets;
#  - against the lab's sampled backlog itself (tc -s every 10 ms, time stamped before tc runs)
#    the error is printed and must stay below 3 packets;
#  - the single-point estimate from the ingress capture alone is printed with its error against
#    the two-point queue, which must stay below 5 packets;
#  - clock offset between the points: 0 for one host's captures, +50 ms with a warning when the
#    egress capture's time stamps are shifted by 50 ms.
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
s=$src/samples/cubic-queue-4points
[ -f "$s/rtr_s1.pcap" ] && [ -f "$s/rtr_bn0.pcap" ] || { echo "multi_queue2pt: no sample $s; skip"; exit 77; }
command -v tshark >/dev/null || { echo "multi_queue2pt: no tshark; skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

"$bin" -q --ingress "$s/rtr_s1.pcap" --egress "$s/rtr_bn0.pcap" --csv "$tmp/csv" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
    echo "FAIL: exit $rc: $(cat "$tmp/err")"
    exit 1
fi

# 1. drops at the router = the kernel's qdisc counter
qdrops=$(awk -F, '$3 == "pfifo" { print $8 }' "$s/qdisc.csv")
ours=$(sed -n 's/.*dropped at the router \([0-9]*\),.*/\1/p' "$tmp/out")
echo "multi_queue2pt: drops at the router: ours $ours, qdisc counter $qdrops"
[ -n "$ours" ] && [ "$ours" = "$qdrops" ] || { echo "FAIL: drops $ours != qdisc $qdrops"; fail=1; }

# 2. independent count from the packets
fields=(-T fields -E separator=, -e frame.time_epoch -e ip.src -e ip.dst -e tcp.srcport -e tcp.dstport
    -e ip.id -e tcp.seq_raw -e tcp.ack_raw -e tcp.len -e tcp.flags)
# the data direction crosses the router from the sender's side (the lab's topology, manifest)
snd=$(sed -n 's/^flow1_src_addr=//p' "$s/manifest.txt")
tshark -r "$s/rtr_s1.pcap" -Y "tcp && ip.src == $snd" "${fields[@]}" >"$tmp/in.csv" 2>/dev/null
tshark -r "$s/rtr_bn0.pcap" -Y "tcp && ip.src == $snd" "${fields[@]}" >"$tmp/out.csv" 2>/dev/null
awk -F, '$4 == "pfifo" { print $1 "," $7 }' "$s/qdisc_backlog_rtr_bn0.csv" | sort -t, -k1,1g >"$tmp/samples.csv"
grep '^,,queue_pkts,' "$tmp/csv/series.csv" | cut -d, -f4,5 >"$tmp/ours.csv"
grep '^,,queue_est_pkts,' "$tmp/csv/series.csv" | cut -d, -f4,5 >"$tmp/est.csv"

awk -F, -v IN="$tmp/in.csv" -v OUT="$tmp/out.csv" -v OURS="$tmp/ours.csv" -v EST="$tmp/est.csv" '
function key(    k, i) { k = $2; for (i = 3; i <= 10; i++) k = k "|" $i; return k }
# value of a step series (times t[], values v[], n points) at time x; -1 before its first point
function step(t, v, n, x,    lo, hi, m) {
    if (n == 0 || x < t[1]) return -1
    lo = 1; hi = n
    while (lo < hi) { m = int((lo + hi + 1) / 2); if (t[m] <= x) lo = m; else hi = m - 1 }
    return v[lo]
}
BEGIN {
    while ((getline < IN) > 0) { k = key(); tin[k] = tin[k] " " $1 }
    while ((getline < OUT) > 0) {
        k = key()
        if (!(k in tin)) continue
        split(tin[k], a, " ")
        if (a[1] + 0 >= $1 + 0) continue            # left before it entered: not this packet
        nm++; ts[nm] = a[1] + 0; te[nm] = $1 + 0
        sub(/^ [^ ]*/, "", tin[k]); if (tin[k] == "") delete tin[k]
    }
    while ((getline < OURS) > 0) { no++; ot[no] = $1 + 0; ov[no] = $2 + 0 }
    while ((getline < EST) > 0) { ne++; et[ne] = $1 + 0; ev[ne] = $2 + 0 }
}
{   T = $1 + 0
    if (T < ot[1] || T > ot[no]) next
    q = 0
    for (i = 1; i <= nm; i++) if (ts[i] <= T && T < te[i]) q++
    o = step(ot, ov, no, T)
    d1 = o - q; if (d1 < 0) d1 = -d1
    d2 = o - $2; if (d2 < 0) d2 = -d2
    n++; s1 += d1; s2 += d2
}
END {
    # the estimate against the two-point series at the estimate points
    for (j = 1; j <= ne; j++) {
        if (et[j] < ot[1] || et[j] > ot[no]) continue
        d = ev[j] - step(ot, ov, no, et[j]); if (d < 0) d = -d
        m++; s3 += d
    }
    printf "%d %d %.4f %.4f %d %.4f\n", nm, n, n ? s1 / n : -1, n ? s2 / n : -1, m, m ? s3 / m : -1
}' "$tmp/samples.csv" >"$tmp/res"
read -r matched nsamp mae_count mae_backlog nest mae_est <"$tmp/res"
ourm=$(sed -n 's/.*matched \([0-9]*\), dropped.*/\1/p' "$tmp/out")
echo "multi_queue2pt: matched ingress->egress: ours $ourm, script $matched"
echo "multi_queue2pt: queue length MAE at $nsamp backlog sample times: vs independent count $mae_count pkts," \
    "vs lab sampled backlog $mae_backlog pkts"
echo "multi_queue2pt: single-point estimate vs two-point queue: MAE $mae_est pkts over $nest samples"
grep 'error against the two-point' "$tmp/out"
[ "$ourm" = "$matched" ] || { echo "FAIL: matched $ourm != $matched"; fail=1; }
awk -v a="$nsamp" 'BEGIN { exit !(a >= 100) }' || { echo "FAIL: only $nsamp sample times"; fail=1; }
awk -v a="$mae_count" 'BEGIN { exit !(a >= 0 && a < 0.05) }' || { echo "FAIL: MAE vs count $mae_count"; fail=1; }
awk -v a="$mae_backlog" 'BEGIN { exit !(a >= 0 && a < 3) }' || { echo "FAIL: MAE vs backlog $mae_backlog"; fail=1; }
awk -v a="$mae_est" 'BEGIN { exit !(a >= 0 && a < 5) }' || { echo "FAIL: single-point MAE $mae_est"; fail=1; }
# 3. clocks: the same host's clock on both sides: offset 0 and no warning; the egress capture
#    shifted by +50 ms (editcap -t 0.05) as if taken on a host whose clock is ahead: +50 ms and
#    a warning that the clocks are not synchronised
off=$(sed -n 's/.*clocks: egress point \([-+0-9.]*\) ms.*/\1/p' "$tmp/out")
echo "multi_queue2pt: clock offset (one host): $off ms"
awk -v o="$off" 'BEGIN { exit !(o != "" && o + 0 < 0.01 && o + 0 > -0.01) }' || { echo "FAIL: offset $off"; fail=1; }
grep -q WARNING "$tmp/out" && { echo "FAIL: clock warning for one host's captures"; fail=1; }
if command -v editcap >/dev/null; then
    editcap -t 0.05 "$s/rtr_bn0.pcap" "$tmp/shifted.pcap" >/dev/null 2>&1
    "$bin" -q --ingress "$s/rtr_s1.pcap" --egress "$tmp/shifted.pcap" >"$tmp/out2" 2>&1
    off=$(sed -n 's/.*clocks: egress point \([-+0-9.]*\) ms.*/\1/p' "$tmp/out2")
    echo "multi_queue2pt: clock offset (egress shifted +50 ms): $off ms"
    awk -v o="$off" 'BEGIN { exit !(o != "" && o - 50 < 0.01 && o - 50 > -0.01) }' || { echo "FAIL: offset $off"; fail=1; }
    grep -q 'WARNING: the two capture clocks are not synchronised' "$tmp/out2" ||
        { echo "FAIL: no warning for clocks 50 ms apart"; fail=1; }
fi
[ $fail -eq 0 ] && echo "multi_queue2pt: passed"
exit $fail
