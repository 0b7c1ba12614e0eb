#!/usr/bin/env bash
# multi_parallel.sh - a parallel transfer (samples/loopback-iperf3-parallel.pcap: iperf3 -P 3 on
# loopback, each stream paced at 8 Mbit/s) against iperf3's own report of the same run
# (samples/loopback-iperf3-parallel.json) and tshark's fields:
#  - --parallel-window finds one transfer of the three data streams (the control connection is
#    not a subflow);
#  - each subflow's share = its bytes / the three streams' bytes, where a stream's bytes are what
#    iperf3 says it sent (end.streams[].sender.bytes) plus the 37-byte cookie iperf3 writes first
#    on every stream (COOKIE_SIZE, iperf.h);
#  - the aggregate = the streams' payload bytes (tshark tcp.len) * 8 / (first to last packet);
#  - parallel-1.png is written.
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
f=$src/samples/loopback-iperf3-parallel.pcap
j=$src/samples/loopback-iperf3-parallel.json
[ -f "$f" ] && [ -f "$j" ] || { echo "multi_parallel: no sample; skip"; exit 77; }
command -v tshark >/dev/null || { echo "multi_parallel: no tshark; skip"; exit 77; }
command -v python3 >/dev/null || { echo "multi_parallel: no python3; skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$bin" -q --parallel-window 500 --plot "$tmp/fig" "$f" >"$tmp/out" 2>"$tmp/err" ||
    { echo "FAIL: exit $?: $(cat "$tmp/err")"; exit 1; }
grep -q '^Parallel transfers (connections of one host pair started together): 1$' "$tmp/out" ||
    { echo "FAIL: not one parallel transfer"; cat "$tmp/out"; fail=1; }
grep -q ': 3 subflows,' "$tmp/out" || { echo "FAIL: not 3 subflows"; fail=1; }
python3 - "$j" >"$tmp/want" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
port = {c["socket"]: c["local_port"] for c in d["start"]["connected"]}
b = {port[s["sender"]["socket"]]: s["sender"]["bytes"] + 37 for s in d["end"]["streams"]}
for p in sorted(b):
    print(p, "%.2f" % (100.0 * b[p] / sum(b.values())))
PY
"$bin" "$f" | awk '/^ +[0-9]+: / { split($2, a, ":"); print $1 + 0, a[2] }' >"$tmp/conns"
while read -r port share; do
    c=$(awk -v p="$port" '$2 == p { print $1 }' "$tmp/conns")
    got=$(sed -n "s/^    conn $c: \([0-9.]*\)% of the bytes$/\1/p" "$tmp/out")
    echo "multi_parallel: stream port $port (conn $c): share $got%, iperf3 $share%"
    [ -n "$got" ] && [ "$got" = "$share" ] || { echo "FAIL: port $port share '$got' != $share"; fail=1; }
done <"$tmp/want"
ports=$(cut -d' ' -f1 "$tmp/want" | paste -sd',')
want=$(tshark -r "$f" -Y "tcp.port in {$ports}" -T fields -e frame.time_epoch -e tcp.len 2>/dev/null |
    sed 's/\./ /' | awk '{ t = ($1 - 1796000000) * 1e9 + substr($2 "000000000", 1, 9)
        if (!n++ || t < f) f = t; if (t > l) l = t; b += $3 } END { printf "%.3f", b * 8 / ((l - f) / 1e9) / 1e6 }')
got=$(sed -n 's/.*3 subflows, [0-9]* data bytes, aggregate \([0-9.]*\) Mbit\/s$/\1/p' "$tmp/out")
echo "multi_parallel: aggregate $got Mbit/s, tshark $want Mbit/s"
[ -n "$got" ] && [ "$got" = "$want" ] || { echo "FAIL: aggregate '$got' != $want"; fail=1; }
[ -s "$tmp/fig/parallel-1.png" ] || { echo "FAIL: no parallel-1.png"; fail=1; }
[ $fail -eq 0 ] && echo "multi_parallel: passed"
exit $fail
