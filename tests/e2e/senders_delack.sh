#!/usr/bin/env bash
# senders_delack.sh - senders.csv's delack_timeout_ms is the longest delayed-ACK timer delay the
# long report prints ("delayed-ACK timer: N ACKs sent by it, MIN-MAX ms"), and empty where the
# report says "none fired" or "not seen here": on every sample capture, the multiset of non-empty
# cells (at the report's 0.1 ms) equals the multiset of the report's MAX values.
#   senders_delack.sh BINARY CORPUS_DIR SOURCE_DIR     exit 0 pass, 1 fail
set -u
bin=${1:?usage: senders_delack.sh BINARY CORPUS_DIR SOURCE_DIR}
src=${3:?source dir}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/senders_delack.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0 seen=0
for s in "$src"/samples/*/*.pcap "$src"/samples/*.pcap; do
    rm -rf "$tmp/csv"
    "$bin" -q --csv "$tmp/csv" "$s" >/dev/null 2>&1 || { echo "FAIL: $s: --csv failed"; fail=1; continue; }
    report=$("$bin" -l "$s" 2>/dev/null | sed -n 's/.*delayed-ACK timer: *[0-9]* ACKs sent by it, [0-9.]*-\([0-9.]*\) ms.*/\1/p' | sort)
    cells=$(python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["delack_timeout_ms"]:
        print("%.1f" % float(r["delack_timeout_ms"]))' "$tmp/csv/senders.csv" | sort)
    [ "$report" = "$cells" ] || { echo "FAIL: $s: report [$report] senders.csv [$cells]"; fail=1; }
    [ -n "$report" ] && seen=$((seen + $(echo "$report" | wc -l)))
done
[ "$seen" -gt 0 ] || { echo "FAIL: no sample shows a delayed-ACK timer"; fail=1; }
echo "senders_delack: $seen delayed-ACK timers in the reports, all equal in senders.csv"
exit $fail
