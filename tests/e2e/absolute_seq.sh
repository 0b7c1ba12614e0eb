#!/usr/bin/env bash
# absolute_seq.sh - relative sequence numbers by default, absolute ones with -A: packets.csv's
# seq/ack of every TCP packet of a sample equal tshark's tcp.seq/tcp.ack (relative) and
# tcp.seq_raw/tcp.ack_raw (absolute).   args: BINARY CORPUS_DIR SOURCE_DIR
set -u
bin=$1 src=$3
sample="$src/samples/loopback-iperf3.pcap"
command -v tshark >/dev/null || { echo "tshark missing"; exit 77; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail=0
for mode in rel abs; do
    opt=() && [ $mode = abs ] && opt=(-A)
    "$bin" -q "${opt[@]}" --csv "$tmp/$mode" "$sample" >/dev/null || { echo "run failed ($mode)"; exit 1; }
    # ours: seq,ack in packet order (packets.csv lists connections in order, packets in time order)
    awk -F, 'NR > 1 { print $1, $2, $4, $5 }' "$tmp/$mode/packets.csv" | sort -s -k2,2 | awk '{ print $3, $4 }' > "$tmp/ours.$mode"
    if [ $mode = rel ]; then f1=tcp.seq f2=tcp.ack; else f1=tcp.seq_raw f2=tcp.ack_raw; fi
    # tshark prints ack 0 when the ACK flag is off, as we do
    tshark -r "$sample" -Y tcp -T fields -e "$f1" -e "$f2" -o tcp.relative_sequence_numbers:TRUE 2>/dev/null |
        awk '{ print $1, ($2 == "" ? 0 : $2) }' > "$tmp/tshark.$mode"
    n=$(wc -l < "$tmp/tshark.$mode")
    if ! cmp -s "$tmp/ours.$mode" "$tmp/tshark.$mode"; then
        echo "FAIL $mode: packets.csv seq/ack differ from tshark's ($n packets)"
        diff "$tmp/ours.$mode" "$tmp/tshark.$mode" | head -5
        fail=1
    else
        echo "ok $mode: $n packets, seq/ack equal tshark's"
    fi
done
exit $fail
