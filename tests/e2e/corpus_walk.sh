#!/usr/bin/env bash
# corpus_walk.sh - run tcptrace-ng on EVERY file of the third-party corpus (2900+ files, many of
# them fuzzed, crafted, truncated or of unknown link types) and require, for each:
#   - exit status 0 (trace read) or 2 (not openable / not a trace), never a crash or a timeout;
#   - no sanitizer report ("runtime error", "AddressSanitizer", "LeakSanitizer") in stderr.
# Files that are not traces (the ns-2 .tr text traces, README.md) must get exit 2 and a message
# on stderr that names the file.
#
#   corpus_walk.sh BINARY CORPUS_DIR SOURCE_DIR     exit 0 pass, 1 fail, 77 skip
#
# The test build has ASan+UBSan; scripts/test.sh sets ASAN_OPTIONS/UBSAN_OPTIONS so a finding
# aborts.  Files run two at a time (xargs -P2), each with a 20 s timeout.
set -u

bin=${1:?usage: corpus_walk.sh BINARY CORPUS_DIR SOURCE_DIR}
corpus=${2:?corpus dir}
jobs=${TN_WALK_JOBS:-2}
per_file_timeout=${TN_WALK_TIMEOUT:-20}

if [ ! -d "$corpus" ] || [ ! -f "$corpus/MANIFEST.tsv" ]; then
    echo "SKIP: corpus not found at $corpus"
    exit 77
fi
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/corpus_walk.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# One worker per file: writes "rc<TAB>file" to stdout and keeps the stderr of bad runs.
cat >"$tmp/one.sh" <<'EOF'
#!/usr/bin/env bash
set -u
bin=$1 tmp=$2 to=$3 f=$4
id=$(printf '%s' "$f" | md5sum | cut -c1-16)
timeout -k 5 "$to" "$bin" -q "$f" >/dev/null 2>"$tmp/err.$id"
rc=$?
bad=
if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then bad="exit $rc"; fi
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then bad="timeout after ${to}s (exit $rc)"; fi
if grep -qE 'runtime error|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer' "$tmp/err.$id"; then
    bad="${bad:+$bad, }sanitizer report"
fi
if [ -n "$bad" ]; then
    { printf 'FAIL %s: %s\n' "$f" "$bad"; head -8 "$tmp/err.$id" | sed 's/^/    /'; } >"$tmp/fail.$id"
fi
rm -f "$tmp/err.$id"
printf '%s\t%s\n' "$rc" "$f"
EOF

start=$(date +%s)
find "$corpus" -type f ! -name MANIFEST.tsv ! -name README.md -print0 | sort -z |
    xargs -0 -r -n1 -P"$jobs" bash "$tmp/one.sh" "$bin" "$tmp" "$per_file_timeout" >"$tmp/results"
end=$(date +%s)

fail=0
files=$(wc -l <"$tmp/results")
n0=$(awk -F'\t' '$1 == 0' "$tmp/results" | wc -l)
n2=$(awk -F'\t' '$1 == 2' "$tmp/results" | wc -l)
nbad=$(find "$tmp" -name 'fail.*' | wc -l)
expected=$(find "$corpus" -type f ! -name MANIFEST.tsv ! -name README.md | wc -l)

echo "corpus_walk: $files files in $((end - start)) s: exit 0: $n0, exit 2: $n2, failures: $nbad"
if [ "$files" -ne "$expected" ]; then
    echo "FAIL: $expected files in the corpus but $files results"
    fail=1
fi
if [ "$nbad" -gt 0 ]; then
    find "$tmp" -name 'fail.*' -print0 | sort -z | xargs -0 cat
    fail=1
fi

# Non-trace inputs: exit 2 and a message naming the file.
nontrace=()
while IFS= read -r -d '' f; do nontrace+=("$f"); done < <(find "$corpus/ns2-traces" -type f -name '*.tr' -print0 2>/dev/null | sort -z)
nontrace+=("$corpus/README.md" "$corpus/MANIFEST.tsv")
for f in "${nontrace[@]}"; do
    "$bin" "$f" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 2 ]; then
        echo "FAIL non-trace $f: exit $rc, expected 2"
        fail=1
    elif ! grep -qF -- "$f" "$tmp/err"; then
        echo "FAIL non-trace $f: exit 2 but stderr does not name the file: $(head -c 200 "$tmp/err")"
        fail=1
    fi
done
echo "corpus_walk: ${#nontrace[@]} non-trace files checked for exit 2 with the file named"

if [ "$fail" -ne 0 ]; then
    echo "corpus_walk: FAILED"
    exit 1
fi
echo "corpus_walk: passed"
exit 0
