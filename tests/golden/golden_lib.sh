# golden_lib.sh - sourced by run.sh and update.sh: read TESTLIST and produce one test's output.
# Needs $BIN (the tcptrace-ng binary) and $SRC (the repository's top); runs there, so that the
# input names in the output are the relative ones of TESTLIST.
GOLDEN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export TZ=UTC LC_ALL=C

# The test lines of TESTLIST: name input output options... (comments and blank lines dropped).
golden_lines()
{
    sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$GOLDEN_DIR/TESTLIST"
}

# golden_produce NAME OUTFILE: run test NAME and write what it compares into OUTFILE.
# Returns 2 when NAME is not in TESTLIST, else 0 (the program's exit status is in the output).
golden_produce()
{
    local want=$1 out=$2 name input what opts line
    line=$(golden_lines | awk -v n="$want" '$1 == n')
    [ -n "$line" ] || { echo "golden: no test $want in TESTLIST" >&2; return 2; }
    read -r name input what opts <<< "$line"
    local dir
    dir=$(mktemp -d)
    opts=${opts//@DIR@/$dir}
    # shellcheck disable=SC2086  # options are words
    (cd "$SRC" && "$BIN" $opts "$input") > "$dir/stdout" 2>&1
    local rc=$?
    if [ "$what" = stdout ]; then
        cp "$dir/stdout" "$out"
        echo "exit status $rc" >> "$out"
    elif [ -f "$dir/$what" ]; then
        cp "$dir/$what" "$out"
    else
        { echo "golden: $what was not written (exit status $rc)"; cat "$dir/stdout"; } > "$out"
    fi
    rm -rf "$dir"
    return 0
}
