#!/usr/bin/env bash
# mpi_bench.sh - one analysis over the ranks of an MPI job (docs/cluster.md) against one rank,
# on the short-connection workload of issue 12 cut into files as a capture rotates them.  Not
# part of the test suite: run it by hand on an otherwise idle machine; it needs gcc, editcap,
# mpirun and /usr/bin/time.
#
#   tests/bench/mpi_bench.sh [CACHE_DIR]        (default /tmp/tcptrace-ng-mpi)
#
# Environment: BIN (default build-rel/tcptrace-ng, built Release if missing), CONNS (short
#   connections, default 500000: 4.5 M packets), FILES (pieces, default 8), RANKS (the -np
#   values, default "1 2"; on a 16-core machine "1 2 4 8 16"), OPTS (default -q -j 1: one thread per rank, the whole analysis, the trace summary as report; -l writes about 6 KB per connection, all through rank 0).
#
# For each -np: wall s, the sum of the ranks' CPU s and the largest rank's peak RSS MiB
# (/usr/bin/time on every rank), the speed-up against -np 1, and from the ranks' own report
# (TN_CLUSTER_REPORT) the packet records sent to other ranks and their bytes per record; then
# each rank's CPU s, peak RSS and CPU by phase (the rounds of reading and analysis, finishing
# the connections left open, and on rank 0 the merge and the outputs).  Every
# run's report must be byte-identical to one process's without mpirun (checked; timed too).
set -u

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cache=${1:-/tmp/tcptrace-ng-mpi}
BIN=${BIN:-$src/build-rel/tcptrace-ng}
CONNS=${CONNS:-500000}
FILES=${FILES:-8}
RANKS=${RANKS:-"1 2"}
OPTS=${OPTS:--q -j 1}

die() { echo "mpi_bench: $*" >&2; exit 1; }
mkdir -p "$cache" || die "cannot create $cache"
[ -x /usr/bin/time ] || die "need /usr/bin/time (apt-get install time)"
command -v mpirun >/dev/null || die "need mpirun (apt-get install openmpi-bin)"
command -v editcap >/dev/null || die "need editcap (apt-get install wireshark-common)"
if [ ! -x "$BIN" ]; then
    echo "mpi_bench: building a Release tcptrace-ng in $src/build-rel"
    cmake -S "$src" -B "$src/build-rel" -DCMAKE_BUILD_TYPE=Release >/dev/null &&
        cmake --build "$src/build-rel" -j"$(nproc)" >/dev/null || die "build failed"
fi
gen="$cache/gen_workload"
if [ ! -x "$gen" ] || [ "$here/gen_workload.c" -nt "$gen" ]; then
    gcc -O2 -o "$gen" "$here/gen_workload.c" || die "cannot build gen_workload"
fi

whole="$cache/short$CONNS.pcap"
pieces="$cache/short$CONNS-$FILES"
if [ ! -f "$whole" ]; then
    "$gen" short "$CONNS" "$whole" || die "gen_workload failed"
fi
if [ ! -d "$pieces" ]; then
    pkts=$(capinfos -c -M "$whole" | awk '/Number of packets/ { print $NF }')
    mkdir -p "$pieces"
    editcap -c $(((pkts + FILES - 1) / FILES)) "$whole" "$pieces/piece.pcap" || die "editcap failed"
fi
files=("$pieces"/piece*.pcap)
pkts=$(capinfos -c -M "$whole" | awk '/Number of packets/ { print $NF }')
echo "mpi_bench: $CONNS short connections, $pkts packets, ${#files[@]} files of $(du -sh "$pieces" | cut -f1) in all;" \
     "$(nproc) cores; tcptrace-ng $OPTS"

# one process without mpirun: the reference every -np must equal
start=$(date +%s.%N)
/usr/bin/time -f "%U %S %M" -o "$cache/time.alone" "$BIN" $OPTS "${files[@]}" >"$cache/out.alone" 2>"$cache/err.alone" ||
    die "one process failed: $(tail -3 "$cache/err.alone")"
end=$(date +%s.%N)
printf '%-6s %9s %9s %10s %9s %16s %14s\n' "-np" "wall s" "CPU s" "RSS MiB" "speed-up" "records sent" "bytes/record"
awk -v w="$(echo "$end - $start" | bc)" '{ printf "%-6s %9.2f %9.1f %10.0f %9s %16s %14s\n", "alone", w, $1 + $2, $3 / 1024, "", "", "" }' \
    "$cache/time.alone"
# /usr/bin/time per rank; the ranks' reports on stderr
base=""
for np in $RANKS; do
    rm -f "$cache"/time.* "$cache/out.$np"
    start=$(date +%s.%N)
    TN_CLUSTER_REPORT=1 mpirun --allow-run-as-root --oversubscribe -x TN_CLUSTER_REPORT -np "$np" \
        sh -c 'exec /usr/bin/time -f "%U %S %M" -o "$0/time.$OMPI_COMM_WORLD_RANK" "$@"' "$cache" \
        "$BIN" $OPTS "${files[@]}" >"$cache/out.$np" 2>"$cache/err.$np" || die "-np $np failed: $(tail -3 "$cache/err.$np")"
    end=$(date +%s.%N)
    wall=$(echo "$end - $start" | bc)
    cpu=$(cat "$cache"/time.* | awk '{ s += $1 + $2 } END { printf "%.1f", s }')
    rss=$(cat "$cache"/time.* | awk '$3 > m { m = $3 } END { printf "%.0f", m / 1024 }')
    sent=$(awk '/packet records/ { for (i = 1; i <= NF; i++) if ($i == "of" && $(i+1) == "them") s += $(i-1) } END { print s + 0 }' "$cache/err.$np")
    bytes=$(sed -n 's/.*to other ranks: \([0-9]*\) bytes.*/\1/p' "$cache/err.$np" | awk '{ s += $1 } END { print s + 0 }')
    per=$(awk -v b="$bytes" -v n="$sent" 'BEGIN { printf "%.1f", n ? b / n : 0 }')
    [ -z "$base" ] && base=$wall
    speed=$(awk -v a="$base" -v b="$wall" 'BEGIN { printf "%.2fx", a / b }')
    printf '%-6s %9.2f %9s %10s %9s %16s %14s\n' "$np" "$wall" "$cpu" "$rss" "$speed" "$sent" "$per"
    cmp -s "$cache/out.alone" "$cache/out.$np" || echo "mpi_bench: -np $np report DIFFERS from one process"
    # each rank: CPU s and peak RSS (/usr/bin/time), CPU by phase (its TN_CLUSTER_REPORT)
    for ((r = 0; r < np; r++)); do
        phases=$(sed -n "s/^rank $r: .*CPU s: \(.*\)/\1/p" "$cache/err.$np" | sed ':a;N;$!ba;s/\n/; /g')
        awk -v r="$r" -v ph="$phases" '{ printf "         rank %d: CPU %.1f s, peak RSS %.0f MiB (CPU s: %s)\n", r, $1 + $2, $3 / 1024, ph }' \
            "$cache/time.$r"
    done
done
