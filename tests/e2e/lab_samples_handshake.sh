#!/usr/bin/env bash
# lab_samples_handshake.sh - in every committed lab sample, the first handshake of each flow
# seen at the sender capture (TCP SYN -> SYN-ACK, DFCP SYN -> SYNACK) takes twice the
# configured one-way delay, within 10% (the delay line adds the delay; nothing is queued yet).
# args: $1 tcptrace-ng binary (unused), $2 corpus dir (unused), $3 source dir.
SRC=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$SRC/samples/lab/test_lib.sh"
tl_need tshark awk
n=0
for s in $(tl_samples "$SRC"); do
    for f in $(tl_flows "$s"); do
        pcap=$(tl_pcap "$s" "$f" sender)
        [ -n "$pcap" ] || continue
        cfg=$(tl_flow "$s" "$f" rtt_config_ms)
        hs=$(tl_first_handshake_ms "$pcap" "$(tl_flow "$s" "$f" proto)" "$(tl_flow "$s" "$f" dst_addr)" "$(tl_flow "$s" "$f" dport)")
        printf '%-28s flow %s: handshake %8s ms, configured RTT %s ms\n' "${s##*/}" "$f" "${hs:-none}" "$cfg"
        n=$((n + 1))
        awk -v h="$hs" -v c="$cfg" 'BEGIN { exit !(h != "" && h >= 0.9 * c && h <= 1.1 * c) }' ||
            tl_fail "${s##*/} flow $f: handshake RTT ${hs:-none} ms not within 10% of $cfg ms"
    done
done
[ "$n" -gt 0 ] || tl_skip "no lab samples found under $SRC/samples"
[ "$TL_FAILED" = 0 ] && echo PASS && exit 0
exit 1
