#!/usr/bin/env bash
# live_soak.sh - a mirror port's day compressed into minutes: an endless stream of new
# connections (complete short ones and an unanswered SYN flood, tests/bench/soak_send.c) is sent
# through a veth pair from a network namespace, and tcptrace-ng captures it live on the other
# end.  Its resident memory is sampled over time, and the bytes of its store (the unlinked
# temporary files finished connections and their briefs are written to, docs/tcptrace-ng.1
# MEMORY): memory follows the open connections plus the brief of each one that ended in the
# last TIME-WAIT (60 s) or --idle-timeout (120 s by default, lone SYNs), instead of the whole
# connection (with a small MAX_CONNECTIONS the limit evicts the half-open and the longest idle
# first).  tshark (-q -z conv,tcp, which
# keeps every conversation) gets the same stream afterwards for comparison.  Root is needed
# (namespaces, AF_PACKET).  Not part of the test suite: it takes SECONDS per tool and loads the
# machine.
#
#   tests/bench/live_soak.sh [BINARY] [SECONDS] [PPS] [MAX_CONNECTIONS]
#
# Defaults: build-rel/tcptrace-ng, 300 s, 50000 frames/s (10 frames per unit, so 10000 new
# connections a second: 3 M connections in 300 s, about what a busy mirror port sees in a day
# at 35 a second), MAX_CONNECTIONS empty (the default limit from the memory); a small value
# (e.g. 100000) shows the plateau sooner.  Prints one line per 10 s sample and a verdict: flat
# when the memory of the last sample is within 10% of the one half-way through.
# SOAK_LIST=1: tcptrace-ng writes its connection list (not -q), whose length is printed beside
# the connections sent (frames / 5), SOAK_TSHARK=0 leaves tshark out, and SOAK_ARGS adds
# options to tcptrace-ng's (e.g. "--idle-timeout 30").
set -u
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${1:-$SRC/build-rel/tcptrace-ng}
SECS=${2:-300}
PPS=${3:-50000}
MAXC=${4:-}
NS=tnsoak$$
HOST=tnsk0$$ PEER=tnsk1$$
die() { echo "live_soak: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root (network namespaces, AF_PACKET)"
[ -x "$BIN" ] || die "no binary $BIN (build it: cmake -S . -B build-rel -DCMAKE_BUILD_TYPE=Release)"
TMP=$(mktemp -d)
cleanup() {
    [ -n "${SP:-}" ] && kill "$SP" 2>/dev/null
    [ -n "${TP:-}" ] && kill "$TP" 2>/dev/null
    ip link del "$HOST" 2>/dev/null
    ip netns del "$NS" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
cc -O2 -o "$TMP/soak_send" "$SRC/tests/bench/soak_send.c" || die "cannot build soak_send"
ip netns add "$NS" && ip link add "$HOST" type veth peer name "$PEER" && ip link set "$PEER" netns "$NS" &&
    ip link set "$HOST" up && ip netns exec "$NS" ip link set "$PEER" up || die "cannot set up the veth pair"
ethtool -K "$HOST" gro off gso off tso off >/dev/null 2>&1

rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
# store_kb PID: the bytes of the store files the process holds (the connections and, live,
# their briefs written out of memory), in KiB
store_kb() {
    local fd b=0
    for fd in /proc/"$1"/fd/*; do
        case "$(readlink "$fd" 2>/dev/null)" in
        */tcptrace-ng-retired-*" (deleted)" | */tcptrace-ng-briefs-*" (deleted)") b=$((b + $(stat -L -c %s "$fd" 2>/dev/null || echo 0))) ;;
        esac
    done
    echo $((b / 1024))
}

# soak NAME COMMAND...: runs the capture, the sender for SECS, samples the memory every 10 s
soak() {
    local name=$1; shift
    "$@" > "$TMP/$name.out" 2> "$TMP/$name.err" &
    TP=$!
    sleep 2
    ip netns exec "$NS" "$TMP/soak_send" "$PEER" "$PPS" "$SECS" > "$TMP/$name.sent" &
    SP=$!
    local t=0 half=0 last=0
    : > "$TMP/$name.rss"
    while [ "$t" -lt "$SECS" ] && kill -0 "$SP" 2>/dev/null; do
        sleep 10
        t=$((t + 10))
        last=$(rss_kb "$TP")
        [ "$t" -le $((SECS / 2)) ] && half=$last
        echo "$t $last $(store_kb "$TP")" >> "$TMP/$name.rss"
    done
    wait "$SP"; SP=
    sleep 2
    kill -INT "$TP"; wait "$TP"; TP=
    echo "$name: $(cat "$TMP/$name.sent") frames sent in ${SECS} s"
    awk -v n="$name" '{ printf "  %s  t=%4d s  RSS %7.1f MiB%s\n", n, $1, $2 / 1024,
                               ($3 > 0 ? sprintf("  store %7.1f MiB", $3 / 1024) : "") }' "$TMP/$name.rss"
    awk -v n="$name" -v h="$half" -v l="$last" 'BEGIN {
        printf "%s: memory half-way %.1f MiB, at the end %.1f MiB: %s\n", n, h / 1024, l / 1024,
               (h > 0 && l <= h * 1.10) ? "flat" : "GROWING" }'
}

limit=()
[ -n "$MAXC" ] && limit=(--max-connections "$MAXC")
echo "live_soak: $PPS frames/s for $SECS s ($((PPS / 10 * 2)) new connections a second), $(nproc) cores"
quiet=(-q)
[ "${SOAK_LIST:-0}" = 1 ] && quiet=()
read -r -a extra <<<"${SOAK_ARGS:-}"
soak tcptrace-ng "$BIN" "${quiet[@]}" "${limit[@]}" "${extra[@]}" -i "$HOST"
grep -h "connection table full\|not analysed\|dropped by kernel" "$TMP/tcptrace-ng.out" "$TMP/tcptrace-ng.err" | sed 's/^/  /'
if [ ${#quiet[@]} = 0 ]; then
    echo "  the report lists $(grep -cE '^ *[0-9]+: ' "$TMP/tcptrace-ng.out") connections of the" \
        "$(($(cat "$TMP/tcptrace-ng.sent") / 5)) sent"
fi
if [ "${SOAK_TSHARK:-1}" != 0 ] && command -v tshark >/dev/null; then
    soak tshark tshark -n -q -z conv,tcp -i "$HOST"
    grep -h "dropped" "$TMP/tshark.err" | sed 's/^/  /'
fi
