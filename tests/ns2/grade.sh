#!/usr/bin/env bash
# grade.sh - the congestion-control flavours against ns-2 ground truth: every flavour of
# Agent/TCP/Linux (select_ca) over several bottlenecks, one flow and two competing flows; each
# run's trace read with --ns2, the flavour named compared with the one ns-2 ran, and the window
# estimate (cwnd_est_bytes) with ns-2's traced cwnd_ (trace-var), sampled at every estimate.
#   tests/ns2/grade.sh [BINARY] [WORKDIR]
# TN_NS2_SCENARIOS and TN_NS2_FLAVOURS choose the runs; TN_NS2_REUSE=1 reuses WORKDIR's traces.
# One line per sender: flavour run, scenario, flavour named, confidence, cwnd error median/p90.  Exits 77 (skip) when ns-2 is not installed.
set -u
bin=${1:-build/tcptrace-ng}
work=${2:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
command -v ns >/dev/null 2>&1 || { echo "ns-2 not installed: skipped"; exit 77; }
mkdir -p "$work"
# bottleneck Mbit/s, one-way delay ms, queue packets, seconds, flows.  The first four keep the
# former table comparable; the last three are where the flavours differ most from Reno: a long
# RTT (124 ms: Hybla's rho 5) with a buffer of 0.4 BDP (Westwood's and H-TCP's cut 0.7-0.75),
# windows of 190-290 segments (HighSpeed b(w) 0.38-0.41, BIC and Scalable above their low
# windows), and two flows over a buffer of 0.3 BDP.
scenarios=${TN_NS2_SCENARIOS:-"10,10,20,20,1 20,20,60,20,1 50,40,200,20,1 20,20,60,20,2 10,60,40,20,1 50,20,100,20,1 20,40,40,20,2"}
flavours=${TN_NS2_FLAVOURS:-"reno cubic bic highspeed scalable htcp vegas westwood hybla illinois"}
printf '%-10s %-16s %-10s %5s %15s\n' flavour scenario named conf "cwnd med/p90"
for ca in $flavours; do
    for sc in $scenarios; do
        IFS=, read -r bw owd q dur n <<<"$sc"
        out="$work/$ca-$bw-$owd-$q-$n"
        # ns-2 runs are deterministic: TN_NS2_REUSE=1 keeps the traces a run left in WORKDIR
        if [ -z "${TN_NS2_REUSE:-}" ] || [ ! -s "$out.tr" ] || [ ! -s "$out.cwnd" ]; then
            ns "$here/flavour.tcl" "$ca" "$bw" "$owd" "$q" "$dur" "$n" "$out" >/dev/null 2>&1 || { echo "$ca $sc: ns failed"; continue; }
        fi
        rm -rf "$out.csv"
        "$bin" -q --ns2 "$out.tr" --csv "$out.csv" -l >"$out.txt" 2>/dev/null || { echo "$ca $sc: tcptrace-ng failed"; continue; }
        # the long report's verdict per connection, in connection order
        awk '/^TCP connection [0-9]+:/ { c = $3; sub(":", "", c) }
             /a->b sender:/ { s = 1 } /b->a sender:/ { s = 0 }
             s && /congestion control:/ { v = $3; conf = $5; sub(/\)/, "", conf); print c, v, (conf == "" ? "-" : conf) }' "$out.txt" >"$out.verdicts"
        awk -v ca="$ca" -v sc="$sc" -v cf="$out.cwnd" -v conns="$out.csv/connections.csv" '
            BEGIN {
                FS = ","
                while ((getline l < conns) > 0) {
                    split(l, f, ","); if (f[1] == "conn") continue
                    split(f[3], ip, "."); node[f[1]] = ip[4]; seg[f[1]] = (f[12] > 0 ? f[14] / f[12] : 1448)
                }
                FS = " "
                while ((getline l < cf) > 0) {   # time src_node src_port dst_node dst_port cwnd_ value
                    split(l, f, " "); k = f[2]; nt[k]++; tt[k, nt[k]] = f[1] + 0; tv[k, nt[k]] = f[7] + 0
                }
                FS = ","
            }
            $2 == "a2b" && $3 == "cwnd_est_bytes" {
                c = $1; k = node[c]; t = $4 + 0
                while (pos[k] < nt[k] && tt[k, pos[k] + 1] <= t) pos[k]++
                if (pos[k] == 0) next
                truth = tv[k, pos[k]]; if (truth <= 0) next
                e = ($5 / seg[c] - truth) / truth; if (e < 0) e = -e
                ne[c]++; err[c, ne[c]] = e
            }
            END { for (c in ne) for (i = 1; i <= ne[c]; i++) print c, err[c, i] }' "$out.csv/series.csv" >"$out.err"
        while read -r c named conf; do
            q=$(awk -v c="$c" '$1 == c { print $2 }' "$out.err" | sort -g |
                awk '{ v[NR] = $1 } END { if (NR) printf "%.1f%%/%.1f%%", 100 * v[int(NR / 2) + 1], 100 * v[int(NR * 0.9) + 1]; else print "-" }')
            printf '%-10s %-16s %-10s %5s %15s\n' "$ca" "$sc" "$named" "$conf" "$q"
        done <"$out.verdicts"
    done
done
