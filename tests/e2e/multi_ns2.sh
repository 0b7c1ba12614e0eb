#!/usr/bin/env bash
# multi_ns2.sh - ns-2 ASCII traces (../shared/corpus/ns2-traces/**.tr and a hand-written one):
# for every link, enqueued / dequeued / dropped counts, the largest queue and the time-weighted
# average queue equal an independent count made here in awk from the trace lines (queue = '+'
# minus '-' minus 'd', read after all the events of one time stamp); drops per flow id too; the
# TCP flows and their data packets ('-' of 'tcp' leaving the flow's source node) match; the
# queue_pkts rows of series.csv are the queue of the link with the most drops.
# Args: $1 binary, $2 corpus dir, $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
corpus=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# Hand-written: link 0->1 drop-tail queue of 2: four packets at 0.1 s, the 4th dropped; one
# leaves at 0.1, 0.108, 0.116.  Queue: 2, 1, 0.  Link 1->0: one ACK.  Flow id 1 loses one.
cat >"$tmp/hand.tr" <<'EOF'
+ 0.1 0 1 tcp 1040 ------- 1 0.0 1.0 0 0
- 0.1 0 1 tcp 1040 ------- 1 0.0 1.0 0 0
+ 0.1 0 1 tcp 1040 ------- 1 0.0 1.0 1 1
+ 0.1 0 1 tcp 1040 ------- 1 0.0 1.0 2 2
+ 0.1 0 1 tcp 1040 ------- 1 0.0 1.0 3 3
d 0.1 0 1 tcp 1040 ------- 1 0.0 1.0 3 3
r 0.108 0 1 tcp 1040 ------- 1 0.0 1.0 0 0
- 0.108 0 1 tcp 1040 ------- 1 0.0 1.0 1 1
+ 0.108 1 0 ack 40 ------- 1 1.0 0.0 0 4
- 0.108 1 0 ack 40 ------- 1 1.0 0.0 0 4
r 0.116 0 1 tcp 1040 ------- 1 0.0 1.0 1 1
- 0.116 0 1 tcp 1040 ------- 1 0.0 1.0 2 2
r 0.118 1 0 ack 40 ------- 1 1.0 0.0 0 4
r 0.124 0 1 tcp 1040 ------- 1 0.0 1.0 2 2
EOF
"$bin" -q --ns2 "$tmp/hand.tr" >"$tmp/hand.out" 2>&1
grep -qE '^  0->1 +4 +3 +1 +2 +1\.500 +2080$' "$tmp/hand.out" ||
    { echo "FAIL: hand-written trace, link 0->1:"; cat "$tmp/hand.out"; fail=1; }
grep -q 'flow id 1: 1 drops' "$tmp/hand.out" || { echo "FAIL: hand-written trace: flow 1 drops"; fail=1; }
# an ns-2 trace carries no receiver window and no TCP options: unknown ("-"), never invented
"$bin" -l --ns2 "$tmp/hand.tr" >"$tmp/hand.long" 2>&1
for row in 'min win adv:' 'max win adv:' 'zero win adv:' 'SACK permitted:' 'timestamps:' 'req MSS:'; do
    grep -qE "^ +$row +- +$row +-$" "$tmp/hand.long" ||
        { echo "FAIL: ns-2 -l: '$row' is not unknown:"; grep "$row" "$tmp/hand.long"; fail=1; }
done
if grep -q 'receiver window' "$tmp/hand.long"; then
    echo "FAIL: ns-2 -l names the receiver window as a limit:"; grep 'receiver window' "$tmp/hand.long"; fail=1
fi

files=("$tmp/hand.tr")
while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$corpus/ns2-traces" -type f -name '*.tr' -print0 2>/dev/null | sort -z)
[ ${#files[@]} -gt 1 ] || echo "multi_ns2: no corpus ns-2 traces; only the hand-written one"

for f in "${files[@]}"; do
    rm -rf "$tmp/csv"
    "$bin" -q --ns2 "$f" --csv "$tmp/csv" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 0 ] || { echo "FAIL: $f: exit $rc: $(head -3 "$tmp/err")"; fail=1; continue; }
    # ours: "  F->T enq deq drops max avg maxbytes" lines of the link table
    awk '/^Link queues/ { on = 1; next } on && $1 ~ /->/ { printf "%s %s %s %s %s %s %s\n", $1, $2, $3, $4, $5, $6, $7 }' \
        "$tmp/out" | sort >"$tmp/ours"
    awk '
    function close_instant(k) { if (q[k] > mx[k]) mx[k] = q[k]; if (b[k] > mb[k]) mb[k] = b[k] }
    NF == 12 && ($1 == "+" || $1 == "-" || $1 == "d") {
        k = $3 "->" $4; t = $2 + 0
        if (!(k in seen)) { seen[k] = 1; first[k] = t; last[k] = t; q[k] = 0; b[k] = 0 }
        if (t > last[k]) { close_instant(k); area[k] += q[k] * (t - last[k]); last[k] = t }
        if ($1 == "+") { enq[k]++; q[k]++; b[k] += $6 }
        else { if ($1 == "-") deq[k]++; else drop[k]++; if (q[k] > 0) q[k]--; b[k] -= $6; if (b[k] < 0) b[k] = 0 }
    }
    END { for (k in seen) { close_instant(k); span = last[k] - first[k]
          printf "%s %d %d %d %d %.3f %d\n", k, enq[k], deq[k], drop[k], mx[k], (span > 0 ? area[k] / span : 0), mb[k] } }' \
        "$f" | sort >"$tmp/want"
    if ! diff -q "$tmp/ours" "$tmp/want" >/dev/null || [ ! -s "$tmp/want" ]; then
        echo "FAIL: $f: link queues differ (ours < > independent count)"; diff "$tmp/ours" "$tmp/want" | head; fail=1
    fi
    # drops per flow id over all links
    awk '/^    flow id/ { sub(/:/, "", $3); d[$3] += $4 } END { for (k in d) print k, d[k] }' "$tmp/out" | sort >"$tmp/fd_ours"
    awk 'NF == 12 && $1 == "d" { d[$8]++ } END { for (k in d) print k, d[k] }' "$f" | sort >"$tmp/fd_want"
    diff -q "$tmp/fd_ours" "$tmp/fd_want" >/dev/null || { echo "FAIL: $f: drops per flow id differ"; fail=1; }
    # TCP flows and their data packets
    nflows=$(awk 'NF == 12 && $5 == "tcp" && $1 == "-" { split($9, s, "."); if ($3 == s[1]) n[$9 " " $10]++ }
        END { print length(n) }' "$f")
    ndata=$(awk 'NF == 12 && $5 == "tcp" && $1 == "-" && $6 > 40 { split($9, s, "."); if ($3 == s[1]) n++ } END { print n + 0 }' "$f")
    ours_conns=$(tr -d '\r' <"$tmp/csv/connections.csv" | awk -F, 'NR > 1' | wc -l)
    ours_data=$(tr -d '\r' <"$tmp/csv/connections.csv" | awk -F, 'NR > 1 { n += $12 + $13 } END { print n + 0 }')
    [ "$ours_conns" = "$nflows" ] && [ "$ours_data" = "$ndata" ] ||
        { echo "FAIL: $f: flows $ours_conns/$nflows, data packets $ours_data/$ndata"; fail=1; }
    # series.csv: the queue of the link with the most drops, one point per instant
    best=$(awk '{ print $4, $5, $1 }' "$tmp/want" | sort -k1,1nr -k2,2nr | head -1 | cut -d' ' -f3)
    ns=$(tr -d '\r' <"$tmp/csv/series.csv" | grep -c '^,,queue_pkts,')
    nw=$(awk -v k="$best" 'NF == 12 && ($1 == "+" || $1 == "-" || $1 == "d") && $3 "->" $4 == k { t[$2] = 1 }
        END { print length(t) }' "$f")
    [ "$ns" = "$nw" ] || { echo "FAIL: $f: series.csv has $ns queue points, link $best has $nw instants"; fail=1; }
    echo "multi_ns2: $(basename "$f"): $(wc -l <"$tmp/want") links, $nflows TCP flows, $ndata data packets," \
        "$(awk '{ d += $4 } END { print d + 0 }' "$tmp/want") drops; busiest link $best"
done
[ $fail -eq 0 ] && echo "multi_ns2: passed"
exit $fail
