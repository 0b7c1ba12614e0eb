#!/usr/bin/env bash
# mpi_order.sh - under mpirun the input files are put in time order once, by rank 0, and the
# order is broadcast (cluster/cluster_mpi.c, docs/cluster.md): a rank other than 0 opens only
# the files it reads, not every file of the job for its first time stamp.
#  - a sample cut into 4 pieces (editcap -c), given newest first, under -np 2 with each rank
#    traced by strace (open/openat, a count the kernel's system calls give, not our own):
#    rank 0 opens every piece; rank 1 never opens the two oldest pieces (rank 0's by the
#    partition: the pieces are of one size, docs/cluster.md) and opens the newest (it reads it);
#  - connections.csv and -l under -np 2 are those of one process on the whole sample, so the
#    order the ranks got is the time order.
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
launcher=${TN_MPIRUN:-mpirun}
command -v "$launcher" >/dev/null || { echo "mpi_order: no $launcher; skip"; exit 77; }
command -v editcap >/dev/null || { echo "mpi_order: no editcap; skip"; exit 77; }
command -v strace >/dev/null || { echo "mpi_order: no strace; skip"; exit 77; }
# strace needs ptrace, which some containers forbid
strace -o /dev/null true 2>/dev/null || { echo "mpi_order: strace cannot trace here; skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/e2e/mpi_launch.bash"   # mpi
fail=0

"${mpi[@]}" -np 2 "$bin" -q "$src/samples/loopback-iperf3.pcap" >"$tmp/probe" 2>&1
if grep -q "built without MPI" "$tmp/probe"; then
    echo "mpi_order: this build has no MPI; skip"
    exit 77
fi

f=$src/samples/loopback-iperf3-parallel.pcap
[ -f "$f" ] || { echo "mpi_order: no sample $f; skip"; exit 77; }
n=$(capinfos -c -M "$f" 2>/dev/null | sed -n 's/^Number of packets: *//p')
[ -n "$n" ] || { echo "mpi_order: capinfos cannot count $f; skip"; exit 77; }
mkdir -p "$tmp/p"
editcap -c $(((n + 3) / 4)) "$f" "$tmp/p/piece.pcap" || exit 1
mapfile -t pieces < <(ls "$tmp/p"/piece*.pcap)   # editcap names them in time order
[ ${#pieces[@]} -eq 4 ] || { echo "FAIL: editcap made ${#pieces[@]} pieces, not 4"; exit 1; }
newest_first=("${pieces[3]}" "${pieces[2]}" "${pieces[1]}" "${pieces[0]}")

"$bin" -l --csv "$tmp/one" "$f" >"$tmp/one.txt" 2>"$tmp/one.err" || { echo "FAIL: one process: $(cat "$tmp/one.err")"; exit 1; }
# each rank under its own strace, its log named by its rank (Open MPI's or MPICH's variable);
# LeakSanitizer cannot run under ptrace (it stops the process with "does not work under
# ptrace"), so the traced run has no leak check: mpi_shards.sh runs the same paths with it
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
"${mpi[@]}" -np 2 bash -c 'r=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-x}}; exec strace -f -qq -e trace=open,openat -o "$0.$r" "$@"' \
    "$tmp/opens" "$bin" -l --csv "$tmp/np2" "${newest_first[@]}" >"$tmp/np2.txt" 2>"$tmp/np2.err" ||
    { echo "FAIL: -np 2 exit $?: $(tail -3 "$tmp/np2.err")"; exit 1; }
for r in 0 1; do
    [ -s "$tmp/opens.$r" ] || { echo "FAIL: no strace log of rank $r"; exit 1; }
done

opens() {   # rank, file: how many times the rank opened the file (successfully)
    grep -F "\"$2\"" "$tmp/opens.$1" | grep -c ') = [0-9]'
}
for i in 0 1 2 3; do
    [ "$(opens 0 "${pieces[$i]}")" -ge 1 ] || { echo "FAIL: rank 0 never opened piece $i (it orders every file)"; fail=1; }
done
for i in 0 1; do
    c=$(opens 1 "${pieces[$i]}")
    [ "$c" -eq 0 ] || { echo "FAIL: rank 1 opened rank 0's piece $i $c times (each rank ordering every file?)"; fail=1; }
done
[ "$(opens 1 "${pieces[3]}")" -ge 1 ] || { echo "FAIL: rank 1 never opened the newest piece, which it reads"; fail=1; }

cmp -s "$tmp/one.txt" "$tmp/np2.txt" || { echo "FAIL: -np 2 -l differs: $(diff "$tmp/one.txt" "$tmp/np2.txt" | head -5)"; fail=1; }
cmp -s "$tmp/one/connections.csv" "$tmp/np2/connections.csv" ||
    { echo "FAIL: -np 2 connections.csv differs: $(diff "$tmp/one/connections.csv" "$tmp/np2/connections.csv" | head -5)"; fail=1; }
[ $fail -eq 0 ] && echo "mpi_order: 4 pieces newest first, -np 2: rank 0 opened all, rank 1 only its own" \
    "($(for i in 0 1 2 3; do printf '%s ' "$(opens 1 "${pieces[$i]}")"; done)opens of pieces 0-3); -l and connections.csv = one process"
exit $fail
