#!/usr/bin/env bash
# fresh_clone.sh - a new user's first run: clone the repository (its committed HEAD) into an empty
# folder with nothing beside it (no ../shared, so no corpus) and run the README's two commands
# there: the quick start (scripts/quickstart.sh: the default optimized build with -Werror, then
# -l on the bundled sample) and the test command.  Both must pass, the corpus tests reported as
# skipped.
#   fresh_clone.sh BINARY CORPUS_DIR SOURCE_DIR     exit 0 pass, 1 fail, 77 skip
# TN_FRESH_CLONE=readme (default) runs `bash scripts/test.sh` (ASan+UBSan build, whole suite);
# TN_FRESH_CLONE=quick builds without sanitizers (for a quick local check);
# TN_FRESH_CLONE=off skips.  The inner run leaves this test out (TN_FRESH_CLONE_INNER), and the
# lab/live tests, which the outer run has and which would share the kernel's one tracefs and
# namespace names with it.
set -u
src=${3:?usage: fresh_clone.sh BINARY CORPUS_DIR SOURCE_DIR}
mode=${TN_FRESH_CLONE:-readme}

[ -z "${TN_FRESH_CLONE_INNER:-}" ] || { echo "SKIP: inside a fresh-clone run"; exit 77; }
[ "$mode" != off ] || { echo "SKIP: TN_FRESH_CLONE=off"; exit 77; }
command -v git >/dev/null || { echo "SKIP: git not installed"; exit 77; }
git -C "$src" rev-parse --verify -q HEAD >/dev/null || { echo "SKIP: $src is not a git checkout"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fresh_clone.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
git clone -q --no-hardlinks "$src" "$tmp/repo" || { echo "FAIL: git clone $src"; exit 1; }
[ ! -e "$tmp/shared" ] || { echo "FAIL: $tmp/shared exists"; exit 1; }
echo "cloned $(git -C "$tmp/repo" rev-parse --short HEAD) into $tmp/repo ($mode)"

export TN_FRESH_CLONE_INNER=1
unset TN_CORPUS
skip_inner='e2e_fresh_clone|e2e_lab_scenario|e2e_live_'
log=$tmp/inner.log
case $mode in
    readme)
        (cd "$tmp/repo" && bash scripts/test.sh -E "$skip_inner") >"$log" 2>&1 ;;
    quick)
        (cd "$tmp/repo" && cmake -S . -B build -DCMAKE_BUILD_TYPE=Debug -DTN_WERROR=ON >/dev/null &&
            cmake --build build -j"$(nproc)" >/dev/null &&
            cd build && ctest --output-on-failure -j2 -E "$skip_inner") >"$log" 2>&1 ;;
    *) echo "FAIL: TN_FRESH_CLONE=$mode (readme, quick or off)"; exit 1 ;;
esac
rc=$?
tail -25 "$log"
[ "$rc" = 0 ] || { echo "FAIL: the test command failed in the fresh clone (exit $rc)"; exit 1; }

# The first README command: optimization finds warnings (format truncation, maybe-uninitialized)
# that the Debug build of the test command does not, and -Werror makes them fatal.
if [ "$mode" = readme ]; then
    (cd "$tmp/repo" && bash scripts/quickstart.sh) >"$tmp/quick.log" 2>&1
    qrc=$?
    grep -q "^TCP connection 1:" "$tmp/quick.log" && [ "$qrc" = 0 ] ||
        { tail -25 "$tmp/quick.log"; echo "FAIL: the quick start failed in the fresh clone (exit $qrc)"; exit 1; }
    echo "ok: the README's quick start builds and analyzes the sample in the fresh clone"
fi

# The corpus tests are there and say they were skipped: CTest's SKIP for the scripts, and the
# unit runner's line for the corpus test cases.
fail=0
for t in e2e_corpus_walk e2e_corpus_vs_tshark; do
    grep -qE "$t \(Skipped\)" "$log" || { echo "FAIL: $t not reported as skipped"; fail=1; }
done
bdir=$tmp/repo/build-asan
[ "$mode" = quick ] && bdir=$tmp/repo/build
skip=$(cd "$bdir" && CK_RUN_SUITE=capture ASAN_OPTIONS=detect_leaks=0 ./tests/tn_check 2>&1 >/dev/null)
echo "$skip" | grep -q "SKIP test case capture-corpus: no corpus at" ||
    { echo "FAIL: unit_capture does not say that its corpus case is skipped: $skip"; fail=1; }
[ "$fail" = 0 ] && echo "ok: the README's test command passes on a fresh clone without ../shared"
exit "$fail"
