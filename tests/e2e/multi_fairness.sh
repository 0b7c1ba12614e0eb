#!/usr/bin/env bash
# multi_fairness.sh - Jain's fairness index on the dumbbell sample (two CUBIC flows, RTT 10 and
# 90 ms, one 10 Mbit/s bottleneck; samples/dumbbell-cubic-rtt), against values computed here
# from tshark's fields of the same captures:
#   flow i = the iperf3 data connection of the manifest (client port flowi_sport);
#   x_i = its TCP payload bytes * 8 / (its last - its first packet time);
#   J = (x1 + x2)^2 / (2 (x1^2 + x2^2)); ratio x1 / x2; shares x_i / (x1 + x2);
#   per 500 ms window from the first packet of either flow: payload bytes of each flow alive in
#   the window, J over them (windows with both alive).
# Also: the control connections are left out, experiment.csv of the same two captures holds the
# same index, and --fairness-by hostpair gives two flows.
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
s=$src/samples/dumbbell-cubic-rtt
[ -f "$s/snd1_eth0.pcap" ] && [ -f "$s/snd2_eth0.pcap" ] || { echo "multi_fairness: no sample $s; skip"; exit 77; }
command -v tshark >/dev/null || { echo "multi_fairness: no tshark; skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

"$bin" -q --fairness-by conn --fairness-window 500 --csv "$tmp/csv" "$s/snd1_eth0.pcap" "$s/snd2_eth0.pcap" \
    >"$tmp/out" 2>"$tmp/err" || { echo "FAIL: exit $?: $(cat "$tmp/err")"; exit 1; }

for i in 1 2; do
    port=$(sed -n "s/^flow${i}_sport=//p" "$s/manifest.txt")
    # seconds and nanoseconds apart, so awk keeps every nanosecond
    tshark -r "$s/snd${i}_eth0.pcap" -Y "tcp.port == $port" -T fields -E separator=, \
        -e frame.time_epoch -e tcp.len 2>/dev/null | sed 's/\./,/' | sed "s/^/$i,/" >>"$tmp/pk.csv"
done
awk -F, '
{ f = $1; t = ($2 - 1796000000) * 1e9 + substr($3 "000000000", 1, 9); b = $4 + 0
  if (!(f in first) || t < first[f]) first[f] = t
  if (!(f in last) || t > last[f]) last[f] = t
  bytes[f] += b; n++; pf[n] = f; pt[n] = t; pb[n] = b }
END {
  for (f = 1; f <= 2; f++) x[f] = bytes[f] * 8 / ((last[f] - first[f]) / 1e9)
  J = (x[1] + x[2]) ^ 2 / (2 * (x[1] ^ 2 + x[2] ^ 2))
  printf "whole %.4f %.4f %.2f %.2f\n", J, x[1] / x[2], 100 * x[1] / (x[1] + x[2]), 100 * x[2] / (x[1] + x[2])
  W = 500e6; t0 = first[1] < first[2] ? first[1] : first[2]; t1 = last[1] > last[2] ? last[1] : last[2]
  nw = int((t1 - t0) / W) + 1
  for (i = 1; i <= n; i++) if (pb[i] > 0) bin[int((pt[i] - t0) / W), pf[i]] += pb[i]
  for (w = 0; w < nw; w++) {
    ws = t0 + w * W; we = ws + W; m = 0; s1 = 0; s2 = 0
    for (f = 1; f <= 2; f++) if (last[f] >= ws && first[f] < we) { m++; v = bin[w, f] * 8 / 0.5; s1 += v; s2 += v * v }
    if (m >= 2) printf "win %.6f\n", (s2 > 0 ? s1 * s1 / (m * s2) : 1)
  }
}' "$tmp/pk.csv" >"$tmp/want"

read -r _ wj wr ws1 ws2 < <(grep '^whole' "$tmp/want")
gj=$(sed -n "s/.*Jain's fairness index: \([0-9.]*\).*/\1/p" "$tmp/out")
gr=$(sed -n 's/.*throughput ratio conn [0-9]* \/ conn [0-9]*: \([0-9.]*\).*/\1/p' "$tmp/out")
gs=$(awk '/^  conn [0-9]+ +1 / { sub(/%/, "", $NF); printf "%s ", $NF }' "$tmp/out")
echo "multi_fairness: Jain ours $gj, from tshark $wj; ratio ours $gr, tshark $wr; shares ours $gs, tshark $ws1 $ws2"
[ "$gj" = "$wj" ] || { echo "FAIL: Jain $gj != $wj"; fail=1; }
[ "$gr" = "$wr" ] || { echo "FAIL: ratio $gr != $wr"; fail=1; }
[ "$gs" = "$ws1 $ws2 " ] || { echo "FAIL: shares '$gs' != '$ws1 $ws2 '"; fail=1; }
# the control connections: every connection whose client port is no data flow's (numbers as the
# connection list gives them: by first packet, the two files merged by time)
dports=" $(sed -n 's/^flow[0-9]*_sport=//p' "$s/manifest.txt" | tr '\n' ' ')"
ctl=$("$bin" "$s/snd1_eth0.pcap" "$s/snd2_eth0.pcap" 2>/dev/null |
      awk -v d="$dports" '$1 ~ /^[0-9]+:$/ { n = split($2, a, ":"); if (index(d, " " a[n] " ") == 0) { sub(":", "", $1); printf "conn %s ", $1 } }')
[ -n "$ctl" ] && grep -q "left out.*: ${ctl% }\$" "$tmp/out" ||
    { echo "FAIL: control connections ($ctl) not left out: $(grep 'left out' "$tmp/out")"; fail=1; }

grep '^win' "$tmp/want" | cut -d' ' -f2 >"$tmp/want_win"
grep '^,,jain_index,' "$tmp/csv/series.csv" | cut -d, -f5 | awk '{ printf "%.6f\n", $1 }' >"$tmp/got_win"
nw=$(wc -l <"$tmp/want_win")
echo "multi_fairness: $nw windows of 500 ms; series.csv has $(wc -l <"$tmp/got_win")"
if ! paste -d' ' "$tmp/want_win" "$tmp/got_win" | awk 'NF != 2 || ($1 - $2 > 2e-6 || $2 - $1 > 2e-6) { bad = 1 } END { exit bad }' ||
    [ "$nw" -ne "$(wc -l <"$tmp/got_win")" ] || [ "$nw" -lt 5 ]; then
    echo "FAIL: windowed Jain's index differs:"; paste "$tmp/want_win" "$tmp/got_win"; fail=1
fi

# the experiment table of the same captures (one trace of the two files is not possible: each
# trace is one file, so compare the index of each single-file trace: one flow, J = 1)
"$bin" --experiment "rtt=10ms=$s/snd1_eth0.pcap" --experiment "rtt=90ms=$s/snd2_eth0.pcap" --csv "$tmp/exp" \
    >"$tmp/exp.out" 2>&1 || { echo "FAIL: experiment exit $?"; fail=1; }
awk -F, '{ sub(/\r$/, "") } NR > 1 && $13 != "1.000000" { bad = 1 } END { exit bad }' "$tmp/exp/experiment.csv" ||
    { echo "FAIL: single-flow traces must have J = 1"; fail=1; }

"$bin" -q --fairness-by hostpair "$s/snd1_eth0.pcap" "$s/snd2_eth0.pcap" >"$tmp/hp" 2>&1
grep -q 'Fairness (by hostpair, 2 flows)' "$tmp/hp" || { echo "FAIL: hostpair"; cat "$tmp/hp"; fail=1; }
[ $fail -eq 0 ] && echo "multi_fairness: passed"
exit $fail
