#!/usr/bin/env bash
# mpich.sh - only the MPI standard is used (docs/cluster.md): the program built against MPICH,
# beside the default build's Open MPI, passes tests/e2e/mpi_shards.sh under MPICH's launcher
# (Hydra's mpiexec.mpich): -np 1, 2, 3 byte-identical to one process, the views, an experiment,
# two capture points, an unreadable file ending the job.
# Optional: CTest (e2e_mpich) skips it unless TN_TEST_MPICH=1 is in the environment (it builds
# the program a second time, against MPICH); `bash tests/e2e/mpich.sh` runs it by hand.  Needs
# `apt-get install mpich libmpich-dev`; Open MPI stays the system's mpi alternative (its
# priority is the higher), and the build names MPICH's compiler wrapper (CMake's MPI_C_COMPILER).
# Args (CTest's): $1 binary, $2 corpus dir (both unused), $3 source dir.  The build goes to
# TN_MPICH_BUILD (default build-mpich in the source dir), a Debug build with -Werror.
# Exit 0 pass, 1 fail, 77 skip.
set -u
if [ $# -gt 0 ] && [ -z "${TN_TEST_MPICH:-}" ]; then
    echo "mpich: TN_TEST_MPICH=1 runs this check (a second build, against MPICH); skip"
    exit 77
fi
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${TN_MPICH_BUILD:-$src/build-mpich}
for c in mpicc.mpich mpiexec.mpich; do
    command -v $c >/dev/null || { echo "mpich: no $c (apt-get install mpich libmpich-dev); skip"; exit 77; }
done
mkdir -p "$build"
cmake -S "$src" -B "$build" -DTN_MPI=ON -DMPI_C_COMPILER="$(command -v mpicc.mpich)" -DCMAKE_BUILD_TYPE=Debug -DTN_WERROR=ON >"$build/mpich-cmake.log" 2>&1 ||
    { echo "FAIL: mpich: cmake: $(tail -5 "$build/mpich-cmake.log")"; exit 1; }
grep -q "MPI support: .*mpich" "$build/mpich-cmake.log" || { echo "FAIL: mpich: CMake did not take MPICH: $(grep 'MPI support' "$build/mpich-cmake.log")"; exit 1; }
cmake --build "$build" -j2 --target tcptrace-ng >"$build/mpich-build.log" 2>&1 ||
    { echo "FAIL: mpich: build: $(grep -m5 -E 'error|warning' "$build/mpich-build.log")"; exit 1; }
ldd "$build/tcptrace-ng" | grep -q libmpich || { echo "FAIL: mpich: the binary is not linked with libmpich"; exit 1; }
if ldd "$build/tcptrace-ng" | grep -q 'libmpi\.so'; then
    echo "FAIL: mpich: the binary also links Open MPI's libmpi"
    exit 1
fi
echo "mpich: $("$build/tcptrace-ng" --version 2>&1 | head -1) built with $(mpicc.mpich -v 2>&1 | grep -m1 -o 'mpich [^ ]*\|MPICH version [^ ]*')"
# the other MPI's launcher: every process a job of one would write every output; refused instead
if command -v mpirun.openmpi >/dev/null; then
    timeout 60 mpirun.openmpi --allow-run-as-root --oversubscribe -np 2 "$build/tcptrace-ng" -q \
        "$src/samples/loopback-iperf3.pcap" >"$build/mpich-mix.out" 2>&1
    rc=$?
    if [ $rc -eq 0 ] || ! grep -q "MPICH.*sees a job of one" "$build/mpich-mix.out"; then
        echo "FAIL: mpich: the MPICH binary under Open MPI's mpirun: exit $rc, $(head -3 "$build/mpich-mix.out")"
        exit 1
    fi
    echo "mpich: under Open MPI's mpirun: exit $rc, $(grep -m1 'sees a job' "$build/mpich-mix.out")"
fi
TN_MPIRUN=mpiexec.mpich bash "$src/tests/e2e/mpi_shards.sh" "$build/tcptrace-ng" "" "$src"
