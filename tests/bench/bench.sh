#!/usr/bin/env bash
# bench.sh - speed and memory of tcptrace-ng against its peers on the same large captures, in
# the same run.  Not part of the test suite: run it by hand, as root (network namespaces and
# tcpdump), on an otherwise idle machine.
#
#   tests/bench/bench.sh [CACHE_DIR]          (default /tmp/tcptrace-ng-bench)
#
# Environment: BIN (tcptrace-ng to time; default build/tcptrace-ng, built Release if missing),
#   REPS (timed runs per tool and file, best wall time kept; default 3),
#   TSHARK_REPS (default 1: tshark is slow), PACKETS (default 4000000), STREAMS (iperf3 -P,
#   default 4), SKIP_4M_PEERS=1 to time only ours and the floor on the large file.
#
# 1. Capture (once; cached in CACHE_DIR): iperf3 between two network namespaces over a veth pair
#    with TSO/GSO/GRO off (so every wire-size segment is a packet), tcpdump -s 128 -c PACKETS on
#    the receiver side -> big.pcap.  small.pcap = its first quarter (editcap), so the two files
#    hold the same connections and differ only in packet count: peak memory must not grow with it.
# 2. Time, with /usr/bin/time -f '%e %M' (wall s, peak RSS KiB):
#      ours    tcptrace-ng -l FILE
#      tcptrace tcptrace -n -l FILE
#      tshark  tshark -n -q -z conv,tcp -r FILE
#      floor   bench_read FILE (pcap_next_ex loop, tests/bench/bench_read.c)
#    and print packets/s, the ratios tcptrace/ours, tshark/ours, ours/floor, and the memory of
#    ours on the small vs the big file.  Targets: ours >= 2x faster than tcptrace -n -l and
#    >= 30x faster than tshark; memory flat in packet count.
set -u

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cache=${1:-/tmp/tcptrace-ng-bench}
REPS=${REPS:-3}
TSHARK_REPS=${TSHARK_REPS:-1}
PACKETS=${PACKETS:-4000000}
STREAMS=${STREAMS:-4}
BIN=${BIN:-$src/build/tcptrace-ng}

die() { echo "bench: $*" >&2; exit 1; }
mkdir -p "$cache" || die "cannot create $cache"

[ -x /usr/bin/time ] || {
    echo "bench: installing the Debian package 'time'"
    apt-get install -y -qq time >/dev/null || die "need /usr/bin/time (apt-get install time)"
}
for t in tcpdump iperf3 ethtool ip tshark tcptrace editcap capinfos gcc; do
    command -v "$t" >/dev/null 2>&1 || die "missing $t (scripts/setup.sh installs it)"
done

if [ ! -x "$BIN" ]; then
    echo "bench: building a Release tcptrace-ng in $src/build"
    cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release >/dev/null &&
        cmake --build "$src/build" -j"$(nproc)" >/dev/null || die "build failed"
fi

floor="$cache/bench_read"
if [ ! -x "$floor" ] || [ "$here/bench_read.c" -nt "$floor" ]; then
    gcc -O2 -o "$floor" "$here/bench_read.c" -lpcap || die "cannot build bench_read"
fi

big="$cache/big.pcap"
small="$cache/small.pcap"

# ---- 1. capture ------------------------------------------------------------------------------
capture() {
    [ "$(id -u)" -eq 0 ] || die "capturing needs root (network namespaces, tcpdump)"
    local A=tnbench_a B=tnbench_b
    local cleanup="ip netns del $A 2>/dev/null; ip netns del $B 2>/dev/null"
    eval "$cleanup"
    trap "$cleanup" EXIT
    ip netns add "$A" && ip netns add "$B" || die "ip netns add failed"
    ip link add veth_tnA netns "$A" type veth peer name veth_tnB netns "$B" || die "veth failed"
    ip -n "$A" addr add 10.77.0.1/24 dev veth_tnA
    ip -n "$B" addr add 10.77.0.2/24 dev veth_tnB
    ip -n "$A" link set veth_tnA up; ip -n "$A" link set lo up
    ip -n "$B" link set veth_tnB up; ip -n "$B" link set lo up
    for side in "$A veth_tnA" "$B veth_tnB"; do
        set -- $side
        ip netns exec "$1" ethtool -K "$2" tso off gso off gro off >/dev/null 2>&1 ||
            echo "bench: warning: ethtool -K $2 failed; segments may be coalesced"
    done
    ip netns exec "$B" iperf3 -s -1 -p 5201 >/dev/null 2>&1 &
    local srv=$!
    sleep 0.5
    ip netns exec "$B" tcpdump -i veth_tnB -s 128 -B 65536 -c "$PACKETS" -w "$big.tmp" tcp 2>"$cache/tcpdump.log" &
    local dump=$!
    sleep 1
    ip netns exec "$A" iperf3 -c 10.77.0.2 -p 5201 -P "$STREAMS" -t 600 >"$cache/iperf3.log" 2>&1 &
    local cli=$!
    wait "$dump"
    kill "$cli" 2>/dev/null; wait "$cli" 2>/dev/null
    kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null
    eval "$cleanup"
    trap - EXIT
    cat "$cache/tcpdump.log" | sed 's/^/    tcpdump: /'
    mv "$big.tmp" "$big"
}

if [ ! -s "$big" ]; then
    echo "bench: capturing $PACKETS packets (iperf3 -P $STREAMS over veth, tcpdump -s 128) into $big"
    capture
fi
if [ ! -s "$small" ]; then
    editcap -r "$big" "$small" "1-$((PACKETS / 4))" || die "editcap failed"
fi

npk() { capinfos -c -M "$1" | awk -F: '/Number of packets/ {gsub(/ /, "", $2); print $2}'; }
n_small=$(npk "$small")
n_big=$(npk "$big")

# ---- 2. timing -------------------------------------------------------------------------------
# best_of N CMD... -> "wall_s peak_kib cpu_s": the smallest wall time, the largest peak RSS and
# the smallest user+sys CPU time over N runs.  CPU time is the steadier number when other work
# shares the machine; both are reported.
best_of() {
    local n=$1 i best= bestm=0 bestc= w m u s c
    shift
    for ((i = 0; i < n; i++)); do
        /usr/bin/time -f '%e %M %U %S' -o "$cache/time.out" "$@" >/dev/null 2>"$cache/cmd.err"
        local rc=$?
        if [ "$rc" -ne 0 ]; then
            echo "bench: '$*' exited $rc: $(head -c 300 "$cache/cmd.err")" >&2
        fi
        read -r w m u s <"$cache/time.out"
        c=$(awk -v u="$u" -v s="$s" 'BEGIN {printf "%.2f", u + s}')
        if [ -z "$best" ] || awk -v a="$w" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$w; fi
        if [ -z "$bestc" ] || awk -v a="$c" -v b="$bestc" 'BEGIN {exit !(a < b)}'; then bestc=$c; fi
        [ "$m" -gt "$bestm" ] && bestm=$m
    done
    echo "$best $bestm $bestc"
}

declare -A W M C
run_set() {  # label file
    local label=$1 f=$2
    cat "$f" >/dev/null      # page cache warm for everyone
    read -r W[ours,$label] M[ours,$label] C[ours,$label] < <(best_of "$REPS" "$BIN" -l "$f")
    read -r W[floor,$label] M[floor,$label] C[floor,$label] < <(best_of "$REPS" "$floor" "$f")
    if [ "$label" = small ] || [ "${SKIP_4M_PEERS:-0}" != 1 ]; then
        read -r W[tcptrace,$label] M[tcptrace,$label] C[tcptrace,$label] < <(best_of "$REPS" tcptrace -n -l "$f")
        read -r W[tshark,$label] M[tshark,$label] C[tshark,$label] < <(best_of "$TSHARK_REPS" tshark -n -q -z conv,tcp -r "$f")
    fi
}

echo "bench: machine: $(lscpu | awk -F: '/Model name/ {gsub(/^ +/, "", $2); print $2}'), $(nproc) CPUs, $(free -g | awk '/Mem:/ {print $2}') GiB; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "bench: tcptrace-ng $BIN ($(git -C "$src" rev-parse --short HEAD 2>/dev/null)); tcptrace $(dpkg-query -W -f='${Version}' tcptrace 2>/dev/null); $(tshark -v 2>/dev/null | head -1)"
echo "bench: load average before timing: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "bench: small.pcap $n_small packets, big.pcap $n_big packets ($(du -h "$big" | cut -f1))"
run_set small "$small"
run_set big "$big"

pps() { awk -v n="$1" -v w="$2" 'BEGIN { if (w > 0) printf "%.2f M", n / w / 1e6; else print "-" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b > 0) printf "%.1fx", a / b; else print "-" }'; }

echo
printf '| %-9s | %-8s | %8s | %8s | %12s | %12s |\n' tool file "wall s" "CPU s" "packets/s" "peak RSS MiB"
printf '|%s|%s|%s|%s|%s|%s|\n' ----------- ---------- ---------- ---------- -------------- --------------
for label in small big; do
    n=$n_small; [ "$label" = big ] && n=$n_big
    for tool in ours tcptrace tshark floor; do
        w=${W[$tool,$label]:-}
        [ -n "$w" ] || continue
        printf '| %-9s | %-8s | %8s | %8s | %12s | %12s |\n' "$tool" "$label" "$w" "${C[$tool,$label]}" "$(pps "$n" "$w")" \
            "$(awk -v k="${M[$tool,$label]}" 'BEGIN {printf "%.1f", k / 1024}')"
    done
done
echo
for label in small big; do
    o=${W[ours,$label]} oc=${C[ours,$label]}
    echo "$label wall: tcptrace/ours $(ratio "${W[tcptrace,$label]:-}" "$o") (target >= 2x)," \
        "tshark/ours $(ratio "${W[tshark,$label]:-}" "$o") (target >= 30x)," \
        "ours/floor $(ratio "$o" "${W[floor,$label]}")"
    echo "$label CPU:  tcptrace/ours $(ratio "${C[tcptrace,$label]:-}" "$oc")," \
        "tshark/ours $(ratio "${C[tshark,$label]:-}" "$oc")," \
        "ours/floor $(ratio "$oc" "${C[floor,$label]}")"
done
echo "memory: ours peak RSS $(awk -v k="${M[ours,small]}" 'BEGIN {printf "%.1f", k / 1024}') MiB on $n_small packets," \
    "$(awk -v k="${M[ours,big]}" 'BEGIN {printf "%.1f", k / 1024}') MiB on $n_big packets" \
    "(ratio $(ratio "${M[ours,big]}" "${M[ours,small]}"), target ~1.0x)"
