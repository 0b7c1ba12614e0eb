#!/usr/bin/env bash
# live_faults.sh - privileges, a disappearing interface and signals.
#
#   live_faults.sh BINARY CORPUS_DIR SOURCE_DIR     exit 0 pass, 1 fail, 77 skip
#
#  1. -Z nobody with one capture point (-i) and with two (--ingress-if/--egress-if): while it
#     runs, /proc/PID/status shows uid and gid 65534 (real, effective, saved, fs), the only
#     group nobody's own, and no capabilities (CapPrm, CapEff, CapAmb all 0); the -w file,
#     opened before the drop, belongs to nobody; SIGINT ends a live run with exit 0.
#  2. The capture interface is deleted during a live run: the run ends by itself (within 5 s)
#     with exit 2, the final report ("Trace summary"), and the capture error said once.
#  3. A trace read at --replay=1 (2.3 s) gets SIGINT after 1 s: exit 130, stderr "interrupted
#     by SIGINT: reading stopped after packet N of FILE", every CSV complete (ends with CRLF,
#     connections.csv has its rows) and no temporary left.  SIGTERM: exit 143.
#  4. Two SIGINTs 50 ms apart: exit 130 at once, no temporary left, and every file under a final
#     name complete (CSV ends with CRLF, PNG ends with its IEND chunk).
# Parts 1 and 2 need root and network namespaces (skipped otherwise); 3 and 4 run anywhere.
set -u
bin=${1:?usage: live_faults.sh BINARY CORPUS_DIR SOURCE_DIR}
src=${3:?source dir}
sample="$src/samples/cubic-owd5/rcv1_eth0.pcap"
[ -f "$sample" ] || { echo "SKIP: $sample not found"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/live_faults.XXXXXX") || exit 1
ns=tnlf.$$
cleanup() {
    ip netns del "$ns" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# status_is PID FIELD VALUE: the /proc/PID/status line FIELD (tabs squeezed) equals VALUE
status_is() {
    local got
    got=$(awk -v f="$2:" '$1 == f { $1 = ""; sub(/^ +/, ""); print }' "/proc/$1/status")
    [ "$got" = "$3" ] || { bad "$4: $2 is '$got', want '$3'"; return 1; }
}

check_dropped() {   # check_dropped PID WHAT
    local pid=$1 what=$2 n=0
    status_is "$pid" Uid "65534 65534 65534 65534" "$what" || n=1
    status_is "$pid" Gid "65534 65534 65534 65534" "$what" || n=1
    status_is "$pid" Groups "65534" "$what" || n=1
    status_is "$pid" CapPrm 0000000000000000 "$what" || n=1
    status_is "$pid" CapEff 0000000000000000 "$what" || n=1
    status_is "$pid" CapAmb 0000000000000000 "$what" || n=1
    [ $n = 0 ] && ok "$what: uid, gid, groups are nobody's, no capabilities"
}

# ---- 1 and 2: live, as root ----
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && [ "$(id -u nobody)" = 65534 ] &&
    [ "$(id -g nobody)" = 65534 ] && ip netns add "$ns" 2>/dev/null; then
    ip -n "$ns" link add tlfa type veth peer name tlfb
    ip -n "$ns" link add tlfc type veth peer name tlfd
    for i in tlfa tlfb tlfc tlfd lo; do ip -n "$ns" link set "$i" up; done
    chmod 777 "$tmp"

    ip netns exec "$ns" "$bin" -q -Z nobody -i tlfa -w "$tmp/one.pcap" >"$tmp/one.out" 2>"$tmp/one.err" &
    pid=$!
    sleep 1
    check_dropped "$pid" "-i tlfa -Z nobody"
    kill -INT "$pid"
    wait "$pid"
    rc=$?
    [ "$rc" = 0 ] && ok "-i: SIGINT ends the live run, exit 0" || bad "-i: exit $rc: $(cat "$tmp/one.err")"
    [ "$(stat -c %u:%g "$tmp/one.pcap" 2>/dev/null)" = 65534:65534 ] && ok "-i: the -w file belongs to nobody" ||
        bad "-i: -w file owner $(stat -c %u:%g "$tmp/one.pcap" 2>&1)"

    ip netns exec "$ns" "$bin" -q -Z nobody --ingress-if tlfa --egress-if tlfc -w "$tmp/two.pcap" \
        >"$tmp/two.out" 2>"$tmp/two.err" &
    pid=$!
    sleep 1
    check_dropped "$pid" "--ingress-if tlfa --egress-if tlfc -Z nobody"
    kill -INT "$pid"
    wait "$pid"
    rc=$?
    [ "$rc" = 0 ] && ok "two points: SIGINT ends the live run, exit 0" || bad "two points: exit $rc: $(cat "$tmp/two.err")"
    [ "$(stat -c %u:%g "$tmp/two.pcap" 2>/dev/null)" = 65534:65534 ] && ok "two points: the -w file belongs to nobody" ||
        bad "two points: -w file owner $(stat -c %u:%g "$tmp/two.pcap" 2>&1)"

    # 2. the interface goes away
    ip netns exec "$ns" "$bin" -i tlfa >"$tmp/gone.out" 2>"$tmp/gone.err" &
    pid=$!
    sleep 1
    ip -n "$ns" link del tlfa
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
        bad "interface deleted: still running after 5 s ($(wc -l < "$tmp/gone.err") lines on stderr)"
        kill -KILL "$pid"
        wait "$pid" 2>/dev/null
    else
        wait "$pid"
        rc=$?
        [ "$rc" = 2 ] && ok "interface deleted: the run ends, exit 2" || bad "interface deleted: exit $rc"
        n=$(grep -cE "tlfa: capture failed after [0-9]+ packets: .*; the capture ends here" "$tmp/gone.err")
        [ "$n" = 1 ] && ok "interface deleted: the error is said once: $(head -1 "$tmp/gone.err")" ||
            bad "interface deleted: $n matching lines, stderr: $(head -c 300 "$tmp/gone.err")"
        grep -q "Trace summary" "$tmp/gone.out" && ok "interface deleted: the final report is written" ||
            bad "interface deleted: no final report"
    fi
else
    echo "skip parts 1-2: need root, user nobody (65534:65534) and network namespaces"
fi

# ---- 3. one signal while a trace is read ----
complete_csvs() {   # every CSV under $1 ends with CRLF
    local f bad_one=0
    for f in "$1"/*.csv; do
        [ -f "$f" ] || continue
        [ "$(tail -c 2 "$f" | od -An -tx1 | tr -d ' \n')" = 0d0a ] || { bad "$f does not end with CRLF"; bad_one=1; }
    done
    return $bad_one
}
no_temps() {   # no temporary (.NAME.XXXXXX) left under $1
    local n
    n=$(find "$1" -name '.*' -type f 2>/dev/null | wc -l)
    [ "$n" = 0 ] || { bad "$2: $n temporaries left: $(find "$1" -name '.*' -type f | head -3)"; return 1; }
}
for sig in INT TERM; do
    want=$([ $sig = INT ] && echo 130 || echo 143)
    out="$tmp/sig$sig"
    "$bin" -q --replay=1 --csv "$out" "$sample" >"$tmp/sig.out" 2>"$tmp/sig.err" &
    pid=$!
    sleep 1
    kill -$sig "$pid"
    wait "$pid"
    rc=$?
    [ "$rc" = "$want" ] && ok "SIG$sig while reading: exit $rc" || bad "SIG$sig while reading: exit $rc, want $want"
    if grep -qE "interrupted by SIG$sig: reading stopped after packet [1-9][0-9]* of $sample; the report and the files cover the trace up to there only" "$tmp/sig.err"; then
        ok "SIG$sig: $(grep -o 'reading stopped after packet [0-9]*' "$tmp/sig.err")"
        k=$(grep -o 'after packet [0-9]*' "$tmp/sig.err" | awk '{print $3}')
        [ "$k" -lt 4136 ] || bad "SIG$sig: stopped after packet $k of 4136: not part way"
    else
        bad "SIG$sig: message: $(cat "$tmp/sig.err")"
    fi
    rows=$(($(wc -l < "$out/connections.csv" 2>/dev/null || echo 0) - 1))
    [ "$rows" -ge 1 ] && complete_csvs "$out" && no_temps "$out" "SIG$sig" &&
        ok "SIG$sig: the CSV files are complete ($rows connections), no temporary"
done

# ---- 4. a second signal: at once, nothing partial ----
out="$tmp/twice"
"$bin" -q --replay=1 --csv "$out" --plot "$out/plot" "$sample" >/dev/null 2>"$tmp/twice.err" &
pid=$!
sleep 1
kill -INT "$pid"
sleep 0.05
kill -INT "$pid" 2>/dev/null
wait "$pid"
rc=$?
[ "$rc" = 130 ] && ok "two SIGINTs: exit 130" || bad "two SIGINTs: exit $rc"
no_temps "$out" "two SIGINTs" && ok "two SIGINTs: no temporary left"
complete_csvs "$out"
for f in "$out"/plot/*.png; do
    [ -f "$f" ] || continue
    [ "$(tail -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 49454e44ae426082 ] || bad "$f is cut (no IEND at its end)"
done
ok "two SIGINTs: $(find "$out" -type f | wc -l) files under final names, each complete"
exit $fail
