#!/usr/bin/env bash
# threads_identical.sh - -j 3 writes what -j 1 writes, byte for byte (issue 12): every output
# file, standard output, standard error and the exit status, on
#  - every sample capture: the long report with tcptrace's RTT and owin rows, the timeline, all
#    CSV files, JSON Lines, xplot files, fairness, parallel transfers, the single-point queue
#    estimate, and the accuracy report where the sample has kernel truth (tcp_probe.csv);
#  - figures of the multi-flow samples (several files as one trace), two capture points around a
#    router, an experiment of two traces;
#  - with the corpus (../shared/corpus or $TN_CORPUS): every ns-2 trace, and every capture file
#    with the long report, timeline and CSV (-j 3 only where -j 1 found two connections or more:
#    with one there is nothing to merge).
# With three workers the connections of a trace land on different threads and are merged after
# (tn_analyzer_merge); the test also checks that enough of its runs had several connections.
# Args: $1 binary, $2 corpus dir (may be empty or missing), $3 source dir.  Exit 0 pass, 1 fail.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
corpus=${TN_CORPUS:-${2:-}}
src=$(cd "${3:-$(dirname "$0")/../..}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 runs=0 multi=0

# run J ARGS...: the program with -j J in $tmp/out (the same path for both runs: outputs that
# name their folder stay comparable), moved to $tmp/jJ.  @D@ in ARGS is the output folder.
run() {
    local j=$1 d=$tmp/out
    shift
    rm -rf "$d" "$tmp/j$j"
    mkdir -p "$d"
    local args=("${@//@D@/$d}")
    (cd "$d" && "$bin" -j "$j" "${args[@]}" >"$d/stdout" 2>"$d/stderr"; echo $? >"$d/rc")
    mv "$d" "$tmp/j$j"
}

conns() {   # connections in -j 1's connections.csv (0 without one)
    local f=$tmp/j1/csv/connections.csv
    [ -f "$f" ] && echo $(($(wc -l <"$f") - 1)) || echo 0
}

# same NAME ARGS...: -j 1 and -j 3 agree.  With ONLY_MULTI=1, -j 3 runs only when -j 1 found
# two connections or more.
same() {
    local name=$1
    shift
    run 1 "$@"
    local n
    n=$(conns)
    [ "$n" -ge 2 ] && multi=$((multi + 1))
    if [ "${ONLY_MULTI:-0}" = 1 ] && [ "$n" -lt 2 ]; then
        return
    fi
    run 3 "$@"
    runs=$((runs + 1))
    if ! diff -r "$tmp/j1" "$tmp/j3" >"$tmp/diff" 2>&1; then
        echo "FAIL: $name: -j 3 differs from -j 1"
        head -20 "$tmp/diff"
        fail=1
    fi
}

every=(-l -r -W --timeline --csv @D@/csv --json @D@/lines.jsonl --xplot @D@/xpl
       --fairness-by conn --parallel-window 1000 --queue-estimate)
for f in "$src"/samples/*.pcap "$src"/samples/*/*.pcap; do
    truth=()
    [ -f "$(dirname "$f")/tcp_probe.csv" ] && truth=(--truth "$(dirname "$f")/tcp_probe.csv")
    same "${f#"$src"/}" "${every[@]}" "${truth[@]}" "$f"
done

s=$src/samples
same "figures: loopback-iperf3-parallel" -q --csv @D@/csv --plot @D@/fig "$s/loopback-iperf3-parallel.pcap"
same "figures: dumbbell senders as one trace" -q --csv @D@/csv --plot @D@/fig --fairness-by conn \
    "$s/dumbbell-cubic-rtt/snd1_eth0.pcap" "$s/dumbbell-cubic-rtt/snd2_eth0.pcap"
same "figures: parking lot receivers as one trace" -q --csv @D@/csv --plot @D@/fig --fairness-by hostpair \
    "$s"/parkinglot-cubic/rcv*_eth0.pcap
same "figures: cubic-loss1-owd10 sender" -q --plot @D@/fig --truth "$s/cubic-loss1-owd10/tcp_probe.csv" \
    "$s/cubic-loss1-owd10/snd1_eth0.pcap"
same "two capture points" -l --csv @D@/csv --plot @D@/fig \
    --ingress "$s/cubic-queue-4points/rtr_s1.pcap" --egress "$s/cubic-queue-4points/rtr_bn0.pcap"
same "experiment" --csv @D@/csv --plot @D@/fig \
    --experiment owd=5="$s/cubic-owd5/snd1_eth0.pcap" --experiment owd=25="$s/cubic-owd25/snd1_eth0.pcap" \
    --experiment owd=50="$s/cubic-owd50/snd1_eth0.pcap"

echo "threads_identical: samples: $runs runs compared, $multi with two connections or more"
if [ "$multi" -lt 8 ]; then
    echo "FAIL: only $multi runs had two connections or more: the merge was hardly tested"
    fail=1
fi

# The corpus: one job per file, two at a time (as corpus_walk.sh); each job runs -j 1 and -j 3
# with the same output path and prints SAME, DIFF (and the start of the diff) or ONE (-j 1 found
# fewer than two connections: nothing to merge, -j 3 not run).
cat >"$tmp/one.sh" <<'EOF'
bin=$1 top=$2 ns2=$3 f=$4
d=$(mktemp -d "$top/job.XXXXXX")
args=(-l -r -W --timeline --csv "$d/out/csv")
[ "$ns2" = 1 ] && args=(-l --csv "$d/out/csv" --ns2)
for j in 1 3; do
    mkdir -p "$d/out"
    (cd "$d/out" && timeout 120 "$bin" -j "$j" "${args[@]}" "$f" >stdout 2>stderr; echo $? >rc)
    mv "$d/out" "$d/j$j"
    n=1
    [ -f "$d/j1/csv/connections.csv" ] && n=$(($(wc -l <"$d/j1/csv/connections.csv") - 1))
    if [ $j = 1 ] && [ "$ns2" != 1 ] && [ "$n" -lt 2 ]; then
        echo "ONE $f"
        rm -rf "$d"
        exit 0
    fi
done
if diff -r "$d/j1" "$d/j3" >"$d/diff" 2>&1; then
    echo "SAME $f"
else
    echo "DIFF $f"
    head -10 "$d/diff"
fi
rm -rf "$d"
EOF
if [ -n "$corpus" ] && [ -d "$corpus" ] && [ -f "$corpus/MANIFEST.tsv" ]; then
    corpus=$(cd "$corpus" && pwd)   # the runs start in their output folder
    find "$corpus/ns2-traces" -type f -name '*.tr' -print0 2>/dev/null |
        xargs -0 -r -n1 -P2 bash "$tmp/one.sh" "$bin" "$tmp" 1 >"$tmp/corpus.out" 2>&1
    # the captures with TCP packets (MANIFEST.tsv: path in column 1, tcp_packets in column 7)
    awk -F'\t' -v c="$corpus" 'NR > 1 && $7 + 0 >= 2 { printf "%s/%s%c", c, $1, 0 }' "$corpus/MANIFEST.tsv" |
        xargs -0 -r -n1 -P2 bash "$tmp/one.sh" "$bin" "$tmp" 0 >>"$tmp/corpus.out" 2>&1
    same_n=$(grep -c '^SAME ' "$tmp/corpus.out")
    one_n=$(grep -c '^ONE ' "$tmp/corpus.out")
    echo "threads_identical: corpus: $same_n runs identical, $one_n with fewer than two connections (-j 1 only)"
    if grep -q '^DIFF ' "$tmp/corpus.out"; then
        echo "FAIL: -j 3 differs from -j 1 on corpus files:"
        grep -A10 '^DIFF ' "$tmp/corpus.out" | head -60
        fail=1
    fi
    if [ "$same_n" -lt 100 ]; then
        echo "FAIL: only $same_n corpus runs compared"
        head -5 "$tmp/corpus.out"
        fail=1
    fi
else
    echo "threads_identical: no corpus (../shared/corpus or TN_CORPUS): samples only"
fi
[ $fail -eq 0 ] && echo "threads_identical: PASS"
exit $fail
