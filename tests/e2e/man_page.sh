#!/usr/bin/env bash
# man_page.sh - every long option that --help lists is documented in docs/tcptrace-ng.1, and
# the page renders without groff warnings.   args: BINARY CORPUS_DIR SOURCE_DIR
set -u
bin=$1 src=$3
page="$src/docs/tcptrace-ng.1"
help=$("$bin" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
man=$(grep -oE '\\-\\-[a-z][a-z\\-]*' "$page" | sed 's/\\-/-/g' | sort -u)
missing=$(comm -23 <(printf '%s\n' "$help") <(printf '%s\n' "$man"))
if [ -n "$missing" ]; then
    echo "options in --help but not in the man page:"
    printf '  %s\n' $missing
    exit 1
fi
if command -v groff >/dev/null; then
    warn=$(groff -man -Tutf8 -ww "$page" 2>&1 >/dev/null)
    [ -z "$warn" ] || { echo "groff warnings: $warn"; exit 1; }
fi
echo "ok: $(printf '%s\n' "$help" | wc -l) options, all documented"
