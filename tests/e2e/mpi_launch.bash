# mpi_launch.bash - sourced by the e2e scripts that run tcptrace-ng under an MPI launcher (not a
# test itself: ctest registers tests/e2e/*.sh only).  Needs $launcher (mpirun, or
# TN_MPIRUN=mpiexec.hydra) and $src (the source tree).  Sets:
#   mpi       the launcher command line: as root in CI, more ranks than cores on a small machine,
#             and the sanitizers' options given to every rank
#   envx      envx NAME=VALUE...: the launcher's words that give a variable to every rank
# Full stacks through Open MPI's libraries (built without frame pointers), for the suppressions.
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$src/tests/e2e/lsan-mpi.supp:print_suppressions=0:fast_unwind_on_malloc=0"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
if "$launcher" --version 2>&1 | grep -q HYDRA; then
    mpi=("$launcher" -genvlist LSAN_OPTIONS,ASAN_OPTIONS)   # MPICH: root and oversubscribing are fine
    envx() { for v; do printf '%s\n' -genv "${v%%=*}" "${v#*=}"; done; }
else
    mpi=("$launcher" --allow-run-as-root --oversubscribe -x LSAN_OPTIONS -x ASAN_OPTIONS)
    envx() { for v; do printf '%s\n' -x "$v"; done; }
fi
