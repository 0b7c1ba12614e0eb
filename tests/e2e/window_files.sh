#!/usr/bin/env bash
# window_files.sh - several files are one trace in time order, whatever the order they are given
# in (cli/source_files.c; issue 14 item 6: the window counts from the trace's first packet):
#  - a capture cut into pieces (editcap -c) and given shuffled gives, byte for byte, the pieces'
#    outputs given in order: -l, --timeline, every CSV file, and with --from/--to; and the whole
#    file's (those without packet numbers, which restart in each file): -l, connections.csv,
#    senders.csv, series.csv, dfcp_blocks.csv;
#  - -w of the shuffled pieces holds the whole file's packets in its order (tcpdump -tt -x);
#  - two captures whose times overlap (the sender and the receiver of one run) are merged by time
#    as mergecap merges them: A B, B A and mergecap's file give the same outputs (-l, -r,
#    connections.csv, senders.csv), and -w of A B holds mergecap's packets.
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
for t in editcap mergecap tcpdump; do
    command -v $t >/dev/null || { echo "window_files: no $t; skip"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

same() {   # what, file a, file b
    if cmp -s "$2" "$3"; then
        echo "ok   $1"
    else
        echo "FAIL $1: $(diff "$2" "$3" | head -4 | tr '\n' ' ')"
        fail=1
    fi
}

run() {   # name args...: the long report, timeline and CSV files of a run in $tmp/name
    local name=$1
    shift
    rm -rf "$tmp/$name"
    mkdir -p "$tmp/$name"
    "$bin" -l -r --csv "$tmp/$name/csv" "$@" > "$tmp/$name/long" 2> "$tmp/$name/err" || echo "exit $?" >> "$tmp/$name/err"
    "$bin" --timeline "$@" > "$tmp/$name/timeline" 2>&1
}

packets() {   # pcap -> its packets as text, time stamps and bytes
    tcpdump -r "$1" --time-stamp-precision=nano -tt -nn -x 2>/dev/null
}

# 1. pieces given shuffled: a lossy CUBIC transfer (the window's base moves when the first piece
# is not given first) and a DFCP flow
for s in cubic-loss1-owd10/snd1_eth0.pcap:400 dfcp-fail/rcv1_eth0.pcap:600; do
    f=$src/samples/${s%:*}
    [ -f "$f" ] || { echo "window_files: no sample $f; skip"; exit 77; }
    name=${s%%/*}
    mkdir -p "$tmp/p"
    rm -f "$tmp"/p/*
    editcap -c "${s#*:}" "$f" "$tmp/p/piece.pcap"
    mapfile -t inorder < <(ls "$tmp"/p/piece*.pcap)
    n=${#inorder[@]}
    # a fixed shuffle: the odd pieces backwards, then the even ones
    shuffled=() given=()
    for ((i = n - 1; i >= 0; i -= 2)); do shuffled+=("${inorder[$i]}"); given+=($((i + 1))); done
    for ((i = n - 2; i >= 0; i -= 2)); do shuffled+=("${inorder[$i]}"); given+=($((i + 1))); done
    echo "$name: $n pieces given in the order ${given[*]}"
    for win in "" "--from 1 --to 2"; do
        # shellcheck disable=SC2086  # the window's words
        run whole $win "$f"
        # shellcheck disable=SC2086
        run inorder $win "${inorder[@]}"
        # shellcheck disable=SC2086
        run shuffled $win "${shuffled[@]}"
        for out in long timeline err $(cd "$tmp/inorder/csv" && ls); do
            [ -f "$tmp/inorder/$out" ] && a=$tmp/inorder/$out b=$tmp/shuffled/$out || a=$tmp/inorder/csv/$out b=$tmp/shuffled/csv/$out
            same "$name ${win:-(no window)}: shuffled pieces = pieces in order: $out" "$a" "$b"
        done
        for out in long csv/connections.csv csv/senders.csv csv/series.csv csv/dfcp_blocks.csv; do
            [ -f "$tmp/whole/$out" ] || continue
            same "$name ${win:-(no window)}: shuffled pieces = the whole file: $out" "$tmp/whole/$out" "$tmp/shuffled/$out"
        done
    done
    "$bin" -q -w "$tmp/export.pcap" "${shuffled[@]}" > /dev/null 2>&1
    same "$name: -w of the shuffled pieces = the whole file's packets" <(packets "$f") <(packets "$tmp/export.pcap")
done

# 2. overlapping captures: the sender and the receiver of one run, merged by time
d=$src/samples/cubic-loss1-owd10
a=$d/snd1_eth0.pcap b=$d/rcv1_eth0.pcap
mergecap -F nsecpcap -w "$tmp/merged.pcap" "$a" "$b"
run ab "$a" "$b"
run ba "$b" "$a"
run merged "$tmp/merged.pcap"
for out in long csv/connections.csv csv/senders.csv; do
    same "sender + receiver: A B = B A: $out" "$tmp/ab/$out" "$tmp/ba/$out"
    same "sender + receiver: A B = mergecap's file: $out" "$tmp/ab/$out" "$tmp/merged/$out"
done
"$bin" -q -w "$tmp/export.pcap" "$b" "$a" > /dev/null 2>&1
same "sender + receiver: -w of B A = mergecap's packets" <(packets "$tmp/merged.pcap") <(packets "$tmp/export.pcap")
exit $fail
