#!/usr/bin/env bash
# json_lines.sh - --json writes the records of connections.csv, senders.csv and events.csv as
# JSON Lines: every line parses (jq), the counts per type equal the CSV rows, and a sender's
# members equal its senders.csv cells.
#   json_lines.sh BINARY CORPUS_DIR SOURCE_DIR     exit 0 pass, 1 fail, 77 skip
set -u
bin=${1:?usage: json_lines.sh BINARY CORPUS_DIR SOURCE_DIR}
src=${3:?source dir}
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/json_lines.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
for s in "$src/samples/reno-smallq/snd1_eth0.pcap" "$src/samples/dfcp-loss/rcv1_eth0.pcap"; do
    rm -rf "$tmp/csv"
    "$bin" -q --csv "$tmp/csv" --json "$tmp/all.jsonl" "$s" >/dev/null || { echo "FAIL: $s: exit $?"; fail=1; continue; }
    jq -e . "$tmp/all.jsonl" >/dev/null || { echo "FAIL: $s: not JSON Lines"; fail=1; }
    for t in connection:connections sender:senders event:events; do
        n=$(jq -c "select(.type == \"${t%:*}\")" "$tmp/all.jsonl" | wc -l)
        rows=$(($(wc -l <"$tmp/csv/${t#*:}.csv") - 1))
        [ "$n" = "$rows" ] || { echo "FAIL: $s: $n ${t%:*} records, ${t#*:}.csv $rows rows"; fail=1; }
    done
    # the first sender, member by member, against senders.csv's first row (cells without commas)
    hdr=$(head -1 "$tmp/csv/senders.csv" | tr -d '\r')
    row=$(sed -n 2p "$tmp/csv/senders.csv" | tr -d '\r')
    for colname in conn dir proto src_port data_pkts data_bytes rexmit_pkts rtt_avg_ms goodput_bps dfcp_decoded; do
        k=$(echo "$hdr" | tr ',' '\n' | grep -nx "$colname" | cut -d: -f1)
        cell=$(echo "$row" | cut -d, -f"$k")
        j=$(jq -r "select(.type == \"sender\") | .$colname // \"\"" "$tmp/all.jsonl" | head -1)
        [ "$cell" = "$j" ] || { echo "FAIL: $s: $colname csv '$cell', json '$j'"; fail=1; }
    done
done
# (every sender has a flavour, known or not; jq 1.6's -e judges the last input alone, so the
# records are gathered first: events may come last)
"$bin" -q --json - "$src/samples/loopback-iperf3.pcap" | jq -n -e '[inputs | select(.type == "sender") | .cc | strings] | length > 0' >/dev/null ||
    { echo "FAIL: --json - to stdout"; fail=1; }
[ "$fail" = 0 ] && echo ok
exit "$fail"
