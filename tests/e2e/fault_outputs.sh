#!/usr/bin/env bash
# fault_outputs.sh - outputs onto a full filesystem, and symlinks planted at temporary names.
#
#   fault_outputs.sh BINARY CORPUS_DIR SOURCE_DIR     exit 0 pass, 1 fail, 77 skip
#
# Input: samples/cubic-owd5/rcv1_eth0.pcap (4136 packets, committed).
#  1. Full filesystem (a 64 KiB tmpfs; needs root for mount): -w, --csv, --plot, --xplot, --json each
#     exit 2 with "FILE: cannot write: No space left on device; the file was not written" (-w:
#     "FILE: write failed after N packets: No space left on device") on stderr, no temporary left in the directory, and every file that does stand under its final
#     name is byte for byte the one a run with room writes (nothing partial under a final name).
#  2. Symlinks planted at every temporary name the old writers used (.NAME.tmp, PATH.tmp) and at
#     a final name, pointing at a victim file: the victim keeps its bytes, the final name becomes
#     a regular file, exit 0.
set -u

bin=${1:?usage: fault_outputs.sh BINARY CORPUS_DIR SOURCE_DIR}
src=${3:?source dir}
in="$src/samples/cubic-owd5/rcv1_eth0.pcap"
[ -f "$in" ] || { echo "SKIP: $in not found"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fault_outputs.XXXXXX") || exit 1
full="$tmp/full"
mkdir "$full"
mounted=0
cleanup() {
    [ "$mounted" = 1 ] && umount "$full" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# ---- 1. full filesystem --------------------------------------------------------------------
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$full" 2>/dev/null; then
    mounted=1
    # run NAME OPTION TARGET [FILL_KB]: once with room (reference), once onto the full tmpfs
    # (FILL_KB of it taken first by a filler file, for an output smaller than the tmpfs)
    run() {
        local name=$1 opt=$2 target=$3 fill=${4:-0}
        rm -rf "${full:?}"/* "${full:?}"/.[!.]* 2>/dev/null
        [ "$fill" = 0 ] || head -c "${fill}k" /dev/zero > "$full/filler" 2>/dev/null
        "$bin" -q "$opt" "$tmp/ref-$target" "$in" >/dev/null 2>"$tmp/ref-$name.err"
        local rrc=$?
        [ "$rrc" = 0 ] || bad "$name: reference run exit $rrc: $(cat "$tmp/ref-$name.err")"
        "$bin" -q "$opt" "$full/$target" "$in" >/dev/null 2>"$tmp/$name.err"
        local rc=$?
        [ "$rc" = 2 ] && ok "$name: full disk, exit 2" || bad "$name: full disk, exit $rc (want 2)"
        if grep -qE "$full/$target[^:]*: (cannot write|write failed after [0-9]+ packets): No space left on device" "$tmp/$name.err"; then
            ok "$name: message names the file and the reason"
        else
            bad "$name: message: $(cat "$tmp/$name.err")"
        fi
        # nothing partial: every file left is the reference's, no temporaries
        local left
        left=$(find "$full" -name '.*' -type f | wc -l)
        [ "$left" = 0 ] && ok "$name: no temporary left" || bad "$name: $left temporaries left: $(find "$full" -name '.*' -type f)"
        local f rel diffs=0
        while IFS= read -r f; do
            rel=${f#"$full/$target"}
            cmp -s "$f" "$tmp/ref-$target$rel" || { bad "$name: $f differs from the complete file"; diffs=1; }
        done < <(find "$full/$target" -type f 2>/dev/null; [ -f "$full/$target" ] && echo "$full/$target")
        [ "$diffs" = 0 ] && ok "$name: every file under a final name is complete ($(find "$full" -type f | wc -l) files)"
    }
    run dump -w out.pcap
    [ -e "$full/out.pcap" ] && bad "dump: out.pcap exists on the full disk"
    run csv --csv csv
    run plot --plot plot
    run xplot --xplot xpl
    run json --json out.jsonl 48   # 31 KB of JSON Lines into the 16 KiB left
    # series.csv: never a header-only file when its rows did not fit
    if [ -f "$full/csv/series.csv" ] && [ "$(wc -l < "$full/csv/series.csv")" -le 1 ]; then
        bad "csv: a header-only series.csv was left"
    fi
else
    echo "skip part 1: needs root and tmpfs (mount -t tmpfs)"
fi

# ---- 2. symlinks planted at temporary and final names -----------------------------------------
d="$tmp/plant"
mkdir -p "$d/csv" "$d/xpl"
printf 'victim\n' > "$tmp/victim"
printf 'victim2\n' > "$tmp/victim2"
for n in connections events series packets dfcp_blocks senders; do
    ln -s "$tmp/victim" "$d/csv/.$n.csv.tmp"
done
ln -s "$tmp/victim" "$d/out.pcap.tmp"
ln -s "$tmp/victim" "$d/out.jsonl.tmp"
ln -s "$tmp/victim2" "$d/csv/connections.csv"
ln -s "$tmp/victim" "$d/xpl/.conn1-a2b_tsg.xpl.tmp"
"$bin" -q -w "$d/out.pcap" --csv "$d/csv" --xplot "$d/xpl" --json "$d/out.jsonl" "$in" >/dev/null 2>"$tmp/plant.err"
rc=$?
[ "$rc" = 0 ] && ok "planted symlinks: exit 0" || bad "planted symlinks: exit $rc: $(cat "$tmp/plant.err")"
[ "$(cat "$tmp/victim")" = victim ] && ok "victim of the temporary names unchanged" || bad "victim overwritten"
[ "$(cat "$tmp/victim2")" = victim2 ] && ok "victim of the final name unchanged" || bad "victim2 overwritten"
[ -f "$d/csv/connections.csv" ] && [ ! -L "$d/csv/connections.csv" ] && ok "final name is a regular file" ||
    bad "connections.csv is not a regular file"
[ -f "$d/out.pcap" ] && [ ! -L "$d/out.pcap" ] && ok "-w file written" || bad "-w file missing"
[ -s "$d/out.jsonl" ] && [ ! -L "$d/out.jsonl" ] && ok "--json file written" || bad "--json file missing"

exit $fail
