#!/usr/bin/env bash
# report_file.sh - --report FILE: the text report goes to FILE, as every output file does
# (a temporary renamed at the end), and nothing to standard output.
#  - one process: `-l --timeline --report F` writes into F exactly what the same run without
#    --report writes on standard output, and nothing on standard output;
#  - a folder that cannot take the file: exit 2 before any work, the message names --report;
#  - a full filesystem (a 64 KiB tmpfs, root only): exit 2, "F: cannot write: No space left on
#    device; the file was not written", no F and no temporary left;
#  - under mpirun -np 2 (when this build has MPI): rank 0 writes F, the same bytes as one
#    process's standard output, and the launcher forwards nothing.
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
in=$src/samples/cubic-owd5/rcv1_eth0.pcap
[ -f "$in" ] || { echo "report_file: no sample $in; skip"; exit 77; }
tmp=$(mktemp -d)
mounted=0
cleanup() {
    [ "$mounted" = 1 ] && umount "$tmp/full" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

"$bin" -l --timeline "$in" >"$tmp/stdout.txt" 2>"$tmp/ref.err" || bad "reference run: $(cat "$tmp/ref.err")"
[ -s "$tmp/stdout.txt" ] || bad "reference report is empty"
"$bin" -l --timeline --report "$tmp/report.txt" "$in" >"$tmp/rest.txt" 2>"$tmp/run.err"
rc=$?
[ "$rc" = 0 ] && ok "exit 0" || bad "exit $rc: $(cat "$tmp/run.err")"
cmp -s "$tmp/stdout.txt" "$tmp/report.txt" && ok "the file holds the report ($(wc -c <"$tmp/report.txt") bytes)" ||
    bad "the file differs from standard output's report"
[ ! -s "$tmp/rest.txt" ] && ok "nothing on standard output" || bad "standard output got $(wc -c <"$tmp/rest.txt") bytes"
[ -z "$(find "$tmp" -maxdepth 1 -name '.*' -type f)" ] && ok "no temporary left" || bad "a temporary was left"

"$bin" -l --report "$tmp/no/such/dir/r.txt" "$in" >/dev/null 2>"$tmp/nodir.err"
rc=$?
[ "$rc" = 2 ] && grep -q -- "--report" "$tmp/nodir.err" && ok "unwritable folder: exit 2, told" ||
    bad "unwritable folder: exit $rc: $(cat "$tmp/nodir.err")"

mkdir "$tmp/full"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
    mounted=1
    head -c 60k /dev/zero >"$tmp/full/filler" 2>/dev/null
    "$bin" -l --timeline --report "$tmp/full/r.txt" "$in" >/dev/null 2>"$tmp/full.err"
    rc=$?
    [ "$rc" = 2 ] && ok "full disk: exit 2" || bad "full disk: exit $rc"
    grep -q "$tmp/full/r.txt: cannot write: No space left on device; the file was not written" "$tmp/full.err" &&
        ok "full disk: the message names the file and the reason" || bad "full disk: message: $(cat "$tmp/full.err")"
    [ ! -e "$tmp/full/r.txt" ] && [ -z "$(find "$tmp/full" -name '.*' -type f)" ] &&
        ok "full disk: no report and no temporary left" || bad "full disk: $(ls -a "$tmp/full")"
else
    echo "skip the full disk: needs root and tmpfs"
fi

launcher=${TN_MPIRUN:-mpirun}
if command -v "$launcher" >/dev/null; then
    . "$src/tests/e2e/mpi_launch.bash"   # mpi
    "${mpi[@]}" -np 2 "$bin" -l --timeline --report "$tmp/mpi.txt" "$in" >"$tmp/mpi.out" 2>"$tmp/mpi.err"
    rc=$?
    if grep -q "built without MPI" "$tmp/mpi.err"; then
        echo "skip mpirun: this build has no MPI"
    else
        [ "$rc" = 0 ] && ok "mpirun -np 2: exit 0" || bad "mpirun -np 2: exit $rc: $(cat "$tmp/mpi.err")"
        cmp -s "$tmp/stdout.txt" "$tmp/mpi.txt" && ok "mpirun -np 2: rank 0's file is one process's report" ||
            bad "mpirun -np 2: the file differs from one process's report"
        [ ! -s "$tmp/mpi.out" ] && ok "mpirun -np 2: the launcher forwarded nothing" ||
            bad "mpirun -np 2: $(wc -c <"$tmp/mpi.out") bytes through the launcher"
    fi
else
    echo "skip mpirun: not installed"
fi
exit $fail
