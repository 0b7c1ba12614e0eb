#!/usr/bin/env bash
# samples/lab/summarize.sh [SAMPLE_DIR...] - one markdown table row per flow of each lab
# sample: configured vs measured RTT (ping, handshake), kernel retransmissions, RTO episodes,
# drops, goodput; used to write samples/README.md and docs/lab.md.
set -euo pipefail
[ $# -gt 0 ] || set -- "$(cd "$(dirname "$0")/.." && pwd)"/*/
echo "| sample | flow | proto/cc | RTT config (ms) | ping (ms) | handshake at sender (ms) | retransmits (kernel) | RTOs (Loss states) | qdisc drops / random-loss drops | goodput (Mbit/s) | retransmit - pcap offset (us, min/median/max) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for d in "$@"; do
    d=${d%/}
    [ -f "$d/manifest.txt" ] || continue
    m() { sed -n "s/^$1=//p" "$d/manifest.txt" | head -1; }
    nb=$(m bottlenecks)
    drops=
    for ((b = 1; b <= nb; b++)); do drops="$drops${drops:+, }$(m bn${b}_qdisc_drops) / $(m bn${b}_random_loss_drops)"; done
    al=$(awk -F= '/retransmit_offset_us_(min|median|max)/ { v = v (v == "" ? "" : " / ") $2 } END { print v }' "$d/alignment.txt")
    awk -F, -v s="${d##*/}" -v drops="$drops" -v al="$al" -v dir="$d" 'NR == 1 { next }
        { f = $1; proto = ($2 == "dfcp") ? "dfcp" : $2 "/" $3
          rex = ""; rto = ""
          if ($2 == "tcp") {
              rex = 0; cmd = "awk -F, -v f=" f " '\''NR > 1 && $2 == f && $8 == \"0\"'\'' " dir "/tcp_retransmit.csv | wc -l"; cmd | getline rex; close(cmd)
              cmd = "awk -F, -v f=" f " '\''NR > 1 && $2 == f && $8 == \"Loss\"'\'' " dir "/tcp_cong_state.csv | wc -l"; cmd | getline rto; close(cmd)
          }
          printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.2f | %s |\n", s, f, proto, $12, $13, $14, rex, rto, drops, $15 / 1e6, al }' "$d/flows.csv"
done
