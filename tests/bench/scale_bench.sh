#!/usr/bin/env bash
# scale_bench.sh - tcptrace-ng against tcptrace (and tshark on the smallest trace) on the
# synthetic workloads of issue 12, in one run.  Not part of the test suite: run it by hand on an
# otherwise idle machine; it needs gcc, /usr/bin/time, tcptrace and tshark.
#
#   tests/bench/scale_bench.sh [CACHE_DIR]      (default /tmp/tcptrace-ng-scale)
#
# Environment: BIN (tcptrace-ng to time; default build-rel/tcptrace-ng, built Release if missing),
#   WORKLOADS (default "short50k short500k syn1m bulk8"; also short200k, syn200k), JOBS (-j N for the
#   threaded run, default nproc), REPS (timed runs, best wall time kept; default 1), CSV_WORKLOADS (those also
#   timed with --csv; default "short50k bulk8").
#
# Workloads (tests/bench/gen_workload.c, generated once into CACHE_DIR):
#   short50k / short200k / short500k   complete short connections (handshake, a data segment each way,
#                          FIN both ways, last ACK: 9 packets), about 4000 open at once
#   syn1m / syn200k        1,000,000 / 200,000 lone SYNs from distinct sources (a flood)
#   bulk8                  8 bulk flows, 1,000,000 packets
# For each: wall s, CPU s (user + sys), peak RSS MiB (/usr/bin/time) of
#   ours -l -j 1, ours -l -j N, ours --csv DIR -q -j 1, tcptrace -n -l, and
#   tshark -n -q -z conv,tcp on short50k; then the ratios the issue's targets are stated in.
set -u

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cache=${1:-/tmp/tcptrace-ng-scale}
BIN=${BIN:-$src/build-rel/tcptrace-ng}
WORKLOADS=${WORKLOADS:-"short50k short500k syn1m bulk8"}
JOBS=${JOBS:-$(nproc)}
REPS=${REPS:-1}
CSV_WORKLOADS=${CSV_WORKLOADS:-"short50k bulk8"}

die() { echo "scale_bench: $*" >&2; exit 1; }
mkdir -p "$cache" || die "cannot create $cache"
[ -x /usr/bin/time ] || die "need /usr/bin/time (apt-get install time)"
command -v tcptrace >/dev/null || die "need tcptrace"
if [ ! -x "$BIN" ]; then
    echo "scale_bench: building a Release tcptrace-ng in $src/build-rel"
    cmake -S "$src" -B "$src/build-rel" -DCMAKE_BUILD_TYPE=Release >/dev/null &&
        cmake --build "$src/build-rel" -j"$(nproc)" >/dev/null || die "build failed"
fi
gen="$cache/gen_workload"
if [ ! -x "$gen" ] || [ "$here/gen_workload.c" -nt "$gen" ]; then
    gcc -O2 -o "$gen" "$here/gen_workload.c" || die "cannot build gen_workload"
fi

file_of() {
    case $1 in
    short50k) echo "short 50000" ;;
    short200k) echo "short 200000" ;;
    short500k) echo "short 500000" ;;
    syn1m) echo "syn 1000000" ;;
    syn200k) echo "syn 200000" ;;
    bulk8) echo "bulk 1000000" ;;
    *) die "unknown workload $1" ;;
    esac
}

# time_it LABEL CMD...: best of REPS; sets W (wall s), C (CPU s), M (peak RSS MiB)
time_it() {
    local best=""
    for _ in $(seq "$REPS"); do
        rm -rf "$cache/csv"
        /usr/bin/time -f '%e %U %S %M' -o "$cache/time.txt" "$@" >/dev/null 2>"$cache/err.txt" ||
            echo "scale_bench: warning: $* exited $?: $(head -2 "$cache/err.txt")" >&2
        read -r w u s m <"$cache/time.txt"
        if [ -z "$best" ] || awk -v a="$w" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$w
            W=$w
            C=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
            M=$(awk -v m="$m" 'BEGIN { printf "%.1f", m / 1024 }')
        fi
    done
}


printf '%-10s %-14s %10s %8s %8s %11s %10s\n' workload tool packets wall_s cpu_s packets/s rss_MiB
declare -A R
for wl in $WORKLOADS; do
    f="$cache/$wl.pcap"
    [ -s "$f" ] || { set -- $(file_of "$wl"); "$gen" "$1" "$2" "$f" || die "cannot generate $f"; }
    pk=$("$BIN" -q "$f" 2>/dev/null | awk '/packets read:/ { print $3 }')
    runs=("ours -l|$BIN -l -j 1 $f" "ours -l -j $JOBS|$BIN -l -j $JOBS $f")
    case " $CSV_WORKLOADS " in *" $wl "*) runs+=("ours --csv|$BIN -q -j 1 --csv $cache/csv $f") ;; esac
    runs+=("tcptrace -n -l|tcptrace -n -l $f")
    [ "$wl" = short50k ] && command -v tshark >/dev/null && runs+=("tshark|tshark -n -q -z conv,tcp -r $f")
    for r in "${runs[@]}"; do
        label=${r%%|*}
        time_it ${r#*|}
        R["$wl/$label"]="$W $C $M"
        printf '%-10s %-14s %10s %8s %8s %11s %10s\n' "$wl" "$label" "$pk" "$W" "$C" \
            "$(awk -v p="$pk" -v w="$W" 'BEGIN { printf "%.2f M", (w > 0 ? p / w / 1e6 : 0) }')" "$M"
    done
    R["$wl/packets"]=$pk
done

ratio() {   # ratio WL A B FIELD(1 wall 2 cpu 3 rss): A / B
    local a b
    a=$(echo "${R[$1/$2]:-}" | awk -v f="$4" '{ print $f }')
    b=$(echo "${R[$1/$3]:-}" | awk -v f="$4" '{ print $f }')
    [ -n "$a" ] && [ -n "$b" ] && awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }' || echo n/a
}

echo
for wl in $WORKLOADS; do
    echo "$wl: tcptrace/ours wall $(ratio "$wl" 'tcptrace -n -l' 'ours -l' 1)x, CPU $(ratio "$wl" 'tcptrace -n -l' 'ours -l' 2)x;" \
        "ours/tcptrace peak RSS $(ratio "$wl" 'ours -l' 'tcptrace -n -l' 3);" \
        "--csv/-l wall $(ratio "$wl" 'ours --csv' 'ours -l' 1)x, CPU $(ratio "$wl" 'ours --csv' 'ours -l' 2)x"
    echo "$wl: -j 1 / -j $JOBS wall $(ratio "$wl" 'ours -l' "ours -l -j $JOBS" 1)x;" \
        "tcptrace / -j $JOBS wall $(ratio "$wl" 'tcptrace -n -l' "ours -l -j $JOBS" 1)x;" \
        "-j $JOBS/-j 1 peak RSS $(ratio "$wl" "ours -l -j $JOBS" 'ours -l' 3)"
done
if [ -n "${R[short50k/ours -l]:-}" ] && [ -n "${R[short500k/ours -l]:-}" ]; then
    awk -v p1="${R[short50k/packets]}" -v w1="$(echo "${R[short50k/ours -l]}" | cut -d' ' -f2)" \
        -v p2="${R[short500k/packets]}" -v w2="$(echo "${R[short500k/ours -l]}" | cut -d' ' -f2)" \
        'BEGIN { printf "packets/s (CPU) at 500k connections / at 50k: %.2f (target >= 0.75)\n", (p2 / w2) / (p1 / w1) }'
fi
echo "targets: short500k tcptrace/ours >= 3x with RSS <= 0.25; syn1m <= 300 MiB and >= 3x; bulk8 >= 3x; --csv/-l <= 2.5x;" \
    "-j 2 / -j 1 >= 1.7x (short) and >= 1.6x (bulk8) on 2 cores"
