#!/usr/bin/env bash
# package_deb.sh - `cpack -G DEB` makes a .deb with the binary, the man page, the docs and the
# bash completion; unpacked into an empty root (dpkg -x) the binary runs and gives the same
# report as the build's; apt resolves its Depends (apt-get install --simulate); the completion
# completes options and their arguments.
#   package_deb.sh BINARY CORPUS_DIR SOURCE_DIR     exit 0 pass, 1 fail, 77 skip
set -u
bin=${1:?usage: package_deb.sh BINARY CORPUS_DIR SOURCE_DIR}
src=${3:?source dir}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
build=$(dirname "$bin")
for t in cpack dpkg-deb dpkg; do command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }; done
[ -f "$build/CPackConfig.cmake" ] || { echo "SKIP: no CPackConfig.cmake in $build"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/package_deb.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

(cd "$build" && cpack -G DEB -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log"; echo "FAIL: cpack"; exit 1; }
deb=$(ls "$tmp"/pkg/tcptrace-ng_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "FAIL: no .deb made"; exit 1; }
echo "made $(basename "$deb"): $(dpkg-deb -f "$deb" Depends)"
for f in ./usr/bin/tcptrace-ng ./usr/share/man/man1/tcptrace-ng.1 ./usr/share/doc/tcptrace-ng/README.md \
    ./usr/share/doc/tcptrace-ng/csv-contract.md ./usr/share/bash-completion/completions/tcptrace-ng; do
    dpkg-deb -c "$deb" | awk '{print $6}' | grep -qx "$f" || bad "$f not in the package"
done
dpkg-deb -f "$deb" Depends | grep -q libpcap || bad "Depends lacks libpcap: $(dpkg-deb -f "$deb" Depends)"

# unpacked into a fresh root, it runs
dpkg -x "$deb" "$tmp/root"
ib=$tmp/root/usr/bin/tcptrace-ng
v=$("$ib" --version)
[ "$v" = "$("$bin" --version)" ] && [[ $v == "tcptrace-ng "[0-9]* ]] || bad "--version: '$v'"
s=$src/samples/reno-smallq/snd1_eth0.pcap
cmp <("$ib" -l "$s") <("$bin" -l "$s") >/dev/null || bad "the installed binary's -l report differs"
if command -v man >/dev/null; then
    MANWIDTH=80 man -l "$tmp/root/usr/share/man/man1/tcptrace-ng.1" 2>/dev/null | grep -q "tcptrace's options" ||
        bad "the installed man page does not render"
fi
# apt can install it: every dependency resolves (simulation; needs root for apt's lock)
if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get install -s -qq "$deb" >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log"; bad "apt-get install -s $deb"; }
fi

# bash completion: options from --help, and option arguments
comp() {   # comp WORD... : what completing the last word gives
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tcptrace_ng; echo "${COMPREPLY[*]}"' \
        _ "$tmp/root/usr/share/bash-completion/completions/tcptrace-ng" "$ib" "$@"
}
[ "$(comp --tru)" = "--truth" ] || bad "completing --tru gives '$(comp --tru)'"
[ "$(comp --plot-format "")" = "png svg pdf" ] || bad "completing --plot-format gives '$(comp --plot-format "")'"
comp -i "" | grep -qw lo || bad "completing -i does not list lo"
[ "$fail" = 0 ] && echo ok
exit "$fail"
