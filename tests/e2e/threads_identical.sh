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

if [ -n "$corpus" ] && [ -d "$corpus" ]; then
    c_runs=$runs
    while IFS= read -r -d '' f; do
        same "${f#"$corpus"/}" -l --csv @D@/csv --ns2 "$f"
    done < <(find "$corpus/ns2-traces" -type f -name '*.tr' -print0 2>/dev/null | sort -z)
    while IFS= read -r -d '' f; do
        ONLY_MULTI=1 same "${f#"$corpus"/}" -l -r -W --timeline --csv @D@/csv "$f"
    done < <(find "$corpus" -type f ! -path '*/ns2-traces/*' ! -name '*.md' ! -name '*.tsv' ! -name '*.txt' \
             -print0 | sort -z)
    echo "threads_identical: corpus: $((runs - c_runs)) runs compared"
else
    echo "threads_identical: no corpus (../shared/corpus or TN_CORPUS): samples only"
fi
[ $fail -eq 0 ] && echo "threads_identical: PASS"
exit $fail
