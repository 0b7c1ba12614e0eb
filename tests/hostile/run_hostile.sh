#!/usr/bin/env bash
# run_hostile.sh - the program over hostile files of every format: each ends with the exit
# status and the message tn_make_hostile says it must (expect.tsv), and no run prints a
# sanitizer report or dies of a signal.
#
#   run_hostile.sh BINARY MAKE_HOSTILE SOURCE_DIR [BOMB_MIB]     exit 0 pass, 1 fail
#
# Also: every fuzz regression input (tests/fuzz/corpus/regress: the reproducers of
# ../shared/repro among them), through the text report, the timeline and every CSV writer;
# options given NaN; and a gzip bomb (a pcap header and BOMB_MIB MiB of zeros, default 64; 10240
# for the 10 GiB one of reliability.md) read in flat memory: its peak RSS may not exceed a
# 5-packet file's by more than libwandio's read-ahead (at most 100 MiB) and 16 MiB.
set -u
bin=${1:?usage: run_hostile.sh BINARY MAKE_HOSTILE SOURCE_DIR [BOMB_MIB]}
make=${2:?make_hostile}
src=${3:?source dir}
bomb_mib=${4:-64}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hostile.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in"
"$make" "$tmp/in" || { echo "FAIL: $make"; exit 1; }

fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# clean NAME RC ERRFILE: no sanitizer report, no death by signal
clean() {
    if [ "$2" -ge 128 ]; then
        bad "$1: killed by signal $(($2 - 128))"
        return 1
    fi
    if grep -qE 'runtime error|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer' "$3"; then
        bad "$1: sanitizer report: $(grep -m1 -E 'runtime error|Sanitizer' "$3")"
        return 1
    fi
    return 0
}

# ---- the hand-made files ----
while IFS=$'\t' read -r name want msg; do
    "$bin" --timeline --csv "$tmp/out-$name" "$tmp/in/$name" >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
    clean "$name" "$rc" "$tmp/$name.err" || continue
    case "|$want|" in
        *"|$rc|"*) ;;
        *) bad "$name: exit $rc, want $want: $(head -c 300 "$tmp/$name.err")"; continue ;;
    esac
    if [ "$msg" != - ] && ! grep -qF -- "$msg" "$tmp/$name.err"; then
        bad "$name: message '$msg' not in: $(head -c 300 "$tmp/$name.err")"
        continue
    fi
    if [ "$msg" != - ] && ! grep -qF -- "$tmp/in/$name" "$tmp/$name.err"; then
        bad "$name: the message does not name the file"
        continue
    fi
    if [ "$msg" = - ]; then ok "$name: exit $rc"; else ok "$name: exit $rc, \"$msg\""; fi
done < "$tmp/in/expect.tsv"

# ---- the fuzz regression inputs ----
for f in "$src"/tests/fuzz/corpus/regress/*; do
    n=$(basename "$f")
    "$bin" --timeline -l --csv "$tmp/reg-$n" "$f" >/dev/null 2>"$tmp/reg-$n.err"
    rc=$?
    clean "regress/$n" "$rc" "$tmp/reg-$n.err" || continue
    [ "$rc" = 0 ] || [ "$rc" = 2 ] || { bad "regress/$n: exit $rc"; continue; }
    ok "regress/$n: exit $rc"
done

# ---- NaN and infinity where a number is due: a usage error (exit 1) naming the option ----
good="$tmp/in/pcap-snaplen-0.pcap"
for opt in --from --to --idle-timeout --plot-scale --replay; do
    for v in nan inf -nan; do
        "$bin" "$opt=$v" "$good" >/dev/null 2>"$tmp/opt.err"
        rc=$?
        if [ "$rc" = 1 ] && grep -qF -- "$opt: '$v'" "$tmp/opt.err"; then
            :
        else
            bad "$opt $v: exit $rc: $(head -c 200 "$tmp/opt.err")"
        fi
    done
done
ok "NaN and infinity refused by --from --to --idle-timeout --plot-scale --replay"

# ---- a gzip bomb: a pcap header, then zeros (empty records) ----
bomb="$tmp/bomb.pcap.gz"
{ printf '\xd4\xc3\xb2\xa1\x02\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\x00\x00\x01\x00\x00\x00'
  head -c "$((bomb_mib * 1024 * 1024))" /dev/zero; } | gzip -1 > "$bomb"
# (an ASan build keeps freed memory in quarantine, up to 256 MiB: off here, so the peak is the
# program's own)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0"
if command -v /usr/bin/time >/dev/null; then
    /usr/bin/time -f %M -o "$tmp/rss-small" "$bin" -q "$tmp/in/pcap-absurd-times.pcap" >/dev/null 2>&1
    /usr/bin/time -f %M -o "$tmp/rss-bomb" "$bin" -q "$bomb" >"$tmp/bomb.out" 2>"$tmp/bomb.err"
    rc=$(awk '/exit status/ {print $NF}' "$tmp/rss-bomb")
    rc=${rc:-0}
    small=$(tail -1 "$tmp/rss-small") big=$(tail -1 "$tmp/rss-bomb")
else
    "$bin" -q "$bomb" >"$tmp/bomb.out" 2>"$tmp/bomb.err"
    rc=$? small=0 big=0
fi
clean "gzip bomb" "$rc" "$tmp/bomb.err"
want=$((bomb_mib * 1024 * 1024 / 16))
got=$(awk '/packets read:/ {print $3}' "$tmp/bomb.out")
[ "$got" = "$want" ] && ok "gzip bomb of $bomb_mib MiB: $got empty records read (= MiB * 2^20 / 16)" ||
    bad "gzip bomb: $got records read, want $want: $(head -c 200 "$tmp/bomb.err")"
# libwandio reads ahead on a thread into at most 100 buffers of 1 MiB (ireader.c BUFFERS,
# BUFFERSIZE), never more than the file holds; the readers add fixed buffers (1 MiB chunks).
# Anything growing with the records read (4 Mi of them for 64 MiB) would break this bound.
ahead=$((bomb_mib < 100 ? bomb_mib : 100))
limit=$((small + (ahead + 16) * 1024))
if [ "$big" -gt 0 ]; then
    if [ "$big" -le "$limit" ]; then
        ok "gzip bomb: peak RSS $big KiB (at most $limit: a 5-packet file's $small + read-ahead $ahead MiB + 16 MiB)"
    else
        bad "gzip bomb: peak RSS $big KiB, more than $limit (a 5-packet file's $small + read-ahead $ahead MiB + 16 MiB)"
    fi
fi
exit $fail
