# samples/lab/test_lib.sh - helpers for tests/e2e/lab_*.sh (sourced; not a test itself).
# Facts are computed from the pcaps with tshark and from the truth files, never from the
# analyzer under test.
# shellcheck shell=bash

tl_skip() { echo "SKIP: $*"; exit 77; }
tl_fail() { echo "FAIL: $*"; TL_FAILED=1; }
TL_FAILED=0

tl_need() {
    local t
    for t in "$@"; do command -v "$t" >/dev/null || tl_skip "$t is not installed"; done
}

# Sample folders (with a lab manifest) under $1/samples.
tl_samples() {
    local d
    for d in "$1"/samples/*/; do
        [ -f "$d/manifest.txt" ] && [ -f "$d/flows.csv" ] && echo "${d%/}"
    done
}

tl_manifest() { sed -n "s/^$2=//p" "$1/manifest.txt" | head -1; }

# tl_flow SAMPLE FLOW COLUMN: a cell of flows.csv by column name
tl_flow() {
    awk -F, -v f="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
        $1 == f { print $k }' "$1/flows.csv"
}

tl_flows() { awk -F, 'NR > 1 { print $1 }' "$1/flows.csv"; }

# tl_pcap SAMPLE FLOW POINT(sender|receiver): the capture at that flow's host, if any
tl_pcap() {
    local node col
    [ "$3" = sender ] && col=src_node || col=dst_node
    node=$(tl_flow "$1" "$2" "$col")
    awk -F, -v n="$node" -v p="$3" '$2 == p && $3 == n { print $1; exit }' "$1/captures.csv" |
        while read -r f; do echo "$1/$f"; done
}

# Retransmitted segments of one direction in a capture: segments (data, SYN or FIN) whose
# sequence range starts below the highest sequence number already sent (SYN/FIN count 1).
tl_count_rexmit() {
    local pcap=$1 sport=$2 dport=$3
    tshark -r "$pcap" -o tcp.relative_sequence_numbers:TRUE \
        -Y "tcp.srcport == $sport && tcp.dstport == $dport && (tcp.len > 0 || tcp.flags.syn == 1 || tcp.flags.fin == 1)" \
        -T fields -e tcp.seq -e tcp.len -e tcp.flags.syn -e tcp.flags.fin 2>/dev/null |
        awk '{ syn = ($3 == "1" || $3 == "True") ? 1 : 0; fin = ($4 == "1" || $4 == "True") ? 1 : 0
               end = $1 + $2 + syn + fin
               if (seen && $1 < maxend) n++
               if (!seen || end > maxend) maxend = end; seen = 1 }
             END { print n + 0 }'
}

# First handshake RTT (ms) seen at the sender capture between sport-side host addr and
# dst:dport: TCP SYN -> SYN-ACK of the first connection to dport (any client port), DFCP
# SYN -> SYNACK (UDP payload type nibble). Uses the last SYN before the answer.
tl_first_handshake_ms() {
    local pcap=$1 proto=$2 daddr=$3 dport=$4
    if [ "$proto" = dfcp ]; then
        tshark -r "$pcap" -Y "ip.addr == $daddr && udp.port == $dport" -T fields \
            -e frame.time_epoch -e udp.dstport -e udp.payload 2>/dev/null |
            awk -v d="$dport" '{ t = substr($3, 9, 2) }
                $2 == d && t == "11" && !done { syn = $1 }
                $2 != d && t == "12" && syn != "" && !done { printf "%.3f\n", ($1 - syn) * 1000; done = 1 }'
    else
        tshark -r "$pcap" -Y "ip.addr == $daddr && tcp.port == $dport && tcp.flags.syn == 1" -T fields \
            -e frame.time_epoch -e tcp.dstport -e tcp.flags.ack -e tcp.stream 2>/dev/null |
            awk -v d="$dport" '$2 == d && ($3 == "0" || $3 == "False") && !done { if (st == "") st = $4; if ($4 == st) syn = $1 }
                $2 != d && ($3 == "1" || $3 == "True") && $4 == st && !done { printf "%.3f\n", ($1 - syn) * 1000; done = 1 }'
    fi
}

# Packets' time range of a pcap: "first last"
tl_pcap_range() {
    tshark -r "$1" -T fields -e frame.time_epoch 2>/dev/null | sed -n '1p;$p' | tr '\n' ' '
}
