#!/usr/bin/env bash
# lab_samples_goodput.sh - in every committed lab sample, each flow's goodput in the manifest
# is positive and no more than the rate of the slowest bottleneck it crosses; where the
# router ingress and egress are both captured, packets in minus packets out of the
# bottleneck (data direction) equal the qdisc drops plus the random-loss drops recorded.
# args: $1 tcptrace-ng binary (unused), $2 corpus dir (unused), $3 source dir.
SRC=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$SRC/samples/lab/test_lib.sh"
tl_need tshark awk
n=0
for s in $(tl_samples "$SRC"); do
    nb=$(tl_manifest "$s" bottlenecks)
    for f in $(tl_flows "$s"); do
        gp=$(tl_flow "$s" "$f" goodput_bps)
        rate=
        for ((b = 1; b <= nb; b++)); do
            case " $(tl_manifest "$s" "bn${b}_flows") " in *" $f "*)
                r=$(tl_manifest "$s" "bn${b}_rate_bps")
                if [ -z "$rate" ] || [ "$r" -lt "$rate" ]; then rate=$r; fi ;;
            esac
        done
        printf '%-28s flow %s: goodput %10s bit/s, bottleneck %s bit/s\n' "${s##*/}" "$f" "$gp" "$rate"
        n=$((n + 1))
        awk -v g="$gp" -v r="$rate" 'BEGIN { exit !(g != "" && r != "" && g > 0 && g <= r) }' ||
            tl_fail "${s##*/} flow $f: goodput $gp not in (0, $rate]"
    done
    # queue accounting with both router capture points (single topology)
    if [ -f "$s/rtr_s1.pcap" ] && [ -f "$s/rtr_bn0.pcap" ]; then
        in=$(tshark -r "$s/rtr_s1.pcap" -Y "ip.src == 10.1.1.2 && ip.dst == 10.9.1.2" 2>/dev/null | wc -l)
        out=$(tshark -r "$s/rtr_bn0.pcap" -Y "ip.src == 10.1.1.2 && ip.dst == 10.9.1.2" 2>/dev/null | wc -l)
        qd=$(tl_manifest "$s" bn1_qdisc_drops) ld=$(tl_manifest "$s" bn1_random_loss_drops)
        echo "    router ingress $in packets, egress $out, qdisc drops $qd, random-loss drops $ld"
        [ $((in - out)) = $((qd + ld)) ] || tl_fail "${s##*/}: ingress - egress = $((in - out)) but drops = $((qd + ld))"
    fi
done
[ "$n" -gt 0 ] || tl_skip "no lab samples found under $SRC/samples"
[ "$TL_FAILED" = 0 ] && echo PASS && exit 0
exit 1
