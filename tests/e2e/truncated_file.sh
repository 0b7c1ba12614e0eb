#!/usr/bin/env bash
# truncated_file.sh - bad input gets a clear message and the run goes on where it can.
#
#   truncated_file.sh BINARY CORPUS_DIR SOURCE_DIR     exit 0 pass, 1 fail, 77 skip
#
# Uses tcptrace-input/dlt_null.dmp (pcap, 470 packets) and
# wireshark-samplecaptures/couchbase_subdoc_multi.pcap (pcapng, 477 blocks) from the corpus.
#  1. A pcap cut with head -c in the middle of a record's data: exit 0, the report counts exactly
#     the packets before the cut (found independently by walking the record headers with od,
#     and cross-checked with tshark when installed), and stderr warns, naming the file and the
#     packet where it stopped.
#  2. The same for a pcapng cut inside an Enhanced Packet Block (count from tshark).
#  3. Random bytes: exit 2, message naming the file.  A missing file: exit 2, message naming it.
#  4. A missing file followed by a good one: the good file's report, exit 2.
#  5. "-" reads a pcap from standard input: same connection list as reading the file.
#  6. An unknown option: exit 1.
set -u

bin=${1:?usage: truncated_file.sh BINARY CORPUS_DIR SOURCE_DIR}
corpus=${2:?corpus dir}

pcap="$corpus/tcptrace-input/dlt_null.dmp"
pcapng="$corpus/wireshark-samplecaptures/couchbase_subdoc_multi.pcap"
if [ ! -f "$pcap" ] || [ ! -f "$pcapng" ]; then
    echo "SKIP: corpus files not found under $corpus"
    exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/truncated_file.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# u32 at byte offset $2 of file $1, in the byte order of a pcap file whose magic is in $3.
u32() {
    local v
    v=$(od -An -tx1 -j "$2" -N 4 "$1" | tr -d ' \n')
    if [ "$3" = le ]; then
        echo $((16#${v:6:2}${v:4:2}${v:2:2}${v:0:2}))
    else
        echo $((16#$v))
    fi
}

packets_read() { awk '/packets read:/ {print $3}' "$1"; }

# ---- 1. pcap cut inside record K's data -------------------------------------------------------
magic=$(od -An -tx1 -N 4 "$pcap" | tr -d ' \n')
case $magic in
    d4c3b2a1 | 4d3cb2a1) order=le ;;
    a1b2c3d4 | a1b23c4d) order=be ;;
    *) bad "$pcap: unexpected magic $magic"; order=le ;;
esac
size=$(stat -c %s "$pcap")
want_k=300         # cut inside the data of record 300
off=24 k=0 cut=
while [ $((off + 16)) -le "$size" ]; do
    k=$((k + 1))
    incl=$(u32 "$pcap" $((off + 8)) "$order")
    if [ "$k" -eq "$want_k" ]; then
        cut=$((off + 16 + incl / 2))
        break
    fi
    off=$((off + 16 + incl))
done
if [ -z "$cut" ]; then
    bad "$pcap has fewer than $want_k records"
else
    before=$((want_k - 1))          # complete records before the cut
    cutf="$tmp/cut here.pcap"       # a space in the name: messages must still name it
    head -c "$cut" "$pcap" >"$cutf"
    if command -v tshark >/dev/null 2>&1; then
        tn=$(tshark -r "$cutf" -T fields -e frame.number 2>/dev/null | wc -l)
        [ "$tn" -eq "$before" ] || bad "independent counts disagree: record walk $before, tshark $tn"
    fi
    "$bin" "$cutf" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    got=$(packets_read "$tmp/out")
    if [ "$rc" -ne 0 ]; then
        bad "cut pcap: exit $rc, expected 0 (stderr: $(head -c 300 "$tmp/err"))"
    elif [ "${got:-x}" != "$before" ]; then
        bad "cut pcap: report says '${got:-nothing}' packets read, expected $before"
    elif ! grep -q 'connection' "$tmp/out"; then
        bad "cut pcap: no connection list in the report"
    elif ! grep -qF -- "$cutf" "$tmp/err"; then
        bad "cut pcap: stderr does not name the file: $(head -c 300 "$tmp/err")"
    elif ! grep -qE "(packet|record) #?($want_k|$before)([^0-9]|$)" "$tmp/err"; then
        bad "cut pcap: stderr does not give the packet number ($want_k or $before): $(head -c 300 "$tmp/err")"
    else
        ok "pcap cut at byte $cut (inside record $want_k): exit 0, $got packets, warning: $(head -1 "$tmp/err")"
    fi
fi

# ---- 2. pcapng cut inside an Enhanced Packet Block --------------------------------------------
if command -v tshark >/dev/null 2>&1; then
    ngsize=$(stat -c %s "$pcapng")
    cut=$((ngsize * 3 / 5 + 7))     # somewhere inside a block; the count comes from tshark
    cutng="$tmp/cut.pcapng"
    head -c "$cut" "$pcapng" >"$cutng"
    tn=$(tshark -r "$cutng" -T fields -e frame.number 2>/dev/null | wc -l)
    "$bin" "$cutng" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    got=$(packets_read "$tmp/out")
    if [ "$rc" -ne 0 ]; then
        bad "cut pcapng: exit $rc, expected 0 (stderr: $(head -c 300 "$tmp/err"))"
    elif [ "${got:-x}" != "$tn" ]; then
        bad "cut pcapng: report says '${got:-nothing}' packets read, tshark reads $tn"
    elif ! grep -qF -- "$cutng" "$tmp/err"; then
        bad "cut pcapng: no warning naming the file: $(head -c 300 "$tmp/err")"
    elif ! grep -qE "([^0-9]|^)($tn|$((tn + 1)))([^0-9]|$)" "$tmp/err"; then
        bad "cut pcapng: warning does not give the packet number ($tn or $((tn + 1))): $(head -c 300 "$tmp/err")"
    else
        ok "pcapng cut at byte $cut: exit 0, $got packets (tshark $tn), warning: $(head -1 "$tmp/err")"
    fi
else
    echo "skip pcapng cut: tshark not installed"
fi

# ---- 3. garbage and missing files -------------------------------------------------------------
# Pseudo-random bytes from a fixed seed, so a failure can be reproduced.  (ERF has no magic
# number; the capture layer's strict ERF probe refuses random bytes: docs/corpus-comparison.md
# section 6 and tests/unit/check_capture.c.)
garbage="$tmp/garbage.bin"
LC_ALL=C awk 'BEGIN { srand(7); for (i = 0; i < 4096; i++) printf "%c", int(rand() * 256) }' >"$garbage"
"$bin" "$garbage" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 2 ]; then
    bad "random bytes: exit $rc, expected 2"
elif ! grep -qF -- "$garbage" "$tmp/err"; then
    bad "random bytes: message does not name the file: $(head -c 300 "$tmp/err")"
else
    ok "random bytes: exit 2: $(head -1 "$tmp/err")"
fi

missing="$tmp/no such file.pcap"
"$bin" "$missing" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 2 ]; then
    bad "missing file: exit $rc, expected 2"
elif ! grep -qF -- "$missing" "$tmp/err"; then
    bad "missing file: message does not name the file: $(head -c 300 "$tmp/err")"
else
    ok "missing file: exit 2: $(head -1 "$tmp/err")"
fi

# ---- 4. missing file, then a good one ---------------------------------------------------------
"$bin" "$pcap" >"$tmp/alone" 2>/dev/null
"$bin" "$missing" "$pcap" >"$tmp/out" 2>"$tmp/err"
rc=$?
list() { sed -n '1,/^$/p' "$1"; }
if [ "$rc" -ne 2 ]; then
    bad "missing + good file: exit $rc, expected 2"
elif ! grep -qF -- "$missing" "$tmp/err"; then
    bad "missing + good file: no message naming the missing file"
elif [ "$(packets_read "$tmp/out")" != "$(packets_read "$tmp/alone")" ] ||
     ! cmp -s <(list "$tmp/out") <(list "$tmp/alone"); then
    bad "missing + good file: report differs from the good file's own report"
    diff <(list "$tmp/alone") <(list "$tmp/out") | head -10 | sed 's/^/    /'
else
    ok "missing + good file: exit 2, the good file's report ($(packets_read "$tmp/out") packets)"
fi

# ---- 5. standard input ------------------------------------------------------------------------
"$bin" - <"$pcap" >"$tmp/stdin" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 0 ]; then
    bad "stdin: exit $rc (stderr: $(head -c 300 "$tmp/err"))"
elif ! cmp -s <(list "$tmp/stdin") <(list "$tmp/alone") ||
     [ "$(packets_read "$tmp/stdin")" != "$(packets_read "$tmp/alone")" ]; then
    bad "stdin: connection list differs from reading the file"
    diff <(list "$tmp/alone") <(list "$tmp/stdin") | head -10 | sed 's/^/    /'
else
    ok "stdin (-): same connection list as the file ($(packets_read "$tmp/stdin") packets)"
fi
# also through a pipe (not seekable)
cat "$pcap" | "$bin" - >"$tmp/pipe" 2>/dev/null
if ! cmp -s <(list "$tmp/pipe") <(list "$tmp/alone"); then
    bad "stdin through a pipe: connection list differs from reading the file"
else
    ok "stdin through a pipe: same connection list"
fi

# ---- 6. bad option ----------------------------------------------------------------------------
"$bin" --no-such-option "$pcap" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 1 ]; then
    bad "unknown option: exit $rc, expected 1"
elif [ ! -s "$tmp/err" ]; then
    bad "unknown option: exit 1 but nothing on stderr"
else
    ok "unknown option: exit 1: $(head -1 "$tmp/err")"
fi

if [ "$fail" -ne 0 ]; then
    echo "truncated_file: FAILED"
    exit 1
fi
echo "truncated_file: passed"
exit 0
