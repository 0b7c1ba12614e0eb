#!/usr/bin/env bash
# lab_samples_dfcp.sh - in every committed lab sample with a DFCP flow, the sender capture
# shows exactly n DATA symbols (indices 0..n-1) for every block, with n the configured
# symbols per block (dfcp-send's log); the sender log agrees, and the receiver log's
# symbols_received per block equals the DATA symbols of that block in the receiver capture.
# args: $1 tcptrace-ng binary (unused), $2 corpus dir (unused), $3 source dir.
SRC=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$SRC/samples/lab/test_lib.sh"
tl_need tshark awk
# DATA symbols per block from a capture: "block count distinct_indices max_index n_field"
dfcp_blocks() {
    tshark -r "$1" -Y "udp.srcport == $2 && udp.dstport == $3" -T fields -e udp.payload 2>/dev/null |
        awk 'function h(s,  v, i) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
            { p = tolower($1); if (substr(p, 9, 1) != "1" || substr(p, 10, 1) != "0") next   # ver 1, type DATA
              nf = h(substr(p, 13, 4)); b = h(substr(p, 17, 8)); ix = h(substr(p, 25, 4))
              c[b]++; if (!((b, ix) in seen)) { seen[b, ix] = 1; d[b]++ } if (ix > mx[b]) mx[b] = ix; nn[b] = nf }
            END { for (b in c) print b, c[b], d[b], mx[b], nn[b] }' | sort -n
}
n=0
for s in $(tl_samples "$SRC"); do
    for f in $(tl_flows "$s"); do
        [ "$(tl_flow "$s" "$f" proto)" = dfcp ] || continue
        sp=$(tl_flow "$s" "$f" sport) dp=$(tl_flow "$s" "$f" dport)
        cfg=$(awk -F, 'NR == 2 { print $3 }' "$s/dfcp_send_flow$f.csv")
        pcap=$(tl_pcap "$s" "$f" sender)
        [ -n "$pcap" ] && [ -n "$cfg" ] || continue
        n=$((n + 1))
        dfcp_blocks "$pcap" "$sp" "$dp" >"$s/.blk.$$"
        nb=$(wc -l <"$s/.blk.$$")
        bad=$(awk -v n="$cfg" '$2 != n || $3 != n || $4 != n - 1 || $5 != n' "$s/.blk.$$" | wc -l)
        logbad=$(awk -F, 'NR > 1 && $4 != $3' "$s/dfcp_send_flow$f.csv" | wc -l)
        lognb=$(awk -F, 'NR > 1' "$s/dfcp_send_flow$f.csv" | wc -l)
        printf '%-28s flow %s: %d blocks at the sender capture, %d not with n=%s symbols; log %d blocks\n' \
            "${s##*/}" "$f" "$nb" "$bad" "$cfg" "$lognb"
        [ "$nb" -gt 0 ] || tl_fail "${s##*/} flow $f: no DFCP DATA in the sender capture"
        [ "$bad" = 0 ] || tl_fail "${s##*/} flow $f: $bad blocks without exactly n=$cfg symbols"
        [ "$logbad" = 0 ] && [ "$lognb" = "$nb" ] || tl_fail "${s##*/} flow $f: sender log disagrees with the capture"
        rpcap=$(tl_pcap "$s" "$f" receiver)
        if [ -n "$rpcap" ]; then
            dfcp_blocks "$rpcap" "$sp" "$dp" >"$s/.rblk.$$"
            mism=$(awk -F, 'NR == FNR { got[$1] = $3; next } FNR > 1 && ($8 + 0) != (got[$1] + 0) { m++ } END { print m + 0 }' \
                <(awk '{ print $1 "," $2 "," $3 }' "$s/.rblk.$$") "$s/dfcp_recv_flow$f.csv")
            echo "    receiver log vs receiver capture: $mism blocks differ"
            [ "$mism" = 0 ] || tl_fail "${s##*/} flow $f: receiver log symbols_received differ from the capture in $mism blocks"
            rm -f "$s/.rblk.$$"
        fi
        rm -f "$s/.blk.$$"
    done
done
[ "$n" -gt 0 ] || tl_skip "no lab samples with DFCP found under $SRC/samples"
[ "$TL_FAILED" = 0 ] && echo PASS && exit 0
exit 1
