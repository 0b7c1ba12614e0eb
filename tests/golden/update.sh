#!/bin/bash
# update.sh BIN [NAME...] - rewrite expected/NAME (every test of TESTLIST when none is named)
# from what BIN produces now.  Run it from the repository's top or anywhere inside the checkout.
# What it changes is the program's new behaviour: read the diff (git diff tests/golden) and
# commit it with the change that caused it, saying why the output moved (README.md).
BIN=$(cd "$(dirname "${1:?tcptrace-ng binary}")" && pwd)/$(basename "$1")
shift
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/golden_lib.sh"
names=("$@")
[ ${#names[@]} -gt 0 ] || mapfile -t names < <(golden_lines | awk '{print $1}')
mkdir -p "$GOLDEN_DIR/expected"
for n in "${names[@]}"; do
    golden_produce "$n" "$GOLDEN_DIR/expected/$n" || exit 2
done
echo "update.sh: wrote ${#names[@]} expected files; review them with: git diff --stat tests/golden"
