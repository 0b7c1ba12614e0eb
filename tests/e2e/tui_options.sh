#!/bin/bash
# tui_options: the dashboard's options refuse what they cannot do, clearly: --tui without a
# terminal, a bad --replay speed, --replay with -i, -Z with a user that does not exist; and -Z
# drops root after opening the interface (the -w file then belongs to that user).
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
BIN=$1 SRC=$3
SAMPLE=$SRC/samples/loopback-iperf3.pcap
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; cat "$TMP/err" 2>/dev/null; exit 1; }
expect() {   # status, message pattern, args...
    local want=$1 pat=$2; shift 2
    "$BIN" "$@" < /dev/null > "$TMP/out" 2> "$TMP/err"
    local got=$?
    [ "$got" = "$want" ] || fail "'$*' exited $got, want $want"
    grep -q -- "$pat" "$TMP/err" || fail "'$*' did not say '$pat'"
    echo "ok: $* -> $got ($(head -1 "$TMP/err"))"
}
expect 1 "needs a terminal" --tui "$SAMPLE"
expect 1 "not a speed factor" --tui --replay=fast "$SAMPLE"
expect 1 "does not apply to -i" --replay=2 -i lo
expect 1 "not a number of seconds" --idle-timeout=-3 "$SAMPLE"
expect 1 "-Z: no user 'no-such-user-tn'" -Z no-such-user-tn "$SAMPLE"
"$BIN" --help | grep -q -- "--tui" || fail "--help does not list --tui"
"$BIN" --help | grep -q -- "-Z, --user USER" || fail "--help does not list -Z"
# --replay=SPEED paces the offline run too: the 2.3 s sample at x4 takes about 0.6 s
start=$(date +%s%N); "$BIN" -q --replay=4 "$SAMPLE" > /dev/null || fail "--replay=4 run"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -ge 450 ] && [ "$ms" -le 3000 ] || fail "--replay=4 of a 2.3 s trace took $ms ms"
echo "ok: --replay=4 took $ms ms"

# -Z: capture on lo as root, then run as nobody; the -w file is written by nobody.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
    chmod 777 "$TMP"
    "$BIN" -Z nobody -i lo -w "$TMP/z.pcap" > "$TMP/out" 2> "$TMP/err" & pid=$!
    sleep 1
    kill -INT $pid; wait $pid; rc=$?
    [ "$rc" = 0 ] || fail "-Z nobody live run exited $rc"
    [ "$(stat -c %U "$TMP/z.pcap" 2>/dev/null)" = nobody ] || fail "-w file not written as nobody"
    echo "ok: -Z nobody (the -w file belongs to nobody)"
else
    echo "note: not root, -Z drop not exercised"
fi
echo "PASS"
