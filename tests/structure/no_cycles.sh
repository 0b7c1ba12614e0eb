#!/bin/bash
# no_cycles.sh SOURCE_DIR BUILD_DIR - the files of the program form no cycle, by includes or by
# calls, except the nested-protocol recursion inside dissect/ (IP in GRE in IP, PPP in Ethernet
# in VXLAN ...: one dissector hands the rest of the packet to another, which may hand it back).
#
# Includes: every #include "x.h" of a tracked .c/.h file of a layer is an edge file -> x.h.
# Calls: for every object file of a layer library or the program, each undefined symbol that
# another object defines as a function (nm: T or W) is an edge caller.c -> callee.c.  A table of
# backends or views (data) is not a call: the core that holds the table may be called back by
# the entries, as in libtrace's format table and htop's views.  Calls inside dissect/ are left
# out, as said above, and so are the edges listed in cycles_allowed (cycles other issues are
# removing).  tsort(1) then finds the loops; any loop fails the test and is printed.
set -u
export LC_ALL=C
src=${1:?source dir}
bld=${2:?build dir}
layers="common capture ns2 dissect anon analysis views render cli"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src" || exit 1

# ---- include edges (headers are found by base name: no two headers share one)
{ git ls-files $layers 2>/dev/null || find $layers -type f; } | grep -E '\.[ch]$' | sort -u > "$tmp/files" ||
    { echo "no sources under $src"; exit 1; }
awk -F/ '/\.h$/ {print $NF "\t" $0}' "$tmp/files" | sort > "$tmp/headers"
if [ -n "$(cut -f1 "$tmp/headers" | uniq -d)" ]; then
    echo "two headers share a base name:"; cut -f1 "$tmp/headers" | uniq -d; exit 1
fi
while IFS= read -r f; do
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
        awk -v f="$f" '{n = split($0, p, "/"); print p[n] "\t" f}'
done < "$tmp/files" | sort > "$tmp/incs"
join -t "$(printf '\t')" "$tmp/incs" "$tmp/headers" | awk -F'\t' '$2 != $3 {print $2 " " $3}' |
    sort -u > "$tmp/edges.inc"

# ---- call edges, from the objects of sources that still exist
: > "$tmp/defs"; : > "$tmp/uses"
nobj=0
while IFS= read -r o; do
    rel=${o#"$bld"/CMakeFiles/*.dir/}
    rel=${rel%.o}
    [ -f "$rel" ] || continue   # an object left over from a deleted source
    nobj=$((nobj + 1))
    nm --defined-only -g "$o" | awk -v f="$rel" 'NF == 3 && $2 ~ /^[TW]$/ {print $3 "\t" f}' >> "$tmp/defs"
    nm -u "$o" | awk -v f="$rel" '{print $NF "\t" f}' >> "$tmp/uses"
done < <(find "$bld/CMakeFiles" -path '*/tn_common.dir/*' -name '*.c.o' -o \
              -path '*/tn_capture.dir/*' -name '*.c.o' -o -path '*/tn_ns2.dir/*' -name '*.c.o' -o \
              -path '*/tn_dissect.dir/*' -name '*.c.o' -o -path '*/tn_analysis.dir/*' -name '*.c.o' -o \
              -path '*/tn_anon.dir/*' -name '*.c.o' -o -path '*/tn_views.dir/*' -name '*.c.o' -o \
              -path '*/tn_render.dir/*' -name '*.c.o' -o -path '*/tcptrace-ng.dir/*' -name '*.c.o')
if [ "$nobj" -lt 10 ]; then
    echo "only $nobj object files under $bld/CMakeFiles: build first"; exit 1
fi
sort -u "$tmp/defs" -o "$tmp/defs"
sort -u "$tmp/uses" -o "$tmp/uses"
join -t "$(printf '\t')" "$tmp/uses" "$tmp/defs" |
    awk -F'\t' '$2 != $3 && !($2 ~ /^dissect\// && $3 ~ /^dissect\//) {print $2 " " $3}' |
    sort -u > "$tmp/edges.all"

# ---- edges allowed for now (cycles_allowed: each names the issue that removes it)
sed 's/#.*//' "$(dirname "$0")/cycles_allowed" | awk 'NF == 2 {print $1 " " $2}' | sort -u > "$tmp/allowed"
comm -13 "$tmp/edges.all" "$tmp/allowed" | sed 's/^/stale line in cycles_allowed (the edge is gone; delete it): /'
comm -23 "$tmp/edges.all" "$tmp/allowed" > "$tmp/edges.call"

ninc=$(wc -l < "$tmp/edges.inc"); ncall=$(wc -l < "$tmp/edges.call")
if ! cat "$tmp/edges.inc" "$tmp/edges.call" | tsort > /dev/null 2> "$tmp/loops"; then
    echo "cycles among the files (tsort prints each loop it meets):"
    sed 's/^tsort: //' "$tmp/loops"
    echo "edges on a loop (I = include, C = call):"
    grep -o '[^ :]*\.[ch]$' "$tmp/loops" | sort -u > "$tmp/onloop"
    awk 'NR == FNR {on[$1] = 1; next} on[$1] && on[$2] {print FILENAME ~ /inc$/ ? "I" : "C", $1, "->", $2}' \
        "$tmp/onloop" "$tmp/edges.inc" "$tmp/edges.call"
    exit 1
fi
echo "no cycles: $(wc -l < "$tmp/files") files, $nobj objects, $ninc include and $ncall call edges"
