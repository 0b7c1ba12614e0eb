#!/bin/bash
# tui_soak: the dashboard replays an endless TCP connection at full speed for a few minutes and
# reports its peak memory, its memory over time and its screen refresh rate.  Memory must not
# grow with time: the analyzer keeps no per-packet history in --tui mode, the plots' histories
# and the event log are fixed-size.
#
# The trace: the bulk connection of samples/loopback-iperf3.pcap, its middle (after the
# handshake, before the FIN) repeated forever with sequence numbers, ACKs, TCP timestamps and
# times shifted, so the analyzer sees one connection that lasts for days of trace time.  A
# Python generator writes it into a FIFO that tcptrace-ng reads as a pcap file.
#
# usage: tests/bench/tui_soak.sh [BINARY] [SECONDS]   (default build/tcptrace-ng, 180 s)
set -u
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${1:-$SRC/build/tcptrace-ng}
SECS=${2:-180}
for t in tmux python3; do command -v $t >/dev/null || { echo "needs $t"; exit 2; }; done
TMP=$(mktemp -d)
SOCK=$TMP/tmux.sock
T="tmux -S $SOCK"
trap '$T kill-server 2>/dev/null; kill $GEN 2>/dev/null; rm -rf "$TMP"' EXIT
mkfifo "$TMP/trace.pcap"

cat > "$TMP/gen.py" <<'PY'
import struct, sys
src, dst = sys.argv[1], sys.argv[2]
data = open(src, 'rb').read()
magic, vmaj, vmin, tz, sig, snap, link = struct.unpack('<IHHiIII', data[:24])
assert magic == 0xa1b2c3d4 and link == 1
pkts, off = [], 24
while off + 16 <= len(data):
    ts, tus, incl, orig = struct.unpack('<IIII', data[off:off + 16])
    pkts.append([ts * 1000000 + tus, bytearray(data[off + 16:off + 16 + incl]), orig]); off += 16 + incl
def tcp(p):   # (ip offset, tcp offset) of an Ethernet/IPv4/TCP frame, or None
    b = p[1]
    if len(b) < 54 or b[12:14] != b'\x08\x00' or b[23] != 6: return None
    ihl = (b[14] & 15) * 4
    return 14 + ihl
conn = []
for p in pkts:
    t = tcp(p)
    if t is None: continue
    sport, dport = struct.unpack('>HH', p[1][t:t + 4])
    if 57988 in (sport, dport): conn.append((p, t, sport == 57988))
flags = lambda p, t: p[1][t + 13]
mid = [c for c in conn if not flags(c[0], c[1]) & 0x07]          # no SYN/FIN/RST
mid = mid[len(mid) // 10:]                                         # past slow start
hs = [c for c in conn if flags(c[0], c[1]) & 0x02]                 # SYN, SYN-ACK
seqs = [struct.unpack('>I', c[0][1][c[1] + 4:c[1] + 8])[0] for c in mid if c[2]]
span = (max(seqs) - min(seqs)) & 0xffffffff
dur = mid[-1][0][0] - mid[0][0][0] + 200                           # us per repetition
out = open(dst, 'wb')
out.write(data[:24])
def emit(p, t, rel_us):
    out.write(struct.pack('<IIII', rel_us // 1000000, rel_us % 1000000, len(p[1]), p[2]))
    out.write(p[1])
for c in hs + [conn[2]]:   # SYN, SYN-ACK, ACK
    emit(c[0], c[1], c[0][0])
r = 0
try:
    while True:
        r += 1
        for p, t, a2b in mid:
            b = bytearray(p[1])
            s, a = struct.unpack('>II', b[t + 4:t + 12])
            if a2b: s = (s + r * span) & 0xffffffff
            else:   a = (a + r * span) & 0xffffffff
            struct.pack_into('>II', b, t + 4, s, a)
            doff = (b[t + 12] >> 4) * 4
            o = t + 20
            while o + 10 <= min(t + doff, len(b)):          # shift the TSval/TSecr clocks too
                k = b[o]
                if k == 1: o += 1; continue
                if k == 0 or o + 1 >= len(b): break
                if k == 8:
                    v, e = struct.unpack('>II', b[o + 2:o + 10])
                    struct.pack_into('>II', b, o + 2, (v + r * dur // 1000) & 0xffffffff,
                                     (e + r * dur // 1000) & 0xffffffff)
                    break
                o += max(b[o + 1], 2)
            emit([0, b, p[2]], t, p[0] + r * dur)
except BrokenPipeError:
    pass
PY

python3 "$TMP/gen.py" "$SRC/samples/loopback-iperf3.pcap" "$TMP/trace.pcap" & GEN=$!
$T new-session -d -s soak -x 120 -y 40 \
    "env LC_ALL=C.UTF-8 TCPTRACE_NG_TUI_STATS=$TMP/stats $BIN --tui $TMP/trace.pcap; echo done > $TMP/exited; sleep 5"
sleep 2
PID=$(pgrep -n -f "^[^ ]*tcptrace-ng --tui $TMP/trace.pcap")
[ -n "$PID" ] || { echo "tcptrace-ng did not start"; exit 1; }
echo "soak: $BIN, pid $PID, $SECS s"
printf "%8s %12s %12s\n" "t (s)" "RSS (KiB)" "packets"
: > "$TMP/rss"
for ((s = 10; s <= SECS; s += 10)); do
    sleep 10
    rss=$(awk '/^VmRSS/ { print $2 }' /proc/$PID/status 2>/dev/null)
    pk=$($T capture-pane -p -t soak | grep -o 'pkts [0-9]*' | awk '{ print $2 }')
    printf "%8d %12s %12s\n" "$s" "$rss" "$pk"
    echo "$s $rss $pk" >> "$TMP/rss"
done
$T capture-pane -p -t soak > "$TMP/screen"
$T send-keys -t soak q
for _ in $(seq 1 100); do [ -f "$TMP/exited" ] && break; sleep 0.1; done
echo "--- last screen ---"; head -6 "$TMP/screen"
echo "--- dashboard statistics ---"; cat "$TMP/stats"
awk 'NR == 3 { early = $2 } { last = $2; pk = $3 } END {
    printf "RSS at 30 s: %d KiB, at the end: %d KiB (%+.1f%%); %s packets analyzed\n", early, last,
           100 * (last - early) / early, pk
    if (last > early * 1.10) { print "VERDICT: memory grew"; exit 1 } else print "VERDICT: memory flat" }' "$TMP/rss"
