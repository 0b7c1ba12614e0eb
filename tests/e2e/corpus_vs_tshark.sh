#!/usr/bin/env bash
# corpus_vs_tshark.sh - connections and per-direction packet/data-byte counts of tcptrace-ng
# equal TShark's on third-party captures of different link types and file formats.
#
#   corpus_vs_tshark.sh BINARY CORPUS_DIR SOURCE_DIR     exit 0 pass, 1 fail, 77 skip
#
# TShark's side is computed now, from the packets, with
#   tshark -n -r F -Y tcp -T fields -e tcp.stream -e ip.src -e ipv6.src -e tcp.srcport
#          -e ip.dst -e ipv6.dst -e tcp.dstport -e tcp.len
# aggregated per stream (one stream = one connection).  Ours is DIR/connections.csv from
# `tcptrace-ng -q --csv DIR F`.  Each connection becomes one line
#   LOW_ENDPOINT HIGH_ENDPOINT pkts(low->high) pkts(high->low) bytes(low->high) bytes(high->low)
# (endpoints sorted as text, so side a/b does not matter) and the two sorted multisets of lines
# must be equal: same number of connections, same endpoints, same packet and data-byte counts
# each way.  Files were chosen where the two tools' definitions of a connection coincide; see
# docs/corpus-comparison.md for files where they do not, and why (e.g.
# wireshark-samplecaptures/packet_capture.pcap is left out: we split 235 refused-SYN
# exchanges into two connections where TShark keeps one; listed there as our bug).
set -u

bin=${1:?usage: corpus_vs_tshark.sh BINARY CORPUS_DIR SOURCE_DIR}
corpus=${2:?corpus dir}
# $3 (source dir) is not needed here.

if [ ! -d "$corpus" ] || [ ! -f "$corpus/MANIFEST.tsv" ]; then
    echo "SKIP: corpus not found at $corpus"
    exit 77
fi
if ! command -v tshark >/dev/null 2>&1; then
    echo "SKIP: tshark is not installed (scripts/setup.sh installs it)"
    exit 77
fi

# The captures: "path<TAB>what it covers".  One per link type / file format at least.
FILES=(
    "tcptrace-input/dsack.dmp	Ethernet, pcap (us), 15.7k pkts, snaplen-truncated, SACK/D-SACK bulk"
    "mlab-ndt/ndt-4c6fb_1625899199_000000000121C1A0.pcap	Ethernet, nanosecond pcap, 18k pkts, GRO super-frames"
    "mlab-ndt/ndt-nnwk2_1611335823_00000000000C2DA9.pcap	IPv6 over Ethernet, nanosecond pcap, zero windows"
    "wireshark-samplecaptures/lan1.pcap	Ethernet, 166 connections, retransmissions"
    "wireshark-samplecaptures/echi12.pcap	Ethernet, 52 connections, retransmissions, non-TCP mixed in"
    "wireshark-samplecaptures/ftp(2).pcap	Ethernet, FTP control + data connections, name with parentheses"
    "libtrace/ip-in-mpls.pcap	Ethernet + MPLS, 10.5k pkts, snaplen-truncated"
    "mlab-ndt/ndt-m6znc_1632401351_000000000005B9EA.pcap	IPv6, nanosecond pcap, 146k pkts, GRO super-frames"
    "suricata-verify/bug-4376/syn_retransmit_with_ts.pcap	Ethernet + VLAN, retransmitted SYNs with the same ISN"
    "libtrace/vlan.pcap	Ethernet + 802.1Q VLAN"
    "wireshark-samplecaptures/rrtacl.pcap	Linux cooked (SLL v1), 12 connections"
    "pcapplusplus/PcapExamples/sll.pcap	Linux cooked (SLL v1)"
    "tcptrace-input/linux_cooked_socket.dmp	Linux cooked (SLL v1), 2 connections"
    "suricata-verify/decode-sll2-01/input.pcap	Linux cooked v2 (SLL2)"
    "zeek-traces/tls/openjdk-25.0.2-zeek.org.pcap	Linux cooked v2 (SLL2)"
    "pcapplusplus/PcapExamples/raw_ip.pcap	raw IP (LINKTYPE_RAW), IPv4 and IPv6 mixed"
    "pcapplusplus/PcapExamples/four_ipv6_http_streams.pcap	raw IP, IPv6, 4 connections"
    "tcptrace-input/dlt_null.dmp	BSD loopback (DLT_NULL)"
    "suricata-verify/http-range-multiflows/input.pcap	BSD loopback, 41 connections"
    "wireshark-samplecaptures/redundant_stream1.pcapng	pcapng, Ethernet, MPTCP subflows"
    "zeek-traces/redis/django-cloud.pcapng	pcapng"
    "emmakofod-itsi/SACK example .pcapng	pcapng, SACK, name with a space"
    "tcpdump-tests/arcnet-rfc1201-arp-icmp-http.pcap	ARCNET (Linux), RFC 1201 encapsulation"
    "tcpdump-tests/arcnet-rfc1051-arp-icmp-http.pcap	ARCNET (Linux), RFC 1051 encapsulation"
)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/corpus_vs_tshark.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# Lines "lo hi p_lohi p_hilo b_lohi b_hilo" from TShark.
tshark_side() {
    tshark -n -r "$1" -Y tcp -T fields -E separator=/t \
        -e tcp.stream -e ip.src -e ipv6.src -e tcp.srcport \
        -e ip.dst -e ipv6.dst -e tcp.dstport -e tcp.len 2>"$tmp/tshark.err" |
    awk -F'\t' -v errf="$tmp/multi" '
        {
            # a packet with two IP layers (tunnel, ICMP error) has comma-joined values
            if ($1 ~ /,/ || $2 ~ /,/ || $3 ~ /,/ || $4 ~ /,/) { multi++; next }
            src = ($2 != "" ? $2 : $3) ":" $4
            dst = ($5 != "" ? $5 : $6) ":" $7
            s = $1
            if (!(s in lo)) {
                lo[s] = (src < dst) ? src : dst
                hi[s] = (src < dst) ? dst : src
            }
            len = ($8 == "" ? 0 : $8)
            if (src == lo[s]) { p1[s]++; b1[s] += len } else { p2[s]++; b2[s] += len }
        }
        END {
            for (s in lo) printf "%s %s %d %d %d %d\n", lo[s], hi[s], p1[s], p2[s], b1[s], b2[s]
            if (multi) printf "%d\n", multi > errf
        }' | sort
}

# The same lines from our connections.csv (columns found by header name).
ours_side() {
    awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["proto"] != "tcp" { next }
        {
            a = $col["a_addr"]; b = $col["b_addr"]
            gsub(/[\[\]"]/, "", a); gsub(/[\[\]"]/, "", b)
            a = a ":" $col["a_port"]; b = b ":" $col["b_port"]
            pa = $col["a2b_pkts"]; pb = $col["b2a_pkts"]
            ba = $col["a2b_data_bytes"]; bb = $col["b2a_data_bytes"]
            if (a < b) printf "%s %s %d %d %d %d\n", a, b, pa, pb, ba, bb
            else       printf "%s %s %d %d %d %d\n", b, a, pb, pa, bb, ba
        }' "$1" | sort
}

fail=0
n=0
for entry in "${FILES[@]}"; do
    rel=${entry%%	*}
    what=${entry#*	}
    f="$corpus/$rel"
    n=$((n + 1))
    if [ ! -f "$f" ]; then
        echo "FAIL $rel: file missing from the corpus"
        fail=1
        continue
    fi
    rm -rf "$tmp/csv" "$tmp/multi"
    "$bin" -q --csv "$tmp/csv" "$f" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 0 ] || [ ! -f "$tmp/csv/connections.csv" ]; then
        echo "FAIL $rel ($what): tcptrace-ng exit $rc, connections.csv missing or run failed"
        head -5 "$tmp/err" | sed 's/^/    /'
        fail=1
        continue
    fi
    tshark_side "$f" >"$tmp/theirs"
    if [ -s "$tmp/multi" ]; then
        echo "FAIL $rel: $(cat "$tmp/multi") TShark packets with two IP/TCP layers (tunnel or ICMP); not a comparable file"
        fail=1
        continue
    fi
    ours_side "$tmp/csv/connections.csv" >"$tmp/ours"
    nt=$(wc -l <"$tmp/theirs")
    no=$(wc -l <"$tmp/ours")
    if [ "$nt" -eq 0 ]; then
        echo "FAIL $rel: TShark found no TCP (tshark error: $(head -c 200 "$tmp/tshark.err"))"
        fail=1
        continue
    fi
    if cmp -s "$tmp/theirs" "$tmp/ours"; then
        pk=$(awk '{s += $3 + $4} END {print s}' "$tmp/ours")
        echo "ok   $rel ($what): $no connections, $pk TCP packets"
    else
        echo "FAIL $rel ($what): tshark $nt connections, ours $no"
        echo "    lines: endpoint endpoint pkts(lo->hi) pkts(hi->lo) databytes(lo->hi) databytes(hi->lo)"
        diff "$tmp/theirs" "$tmp/ours" | grep '^[<>]' | head -20 |
            sed -e 's/^</    tshark:/' -e 's/^>/    ours:  /'
        fail=1
    fi
done

if [ "$fail" -ne 0 ]; then
    echo "corpus_vs_tshark: FAILED (of $n files)"
    exit 1
fi
echo "corpus_vs_tshark: all $n files agree with TShark"
exit 0
