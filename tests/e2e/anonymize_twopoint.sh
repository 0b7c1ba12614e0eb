#!/usr/bin/env bash
# anonymize_twopoint.sh - two monitoring stations anonymizing with one key still match their
# packets (samples/cubic-queue-4points, router ingress rtr_s1 and bottleneck egress rtr_bn0):
#  - each point exported with --anonymize (and once more with --anonymize-ts as well) on its
#    own; the two-point report of the two exports equals the anonymized two-point report of the
#    originals line for line: matched packets, drops (= the kernel's qdisc drop counter), queue
#    length, sojourn, clock offset and one-way delays, the queue series in series.csv;
#  - the egress export shifted by +50 ms (editcap) gives the same +50 ms clock offset as the
#    shifted original;
#  - the egress point exported with a different key: the tool says the points cannot be matched.
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
s=$src/samples/cubic-queue-4points
[ -f "$s/rtr_s1.pcap" ] && [ -f "$s/rtr_bn0.pcap" ] || { echo "anonymize_twopoint: no sample $s; skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

head -c 32 /dev/urandom >"$tmp/a.key"
head -c 32 /dev/urandom >"$tmp/b.key"
chmod 600 "$tmp/a.key" "$tmp/b.key"

# the reference: both points of the original, anonymized by one run
"$bin" -q --anonymize "$tmp/a.key" --ingress "$s/rtr_s1.pcap" --egress "$s/rtr_bn0.pcap" \
    --csv "$tmp/ref" >"$tmp/ref.out" 2>"$tmp/ref.err" || bad "reference run: $(cat "$tmp/ref.err")"
qdrops=$(awk -F, '$3 == "pfifo" { print $8 }' "$s/qdisc.csv")
drops=$(sed -n 's/.*dropped at the router \([0-9]*\),.*/\1/p' "$tmp/ref.out")
[ -n "$drops" ] && [ "$drops" = "$qdrops" ] || bad "anonymized drops $drops != qdisc counter $qdrops"

for variant in plain ts; do
    extra=()
    [ $variant = ts ] && extra=(--anonymize-ts)
    # two stations, one key, each exporting its own capture
    "$bin" -q --anonymize "$tmp/a.key" "${extra[@]}" --export "$tmp/in.pcap" "$s/rtr_s1.pcap" >/dev/null 2>&1
    "$bin" -q --anonymize "$tmp/a.key" "${extra[@]}" --export "$tmp/out.pcap" "$s/rtr_bn0.pcap" >/dev/null 2>&1
    "$bin" -q --ingress "$tmp/in.pcap" --egress "$tmp/out.pcap" --csv "$tmp/$variant" >"$tmp/$variant.out" 2>"$tmp/$variant.err"
    d=$(diff "$tmp/ref.out" "$tmp/$variant.out")
    [ -z "$d" ] || bad "$variant: two-point report of the exports differs: $(echo "$d" | head -6)"
    grep -q 'cannot be matched' "$tmp/$variant.err" && bad "$variant: same key, yet 'cannot be matched'"
    for q in queue_pkts queue_bytes sojourn_ms; do
        cmp -s <(grep ",$q," "$tmp/ref/series.csv") <(grep ",$q," "$tmp/$variant/series.csv") ||
            bad "$variant: series.csv $q rows differ"
    done
    n=$(grep -c ',queue_pkts,' "$tmp/$variant/series.csv")
    m=$(sed -n 's/.*matched \([0-9]*\), dropped at the router \([0-9]*\).*/\1 matched, \2 drops/p' "$tmp/$variant.out")
    echo "anonymize_twopoint: $variant exports, one key: $m (qdisc counter $qdrops), $n queue samples equal"
done

# clocks apart by 50 ms: the same offset from the exports as from the originals
if command -v editcap >/dev/null; then
    editcap -t 0.05 "$s/rtr_bn0.pcap" "$tmp/shifted.pcap" >/dev/null 2>&1
    editcap -t 0.05 "$tmp/out.pcap" "$tmp/out-shifted.pcap" >/dev/null 2>&1
    "$bin" -q --anonymize "$tmp/a.key" --ingress "$s/rtr_s1.pcap" --egress "$tmp/shifted.pcap" >"$tmp/sh.ref" 2>&1
    "$bin" -q --ingress "$tmp/in.pcap" --egress "$tmp/out-shifted.pcap" >"$tmp/sh.out" 2>&1
    off=$(sed -n 's/.*clocks: egress point \([-+0-9.]*\) ms.*/\1/p' "$tmp/sh.out")
    grep 'clocks:' "$tmp/sh.out" | cmp -s - <(grep 'clocks:' "$tmp/sh.ref") || bad "clock lines differ"
    awk -v o="$off" 'BEGIN { exit !(o != "" && o - 50 < 0.01 && o - 50 > -0.01) }' || bad "offset $off, not +50 ms"
    echo "anonymize_twopoint: egress export shifted by 50 ms: clock offset $off ms"
fi

# two keys: nothing matches, and the tool says so
"$bin" -q --anonymize "$tmp/b.key" --export "$tmp/out-b.pcap" "$s/rtr_bn0.pcap" >/dev/null 2>&1
"$bin" -q --ingress "$tmp/in.pcap" --egress "$tmp/out-b.pcap" >"$tmp/b.out" 2>"$tmp/b.err"
grep -q 'the two capture points cannot be matched: none of the [0-9]* ingress and [0-9]* egress' "$tmp/b.err" ||
    bad "two keys: no 'cannot be matched' message: $(cat "$tmp/b.err")"
grep -q 'matched 0, dropped at the router' "$tmp/b.out" || bad "two keys: packets matched"
echo "anonymize_twopoint: two keys: $(cat "$tmp/b.err")"
[ $fail -eq 0 ] && echo "anonymize_twopoint: ok"
exit $fail
