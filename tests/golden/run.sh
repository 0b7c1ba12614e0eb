#!/bin/bash
# run.sh BIN SRC [NAME...] - golden-output tests: run each named test of TESTLIST (all when none
# is named) and compare with expected/NAME byte for byte.  Exit 0 when all are equal, 1 when one
# differs (the first lines of the difference are printed), 2 on a bad name.
BIN=$(cd "$(dirname "${1:?tcptrace-ng binary}")" && pwd)/$(basename "$1")
SRC=$(cd "${2:?repository top}" && pwd)
shift 2
. "$(dirname "$0")/golden_lib.sh"
names=("$@")
[ ${#names[@]} -gt 0 ] || mapfile -t names < <(golden_lines | awk '{print $1}')
fail=0
got=$(mktemp)
trap 'rm -f "$got"' EXIT
for n in "${names[@]}"; do
    golden_produce "$n" "$got" || exit 2
    if [ ! -f "$GOLDEN_DIR/expected/$n" ]; then
        echo "FAIL $n: no expected/$n (tests/golden/update.sh writes it)"
        fail=1
    elif ! cmp -s "$GOLDEN_DIR/expected/$n" "$got"; then
        echo "FAIL $n: output differs from expected/$n:"
        diff -u "$GOLDEN_DIR/expected/$n" "$got" | head -40
        fail=1
    else
        echo "ok   $n"
    fi
done
exit $fail
