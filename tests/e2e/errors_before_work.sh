#!/usr/bin/env bash
# errors_before_work.sh - what the options name is checked before the first packet: an output
# folder that cannot be written, a truth file that is not one, an input of the wrong kind and
# conflicting options are each told once, with nothing analyzed (no report on stdout).
#   errors_before_work.sh BINARY CORPUS_DIR SOURCE_DIR     exit 0 pass, 1 fail
set -u
bin=${1:?usage: errors_before_work.sh BINARY CORPUS_DIR SOURCE_DIR}
src=${3:?source dir}
s=$src/samples/loopback-iperf3.pcap
tmp=$(mktemp -d "${TMPDIR:-/tmp}/errors_before_work.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
# expect RC MESSAGE ARGS...: exit status RC, MESSAGE once on stderr, stdout empty
expect() {
    local rc=$1 msg=$2
    shift 2
    "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    local n
    n=$(grep -cF -- "$msg" "$tmp/err")
    if [ "$got" != "$rc" ] || [ "$n" != 1 ] || [ -s "$tmp/out" ]; then
        echo "FAIL: $*: exit $got (want $rc), '$msg' $n times, stdout $(wc -c <"$tmp/out") bytes"
        sed 's/^/  stderr: /' "$tmp/err" | head -5
        fail=1
    fi
}
touch "$tmp/file"
chmod 500 "$tmp" 2>/dev/null
expect 2 "--csv /proc/nope: cannot create the folder" --csv /proc/nope "$s"
expect 2 "--plot $tmp/file: not a folder" --plot "$tmp/file" "$s"
expect 2 "-w /nonexistent/x.pcap: cannot write there" -w /nonexistent/x.pcap "$s"
expect 2 "/etc/passwd" --truth /etc/passwd "$s"
expect 2 "not an ns-2 ASCII trace" --ns2 "$s"
expect 1 "--replay paces trace files; it does not apply to -i" -i lo --tui --replay "$s"
expect 1 "is not a BPF filter" "$s" tcp prot 80
chmod 700 "$tmp"
[ "$fail" = 0 ] && echo ok
exit "$fail"
