#!/usr/bin/env bash
# test.sh - install, build with AddressSanitizer + UBSan, run the whole test suite (CTest).
# The second README command; .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh build-asan -DTN_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
# detect_stack_use_after_return: a pointer kept to a packet after its read loop returned
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export CK_FORK=no
cd build-asan
ctest --output-on-failure -j2 "$@"
cd ..
# Every libFuzzer target for 30 s (docs/reliability.md; tests/fuzz/run.sh runs an hour each);
# once per CI run: not again in the fresh clone that e2e_fresh_clone tests with this script.
if [ -z "${TN_FRESH_CLONE_INNER:-}" ]; then
  bash tests/fuzz/run.sh --seconds "${TN_FUZZ_SECONDS:-30}"
fi
