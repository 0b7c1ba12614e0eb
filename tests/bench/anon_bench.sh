#!/usr/bin/env bash
# anon_bench.sh - the cost of --anonymize: tcptrace-ng -l with and without it, and with an
# anonymized --export, on many-connection captures, beside traceanon (libtrace-tools) anonymizing
# the same file, in the same run.  Not part of the test suite: run it by hand on an idle machine.
#
#   tests/bench/anon_bench.sh [CACHE_DIR]        (default /tmp/tcptrace-ng-anon-bench)
#
# Environment: BIN (default build/tcptrace-ng), CONNS (connections per capture, default 200000),
#   REPS (timed runs, best wall time kept, default 3).
# The captures are synthetic (generated once into CACHE_DIR): CONNS TCP connections of 8 packets
# each (handshake, one data segment each way, their ACKs, FIN), every connection between its own
# pair of random hosts, so nearly every connection brings two addresses the cache has not seen:
# the worst case for the cache.  One capture is IPv4, one IPv6 (CONNS / 4 connections).
# Target (issue 15): -l --anonymize within 1.2x of -l.
set -u

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cache=${1:-/tmp/tcptrace-ng-anon-bench}
BIN=${BIN:-$src/build/tcptrace-ng}
CONNS=${CONNS:-200000}
REPS=${REPS:-3}
mkdir -p "$cache" || exit 1
command -v python3 >/dev/null || { echo "anon_bench: needs python3 to generate the captures"; exit 1; }
[ -x "$BIN" ] || { echo "anon_bench: no $BIN"; exit 1; }

gen() {   # gen FILE VERSION CONNS
    [ -s "$1" ] && return
    python3 - "$1" "$2" "$3" <<'EOF'
import random, struct, sys
path, ver, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rnd = random.Random(15)
out = open(path, "wb")
out.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 262144, 1))
def csum(b):
    if len(b) % 2: b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16: s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff
def pkt(t, a, b, sp, dp, seq, ack, flags, plen):
    tcp = struct.pack("!HHIIBBHHH", sp, dp, seq, ack, 5 << 4, flags, 65535, 0, 0) + b"x" * plen
    if ver == 4:
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 1, 0, 64, 6, 0, a, b)
        ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
        eth = b"\0" * 12 + b"\x08\x00"
    else:
        ip = struct.pack("!IHBB16s16s", 6 << 28, len(tcp), 6, 64, a, b)
        eth = b"\0" * 12 + b"\x86\xdd"
    frame = eth + ip + tcp
    sec, usec = int(t), int((t % 1) * 1e6)
    out.write(struct.pack("<IIII", sec, usec, len(frame), len(frame)) + frame)
t = 1.0e9
alen = 4 if ver == 4 else 16
for i in range(n):
    a, b = rnd.randbytes(alen), rnd.randbytes(alen)
    sp, dp = rnd.randrange(1024, 65535), 80
    x, y = rnd.randrange(1 << 32), rnd.randrange(1 << 32)
    S, A, F, P = 0x02, 0x10, 0x01, 0x08
    for (src, dst, s, d, seq, ack, fl, pl) in (
            (a, b, sp, dp, x, 0, S, 0), (b, a, dp, sp, y, x + 1, S | A, 0),
            (a, b, sp, dp, x + 1, y + 1, A, 0), (a, b, sp, dp, x + 1, y + 1, A | P, 100),
            (b, a, dp, sp, y + 1, x + 101, A | P, 200), (a, b, sp, dp, x + 101, y + 201, A, 0),
            (a, b, sp, dp, x + 101, y + 201, A | F, 0), (b, a, dp, sp, y + 201, x + 102, A | F, 0)):
        t += 1e-5
        pkt(t, src, dst, s, d, seq & 0xffffffff, ack & 0xffffffff, fl, pl)
EOF
}

best() {   # best CMD...: the least wall time of REPS runs, and the peak RSS of that run (KiB)
    local b="" m="" i
    for i in $(seq "$REPS"); do
        /usr/bin/time -f '%e %M' -o "$cache/t" "$@" >/dev/null 2>&1
        read -r w r <"$cache/t"
        if [ -z "$b" ] || awk -v w="$w" -v b="$b" 'BEGIN { exit !(w < b) }'; then b=$w; m=$r; fi
    done
    echo "$b $m"
}

key=$cache/bench.key
[ -s "$key" ] || { head -c 32 /dev/urandom >"$key"; chmod 600 "$key"; }
gen "$cache/v4.pcap" 4 "$CONNS"
gen "$cache/v6.pcap" 6 $((CONNS / 4))
for f in v4 v6; do
    p=$cache/$f.pcap
    read -r plain pm < <(best "$BIN" -l "$p")
    read -r anon am < <(best "$BIN" -l --anonymize "$key" "$p")
    read -r expo em < <(best "$BIN" -l --anonymize "$key" --export "$cache/out.pcap" "$p")
    peer="-"
    if command -v traceanon >/dev/null && [ $f = v4 ]; then   # traceanon 3.0 anonymizes IPv4 only
        read -r peer _ < <(best traceanon -f "$key" -s -d "$p" "pcapfile:$cache/peer.pcap")
    fi
    echo "$f: $(capinfos -c -M "$p" 2>/dev/null | awk '/Number of packets/ { print $NF }') packets;" \
        "-l ${plain}s (${pm} KiB), -l --anonymize ${anon}s (${am} KiB), + --export ${expo}s (${em} KiB)," \
        "traceanon ${peer}s"
    awk -v a="$anon" -v p="$plain" -v e="$expo" -v t="$peer" 'BEGIN {
        printf "  ratio -l --anonymize / -l: %.2f (target <= 1.2); with --export: %.2f", a / p, e / p
        if (t != "-") printf "; traceanon / (-l --anonymize --export): %.2f", t / e
        printf "\n" }'
done
