#!/usr/bin/env bash
# lab_samples_retransmit.sh - in every committed lab sample, the retransmitted segments of
# each TCP data connection in the sender capture (segments whose sequence range starts below
# the highest sequence number already sent) are exactly the kernel's tcp_retransmit_skb events
# for that connection (tcp_retransmit.csv, err == 0).
# args: $1 tcptrace-ng binary (unused), $2 corpus dir (unused), $3 source dir.
SRC=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$SRC/samples/lab/test_lib.sh"
tl_need tshark awk
n=0 total=0
for s in $(tl_samples "$SRC"); do
    [ -f "$s/tcp_retransmit.csv" ] || continue
    for f in $(tl_flows "$s"); do
        [ "$(tl_flow "$s" "$f" proto)" = tcp ] || continue
        pcap=$(tl_pcap "$s" "$f" sender)
        [ -n "$pcap" ] || continue
        cap=$(tl_count_rexmit "$pcap" "$(tl_flow "$s" "$f" sport)" "$(tl_flow "$s" "$f" dport)")
        ker=$(awk -F, -v f="$f" 'NR > 1 && $2 == f && $8 == "0" { n++ } END { print n + 0 }' "$s/tcp_retransmit.csv")
        printf '%-28s flow %s: retransmitted segments in capture %4s, tcp_retransmit_skb %4s\n' "${s##*/}" "$f" "$cap" "$ker"
        n=$((n + 1)) total=$((total + cap))
        [ "$cap" = "$ker" ] || tl_fail "${s##*/} flow $f: capture shows $cap retransmissions, kernel $ker"
    done
done
[ "$n" -gt 0 ] || tl_skip "no lab samples with TCP truth found under $SRC/samples"
[ "$total" -gt 0 ] || tl_fail "no retransmission at all in the samples: the check proves nothing"
[ "$TL_FAILED" = 0 ] && echo PASS && exit 0
exit 1
