#!/usr/bin/env bash
# plot_bench.sh - a PNG time-sequence graph of a 10M-packet connection: time and memory of the
# figure (build + render), apart from the packet records it is drawn from.  Not a test.
#
#   tests/bench/plot_bench.sh [PACKETS] [BUILD_DIR]     (default 10000000, build-bench)
#
# Builds tn_render Release (no sanitizers) in BUILD_DIR, compiles plot_bench.c against it, runs
# it and checks the targets: figure under 2 s and under 200 MB of memory beyond the records.
# The records themselves (sizeof(struct tn_pktrec) each, about 1.2 GB for 10M) are printed
# separately: they are the analysis' memory, see docs/figures.md "Memory".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
n=${1:-10000000}
bdir=${2:-$src/build-bench}
cmake -S "$src" -B "$bdir" -DCMAKE_BUILD_TYPE=Release -DTN_BUILD_TESTS=OFF >/dev/null
cmake --build "$bdir" --target tn_render -j"$(nproc)" >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc -O2 -std=c11 -D_GNU_SOURCE -I"$src/render" -I"$src/analysis" -I"$src/dissect" -I"$src/common" \
    "$here/plot_bench.c" "$bdir/libtn_render.a" "$bdir/libtn_analysis.a" "$bdir/libtn_dissect.a" \
    "$bdir/libtn_common.a" $(pkg-config --cflags --libs cairo) -lcsv -lm -o "$out/plot_bench"
line=$("$out/plot_bench" "$n" "$out/tsg.png")
echo "$line"
awk -v l="$line" 'BEGIN {
    n = split(l, kv, " "); for (i = 1; i <= n; i++) { split(kv[i], p, "="); v[p[1]] = p[2] }
    ok = v["total_s"] < 2 && v["figure_rss_mib"] < 200
    printf "figure: %.2f s (target < 2 s), %.1f MiB beyond the records (target < 200 MB): %s\n",
        v["total_s"], v["figure_rss_mib"], ok ? "ok" : "MISSED"
    printf "records: %s MiB for %s packets (%s B each)\n", v["records_mib"], v["packets"], v["record_bytes"]
    exit ok ? 0 : 1 }'
