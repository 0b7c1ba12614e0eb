#!/usr/bin/env bash
# run.sh - build the libFuzzer targets with clang and fuzz each for a while.
#
#   tests/fuzz/run.sh [--seconds N] [--jobs J] [--work DIR] [TARGET ...]
#
# Default: one hour per target (docs/reliability.md), every target in turn, niced (the machine
# may be shared).  CI runs it with --seconds 30.  Seeds come from the samples (trace prefixes,
# truth files), the corpus when ../shared/corpus is there (small traces, ns-2 traces) and the
# regression inputs.  Work goes to DIR (default build-fuzz/work): DIR/corpus/TARGET grows with
# what the fuzzer finds, DIR/artifacts/TARGET holds crashes, leaks and timeouts, DIR/TARGET.log
# the fuzzer's log, DIR/summary.tsv one line per run: target, seconds, executions, coverage
# (cov: edges), corpus size, findings.  A finding is fixed, then its input goes to
# tests/fuzz/corpus/regress-TARGET/ so that CTest replays it on every build.
# Exit 0 when no target found anything, 1 otherwise.
set -u
cd "$(dirname "$0")/../.."
src=$PWD
secs=3600 jobs=1 work=
targets=()
while [ $# -gt 0 ]; do
    case $1 in
        --seconds) secs=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=(dissect pipeline pcapfile ns2 truth options cli cluster retired)
build=$src/build-fuzz
work=${work:-$build/work}
command -v clang >/dev/null || { echo "run.sh: clang is needed (apt-get install clang)"; exit 1; }

CC=clang nice cmake -S "$src" -B "$build" -DTN_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 1
extra=()
[[ " ${targets[*]} " == *" cluster "* ]] && extra+=(fuzz_cluster_seeds)
[[ " ${targets[*]} " == *" retired "* ]] && extra+=(fuzz_retired_seeds)
nice cmake --build "$build" -j2 --target "${targets[@]/#/fuzz_}" ${extra[@]+"${extra[@]}"} >"$build/build.log" 2>&1 ||
    { tail -30 "$build/build.log"; exit 1; }

corpus=$src/../shared/corpus
mkdir -p "$work"
seed() {   # seed TARGET NAME < bytes
    mkdir -p "$work/corpus/$1"
    cat > "$work/corpus/$1/seed-$2"
}
pcaps=$(find "$src/samples" -name '*.pcap*' -type f | sort)
if [ -d "$corpus" ]; then
    more=$(find "$corpus" -type f \( -name '*.pcap' -o -name '*.pcapng' -o -name '*.cap' -o -name '*.erf' \
           -o -name '*.dmp' \) -size -64k 2>/dev/null | sort | awk 'NR % 10 == 1' | head -150)
    pcaps=$(printf '%s\n%s\n' "$pcaps" "$more")
fi
ns2s=$(find "$corpus/ns2-traces" -name '*.tr' -type f 2>/dev/null | sort)
truths=$(find "$src/samples" -name 'tcp_probe.csv' -type f | sort)
i=0
IFS=$'\n'   # corpus names have spaces ("SACK example .pcapng"): split the lists at newlines only
for f in $pcaps; do
    i=$((i + 1))
    head -c 16384 "$f" | seed pcapfile "$i"
    # cli: command line 0..13 round robin, the whole prefix as F
    { printf "\\x$(printf %02x $((i % 14)))\\xff\\xff"; head -c 16384 "$f"; } | seed cli "trace$i"
done
for f in "$src"/tests/fuzz/corpus/regress/pipeline-*; do cp "$f" "$work/corpus/pipeline/" 2>/dev/null || { mkdir -p "$work/corpus/pipeline"; cp "$f" "$work/corpus/pipeline/"; }; done
i=0
for f in $ns2s; do
    i=$((i + 1))
    head -n 300 "$f" | seed ns2 "$i"
    { printf '\x07\xff\xff'; head -n 300 "$f"; } | seed cli "ns2-$i"
done
printf '+ 0.1 0 1 tcp 1040 ------- 1 0.0 3.0 0 0\nr 0.2 0 1 tcp 1040 ------- 1 0.0 3.0 0 0\n' | seed ns2 hand
i=0
for f in $truths; do
    i=$((i + 1))
    # the probes, then the two companion files after lines "--" (fuzz_truth.c)
    d=$(dirname "$f")
    { head -n 60 "$f"; echo --; head -n 20 "$d/tcp_cong_state.csv"; echo --; head -n 30 "$d/tcp_retransmit.csv"; } |
        seed truth "$i"
    pcap=$(dirname "$f")/snd1_eth0.pcap
    [ -f "$pcap" ] || continue
    t=$(head -n 60 "$f")
    # cli command 8 (--truth F G): F = the truth rows, G = the trace's first 16 KiB
    n=${#t}
    { printf "\\x08\\x$(printf %02x $((n & 255)))\\x$(printf %02x $((n >> 8)))"; printf '%s' "$t"; head -c 16384 "$pcap"; } | seed cli "truth$i"
done
printf '%s\0' -l --csv out --plot p --plot-format svg --plot-size 640x400 x.pcap | seed options 1
printf '%s\0' --experiment 'rtt=10ms=a.pcap' --experiment '=b.pcap' --connection '10.0.0.1:80-10.0.0.2:1000' \
    --connection 3 --from 1.5 --to 2e3 --interval 100 x.pcap | seed options 2
printf '%s\0' --ingress a.pcap --egress b.pcap --fairness-by hostpair --fairness-window 50 \
    --parallel-window 20 --queue-estimate --replay=2 -Z nobody --idle-timeout 1e9 | seed options 3
printf '%s\0' -i lo -s 96 --buffer 1024 -w o.pcap --dfcp-proto 253 --dfcp-port 9000 'tcp port 80' | seed options 4
printf '\x01\x00\x45\x00\x00\x28' | seed dissect 1
# cluster: packet records, a rank's results and an experiment trace's results packed from the
# samples (and a few corpus traces of other link types)
if [[ " ${targets[*]} " == *" cluster "* ]]; then
    mkdir -p "$work/corpus/cluster"
    # shellcheck disable=SC2086
    nice "$build/tests/fuzz/fuzz_cluster_seeds" "$work/corpus/cluster" $(printf '%s\n' $pcaps | head -40) ||
        echo "run.sh: some cluster seeds could not be made"
fi
# retired: the connections a rank retires during the run, streamed from the same traces (one
# where no connection closes gives none: 14 of the 190 on 2026-12-06)
if [[ " ${targets[*]} " == *" retired "* ]]; then
    mkdir -p "$work/corpus/retired"
    # shellcheck disable=SC2086
    nice "$build/tests/fuzz/fuzz_retired_seeds" "$work/corpus/retired" $pcaps >/dev/null ||
        echo "run.sh: some retired-connection seeds could not be made"
fi
unset IFS

par=()
[ "$jobs" -gt 1 ] && par=(-jobs="$jobs" -workers="$jobs")   # (several jobs log to fuzz-N.log in the current directory)
: > "$work/summary.tsv.new"
found=0
for t in "${targets[@]}"; do
    bin=$build/tests/fuzz/fuzz_$t
    mkdir -p "$work/corpus/$t" "$work/artifacts/$t"
    regress=()
    for d in "$src/tests/fuzz/corpus/regress" "$src/tests/fuzz/corpus/regress-$t"; do
        [ -d "$d" ] && regress+=("$d")
    done
    echo "fuzz_$t: $secs s ..."
    ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:abort_on_error=0 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    nice -n 19 "$bin" -max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 -max_len=65536 \
        ${par[@]+"${par[@]}"} -print_final_stats=1 \
        -artifact_prefix="$work/artifacts/$t/" "$work/corpus/$t" "${regress[@]}" \
        >"$work/$t.log" 2>&1
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$t.log" | awk '{s += $2} END {print s + 0}')
    cov=$(grep -o 'cov: [0-9]*' "$work/$t.log" | tail -1 | awk '{print $2}')
    n=$(find "$work/corpus/$t" -type f | wc -l)
    # slow-unit-* are inputs that took over 10 s (libFuzzer's -report_slow_units): on this
    # shared, niced machine that is the load, not a hang (hangs are timeout-*, at -timeout=20),
    # so they are listed apart and do not count as findings
    hits=$(find "$work/artifacts/$t" -type f ! -name 'slow-unit-*' | wc -l)
    slow=$(find "$work/artifacts/$t" -type f -name 'slow-unit-*' | wc -l)
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$secs" "$execs" "${cov:-0}" "$n" "$hits" >> "$work/summary.tsv.new"
    echo "fuzz_$t: $execs runs, coverage ${cov:-?} edges, corpus $n, findings $hits, slow inputs $slow"
    if [ "$hits" -gt 0 ]; then
        found=1
        find "$work/artifacts/$t" -type f ! -name 'slow-unit-*' | head -5
        grep -m3 -E 'ERROR|runtime error' "$work/$t.log"
    fi
done
cat "$work/summary.tsv.new" >> "$work/summary.tsv"
exit $found
