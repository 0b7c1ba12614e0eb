#!/usr/bin/env bash
# anonymize.sh - --anonymize and the anonymized export (-w/--export), checked against peers:
#  1. every address in the export (IPv4, IPv6, ARP, tunnelled headers, ICMP quotes, neighbour
#     discovery) is replaced, consistently (one original -> one anonymized value, the same number
#     of addresses per packet as the original, as tshark reads both); every IPv4 address equals
#     what traceanon (libtrace-tools) writes with the same key file: for the outer headers on the
#     export of the same capture, for the others on a capture of those addresses made with
#     text2pcap; IPv6 pairs keep their common prefix length;
#  2. link-layer addresses are zero, payload is cut (unless --keep-payload, which keeps it byte
#     for byte), IPv4 header checksums are right, TCP checksums are right where the segment is
#     whole and zero where it was cut (tshark's checksum validation);
#  3. the reports on the export equal the anonymized reports on the original, and those equal the
#     original's reports with the addresses replaced by traceanon's mapping;
#  4. an anonymized run shows no original address in any output (text, -l, timeline, fairness,
#     CSV, xplot, experiment table, two-point report); figures are not grepped (cairo draws their
#     text as glyphs), their titles and legends come from the same connection records;
#  5. --anonymize-ts: time stamps moved per host, echoes kept, RTTs in the report unchanged;
#  6. the key file: missing, short or long is an error before any packet is read (exit 2, no
#     report), group-readable a warning; the key never appears in the output.
# Args: $1 binary, $2 corpus dir, $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
corpus=$2
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v tshark >/dev/null || { echo "anonymize: no tshark; skip"; exit 77; }
have_traceanon=1
command -v traceanon >/dev/null && command -v text2pcap >/dev/null || have_traceanon=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# The reference implementation's key (Crypto-PAn sample.cpp), as a 32-byte key file.
key=$tmp/ref.key
printf '%b' '\x15\x22\x17\x8d\x33\xa4\xcf\x80\x13\x0a\x5b\x16\x49\x90\x7d\x10\xd8\x98\x8f\x83\x79\x79\x65\x27\x62\x57\x4c\x2d\x2a\x84\x22\x02' >"$key"
chmod 600 "$key"

inputs=("$src/samples/loopback-iperf3.pcap" "$src/samples/dfcp-loss/snd1_eth0.pcap")
for f in libtrace/vxlan.pcap pcapplusplus/PacketExamples/GrePackets.pcap \
         pcapplusplus/PacketExamples/gtp.pcap pcapplusplus/PacketExamples/IcmpPackets.pcap \
         tcpdump-tests/icmpv6.pcap libtrace/100_packets.pcap tcpdump-tests/tcp-handshake-nano.pcap; do
    [ -f "$corpus/$f" ] && inputs+=("$corpus/$f")
done
[ ${#inputs[@]} -gt 2 ] || echo "anonymize: corpus not found, samples only"

# Every address field of every packet, one packet per line, fields separated by '|', the
# occurrences of a field (outer header first) by ' '.
addr_fields=(-T fields -E occurrence=a -E aggregator=' ' -E 'separator=|'
    -e ip.src -e ip.dst -e ipv6.src -e ipv6.dst -e arp.src.proto_ipv4 -e arp.dst.proto_ipv4
    -e icmpv6.nd.ns.target_address -e icmpv6.nd.na.target_address)
addrs() { tshark -r "$1" "${addr_fields[@]}" 2>/dev/null; }

# traceanon's Crypto-PAn of a list of IPv4 addresses (stdin, one a line): "orig anon" lines.
traceanon_map() {
    local list=$1 out=$2
    : >"$tmp/o.txt"
    while read -r a; do
        IFS=. read -r o1 o2 o3 o4 <<<"$a"
        printf '0000  00 00 00 00 00 01 00 00 00 00 00 02 08 00 45 00 00 14 00 00 00 00 40 00 00 00 %02x %02x %02x %02x 00 00 00 00\n' \
            "$o1" "$o2" "$o3" "$o4" >>"$tmp/o.txt"
    done <"$list"
    text2pcap -q -F pcap "$tmp/o.txt" "$tmp/o.pcap" >/dev/null 2>&1
    traceanon -f "$key" -s "$tmp/o.pcap" "pcapfile:$tmp/oa.pcap" >/dev/null 2>&1
    tshark -r "$tmp/oa.pcap" -T fields -e ip.src 2>/dev/null | paste -d' ' "$list" - >"$out"
}

n=0
for in in "${inputs[@]}"; do
    n=$((n + 1))
    exp=$tmp/exp$n.pcap
    "$bin" -q --anonymize "$key" --export "$exp" "$in" >"$tmp/run$n.out" 2>"$tmp/run$n.err"
    rc=$?
    [ $rc -eq 0 ] || { bad "$in: exit $rc: $(cat "$tmp/run$n.err")"; continue; }
    addrs "$in" >"$tmp/a$n.orig"
    addrs "$exp" >"$tmp/a$n.anon"
    name=${in#"$src"/}; name=${name#"$corpus"/}
    # 1. same packets, same number of addresses each, a consistent one-to-one replacement
    if ! awk -v F="$tmp/a$n.anon" -v N="$name" '
        { if ((getline l < F) <= 0) { print N ": export has fewer packets"; bad = 1; exit }
          nf = split($0, of, "|"); split(l, af, "|"); short = 0
          for (f = 1; f <= nf; f++) {
          k = split(of[f], o, " "); m = split(af[f], a, " ")
          # fewer: an inner header the dissector does not follow (PPTP GRE, GTP-U from port
          # 2152) was cut with the payload; its outer addresses are still checked
          if (m > k) { print N ": packet " NR ": field " f ": " k " addresses, export " m; bad = 1; continue }
          if (m < k) short = 1
          for (i = 1; i <= m; i++) {
              if (o[i] in fw && fw[o[i]] != a[i]) { print N ": " o[i] " -> " fw[o[i]] " and " a[i]; bad = 1 }
              if (a[i] in bw && bw[a[i]] != o[i]) { print N ": " bw[a[i]] " and " o[i] " -> " a[i]; bad = 1 }
              if (o[i] == a[i] && o[i] != "0.0.0.0" && o[i] != "::") { print N ": " o[i] " kept"; bad = 1 }
              fw[o[i]] = a[i]; bw[a[i]] = o[i]; pairs++
          } }
          cut += short }
        END { if ((getline l < F) > 0) { print N ": export has more packets"; bad = 1 }
              for (x in fw) print x, fw[x] > (F ".map")
              if (cut) print N ": " cut " packets with an inner header cut away"
              exit bad }' "$tmp/a$n.orig"; then
        bad "$name: addresses not replaced consistently"
    fi
    # IPv4 values against traceanon's Crypto-PAn
    if [ $have_traceanon = 1 ]; then
        grep -v ':' "$tmp/a$n.anon.map" | sort >"$tmp/m$n.ours"
        cut -d' ' -f1 "$tmp/m$n.ours" >"$tmp/m$n.list"
        if [ -s "$tmp/m$n.list" ]; then
            traceanon_map "$tmp/m$n.list" "$tmp/m$n.peer"
            cmp -s "$tmp/m$n.ours" "$tmp/m$n.peer" || bad "$name: IPv4 mapping differs from traceanon's: $(diff "$tmp/m$n.ours" "$tmp/m$n.peer" | head -4 | tr '\n' ' ')"
            # and the export's outer headers equal traceanon's export of the same capture
            if traceanon -f "$key" -s -d "$in" "pcapfile:$tmp/t$n.pcap" >/dev/null 2>&1; then
                tshark -r "$exp" -T fields -E occurrence=f -e ip.src -e ip.dst 2>/dev/null >"$tmp/o$n.ours"
                tshark -r "$tmp/t$n.pcap" -T fields -E occurrence=f -e ip.src -e ip.dst 2>/dev/null >"$tmp/o$n.peer"
                cmp -s "$tmp/o$n.ours" "$tmp/o$n.peer" || bad "$name: outer IPv4 addresses differ from traceanon's export"
            fi
        fi
    fi
    # IPv6: every pair of addresses keeps its common prefix length
    grep ':' "$tmp/a$n.anon.map" >"$tmp/m$n.v6" || true
    if [ -s "$tmp/m$n.v6" ] && command -v python3 >/dev/null; then
        python3 - "$tmp/m$n.v6" <<'EOF' || bad "$name: an IPv6 prefix was not preserved"
import ipaddress, sys
p = [tuple(int(ipaddress.IPv6Address(x)) for x in l.split()) for l in open(sys.argv[1])]
def cpl(a, b):
    d = a ^ b
    return 128 - d.bit_length()
ok = all(cpl(a[0], b[0]) == cpl(a[1], b[1]) for a in p for b in p)
sys.exit(0 if ok else 1)
EOF
    fi
    echo "anonymize: $name: $(wc -l <"$tmp/a$n.orig") packets, $(wc -l <"$tmp/a$n.anon.map") addresses replaced"
done

# 2. frame contents: zero MACs, cut payload, checksums (tshark validates when asked: status 1 is
# good, 0 bad, 2 not verifiable)
s=$src/samples/loopback-iperf3.pcap
ck=(-o ip.check_checksum:TRUE -o tcp.check_checksum:TRUE)
tshark -r "$tmp/exp1.pcap" "${ck[@]}" -T fields -e eth.src -e eth.dst -e ip.checksum.status \
    -e tcp.len -e tcp.payload -e tcp.checksum.status -e frame.cap_len -e frame.len -e tcp.checksum \
    2>/dev/null >"$tmp/f1"
awk -F'\t' '
    $1 != "" && ($1 != "00:00:00:00:00:00" || $2 != "00:00:00:00:00:00") { print "MAC kept: " $1; b = 1 }
    $3 != "" && $3 != 1 { print "IPv4 header checksum not right in packet " NR; b = 1 }
    $4 > 0 && $5 != "" { print "payload kept in packet " NR; b = 1 }
    $4 == 0 && $4 != "" && $7 == $8 { whole++; if ($6 != 1) { print "TCP checksum of a whole segment not right in packet " NR; b = 1 } }
    $4 > 0 { cut++; if ($9 != "0x0000") { print "TCP checksum of a cut segment not zero in packet " NR; b = 1 } }
    END { if (whole < 100 || cut < 100) { print "too few segments checked: " whole " whole, " cut " cut"; b = 1 }
          exit b }' "$tmp/f1" || bad "export of $s: frame contents"
"$bin" -q --anonymize "$key" --keep-payload --export "$tmp/keep.pcap" "$s" >/dev/null 2>&1
tshark -r "$s" -T fields -e tcp.payload 2>/dev/null >"$tmp/p.orig"
tshark -r "$tmp/keep.pcap" "${ck[@]}" -T fields -e tcp.payload -e tcp.checksum.status -e frame.cap_len \
    -e frame.len 2>/dev/null >"$tmp/p.keep"
cmp -s "$tmp/p.orig" <(cut -f1 "$tmp/p.keep") || bad "--keep-payload: payload differs"
awk -F'\t' '$2 != "" && $3 == $4 && $2 != 1 { print "packet " NR ": TCP checksum status " $2; b = 1 } END { exit b }' "$tmp/p.keep" ||
    bad "--keep-payload: TCP checksums of whole segments not right"

# 3. reports: export (no key) = original with the key = original with traceanon's mapping applied.
# The export with --keep-payload gives the same report byte for byte; the default export differs
# only where the report counts segments whose payload was not captured ("snaplen-cut"), which in
# that export are all those with payload.
for s in "$src/samples/loopback-iperf3.pcap" "$src/samples/cubic-queue-4points/rtr_s1.pcap"; do
    "$bin" -l --timeline --anonymize "$key" --keep-payload --export "$tmp/r.pcap" "$s" 2>/dev/null | grep -v "$s" >"$tmp/r.anon"
    "$bin" -l --timeline "$tmp/r.pcap" 2>/dev/null | grep -v "$tmp/r.pcap" >"$tmp/r.exp"
    cmp -s "$tmp/r.anon" "$tmp/r.exp" || bad "$s: report of the export differs from the anonymized report: $(diff "$tmp/r.anon" "$tmp/r.exp" | head -6)"
    "$bin" -l --timeline --anonymize "$key" --export "$tmp/rc.pcap" "$s" >/dev/null 2>&1
    "$bin" -l --timeline "$tmp/rc.pcap" 2>/dev/null | grep -v "$tmp/rc.pcap" >"$tmp/rc.exp"
    d=$(diff <(grep -v -e snaplen-cut -e 'truncated data bytes' "$tmp/r.anon") <(grep -v -e snaplen-cut -e 'truncated data bytes' "$tmp/rc.exp"))
    [ -z "$d" ] || bad "$s: report of the payload-cut export differs beyond snaplen-cut counts: $(echo "$d" | head -6)"
    if [ $have_traceanon = 1 ]; then
        traceanon -f "$key" -s -d "$s" "pcapfile:$tmp/rt.pcap" >/dev/null 2>&1
        paste -d' ' <(tshark -r "$s" -T fields -e ip.src 2>/dev/null) \
                    <(tshark -r "$tmp/rt.pcap" -T fields -e ip.src 2>/dev/null) | grep -v '^ *$' | sort -u >"$tmp/rt.map"
        "$bin" -l --timeline "$s" 2>/dev/null | grep -v "$s" >"$tmp/r.orig"
        # replace whole addresses only (not inside longer numbers)
        sedargs=()
        while read -r o a; do
            [ -n "$o" ] && sedargs+=(-e "s/\\b${o//./\\.}\\b/$a/g")
        done <"$tmp/rt.map"
        sed -E "${sedargs[@]}" "$tmp/r.orig" >"$tmp/r.mapped"
        cmp -s "$tmp/r.mapped" "$tmp/r.anon" || bad "$s: anonymized report differs from the original's with traceanon's addresses: $(diff "$tmp/r.mapped" "$tmp/r.anon" | head -6)"
    fi
    echo "anonymize: reports on $(basename "$(dirname "$s")")/$(basename "$s"): $(wc -l <"$tmp/r.anon") lines equal"
done

# 4. no original address anywhere in an anonymized run's outputs
s=$src/samples/dumbbell-cubic-rtt
pc=$(ls "$s"/*.pcap | head -1)
tshark -r "$pc" -T fields -e ip.src -e ip.dst 2>/dev/null | tr '\t' '\n' | sort -u | grep . >"$tmp/orig.addrs"
"$bin" -l --timeline --fairness-by hostpair --anonymize "$key" --csv "$tmp/csv" --xplot "$tmp/xpl" \
    "$pc" >"$tmp/all.out" 2>&1
"$bin" --anonymize "$key" --experiment a=$pc --experiment b=$src/samples/loopback-iperf3.pcap \
    --csv "$tmp/expcsv" >"$tmp/exp.out" 2>&1
"$bin" --anonymize "$key" -q --ingress "$src/samples/cubic-queue-4points/rtr_s1.pcap" \
    --egress "$src/samples/cubic-queue-4points/rtr_bn0.pcap" --csv "$tmp/q2csv" >"$tmp/q2.out" 2>&1
tshark -r "$src/samples/cubic-queue-4points/rtr_s1.pcap" -T fields -e ip.src -e ip.dst 2>/dev/null |
    tr '\t' '\n' | sort -u | grep . >>"$tmp/orig.addrs"
nfiles=$(find "$tmp/csv" "$tmp/xpl" "$tmp/expcsv" "$tmp/q2csv" -type f | wc -l)
[ "$nfiles" -gt 10 ] || bad "the anonymized run wrote only $nfiles files"
leak=$(grep -rlFw -f "$tmp/orig.addrs" "$tmp/all.out" "$tmp/exp.out" "$tmp/q2.out" "$tmp/csv" "$tmp/xpl" \
       "$tmp/expcsv" "$tmp/q2csv" 2>/dev/null)
[ -z "$leak" ] || bad "original addresses in: $leak"
grep -q 'Jain' "$tmp/all.out" || bad "no fairness section in the anonymized run"
echo "anonymize: $nfiles output files and the text of an anonymized run hold none of $(wc -l <"$tmp/orig.addrs") original addresses"

# 5. --anonymize-ts: TSvals move per host, echoes still match, the report's RTTs do not change
s=$src/samples/cubic-queue-4points/rtr_s1.pcap
"$bin" -l --anonymize "$key" --anonymize-ts --export "$tmp/ts.pcap" "$s" 2>/dev/null | grep -v "$s" >"$tmp/ts.rep"
"$bin" -l --anonymize "$key" "$s" 2>/dev/null | grep -v "$s" >"$tmp/nots.rep"
cmp -s "$tmp/ts.rep" "$tmp/nots.rep" || bad "--anonymize-ts changed the report: $(diff "$tmp/ts.rep" "$tmp/nots.rep" | head -4)"
tsf=(-T fields -e ip.src -e tcp.options.timestamp.tsval -e tcp.options.timestamp.tsecr -e tcp.flags.ack)
tshark -r "$s" "${tsf[@]}" 2>/dev/null >"$tmp/ts.orig"
tshark -r "$tmp/ts.pcap" "${tsf[@]}" 2>/dev/null >"$tmp/ts.anon"
paste "$tmp/ts.orig" "$tmp/ts.anon" | awk -F'\t' '
    $2 == "" { next }
    { d = ($6 - $2) % 4294967296; if (d < 0) d += 4294967296
      if ($1 in off && off[$1] != d) { print "host " $1 ": two TSval offsets"; b = 1 }
      off[$1] = d; if (d == 0) { print "TSval kept"; b = 1 } }
    END { exit b }' || bad "--anonymize-ts: TSval offsets are not one per host"
# an echo equals the peer TSval it echoes in the export as in the original
awk -F'\t' 'NR == FNR { if ($2 != "") v[$2] = 1; next } $3 != "" && $3 != 0 && !($3 in v) { n++ } END { exit n > 0 }' \
    "$tmp/ts.anon" "$tmp/ts.anon" || bad "--anonymize-ts: a TSecr echoes no TSval of the export"

# 6. the key file
"$bin" --anonymize "$tmp/missing.key" "$s" >"$tmp/k.out" 2>"$tmp/k.err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/k.out" ] && grep -q "missing.key: No such file" "$tmp/k.err" ||
    bad "missing key file: exit $rc, $(cat "$tmp/k.err")"
head -c 16 "$key" >"$tmp/short.key"
"$bin" --anonymize "$tmp/short.key" "$s" >"$tmp/k.out" 2>"$tmp/k.err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/k.out" ] && grep -q "has 16 bytes; a Crypto-PAn key file has exactly 32" "$tmp/k.err" ||
    bad "short key file: exit $rc, $(cat "$tmp/k.err")"
cp "$key" "$tmp/open.key"
chmod 644 "$tmp/open.key"
"$bin" -q --anonymize "$tmp/open.key" "$s" >"$tmp/k.out" 2>"$tmp/k.err"
rc=$?
[ $rc -eq 0 ] && grep -q "readable by group and others (mode 0644)" "$tmp/k.err" ||
    bad "group-readable key file: exit $rc, $(cat "$tmp/k.err")"
"$bin" --keep-payload "$s" >/dev/null 2>"$tmp/k.err"
[ $? -eq 1 ] || bad "--keep-payload without --anonymize is not a usage error"
# the key's bytes, raw or as hex, are in no output of this script's runs
hex=$(od -An -tx1 "$key" | tr -d ' \n')
if grep -rqF "$hex" "$tmp"/*.out "$tmp"/*.err "$tmp/csv" 2>/dev/null || grep -rqaF "$(head -c 8 "$key")" "$tmp"/*.out "$tmp"/*.err "$tmp"/exp*.pcap; then
    bad "the key appears in an output"
fi

[ $fail -eq 0 ] && echo "anonymize: ok"
exit $fail
