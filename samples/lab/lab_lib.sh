# samples/lab/lab_lib.sh - functions of the lab runner (sourced by samples/lab/run).
# Everything created here is named after the run id, so two runs never collide, and is
# removed by lab_cleanup on exit, error or interrupt.
# shellcheck shell=bash

LAB_RID="tnl$$"
LAB_NS=() LAB_HOSTS=() LAB_PIDS=() LAB_CAP_PIDS=() LAB_DL_PIDS=() LAB_BACKLOG_PIDS=()
LAB_TRACE_INST=
LAB_LOSS_DROPS=() LAB_DL_NAMES=() LAB_DL_DELAY=() LAB_TAI_OFFSET=
LAB_TRACEFS=/sys/kernel/tracing
LAB_DONE=0

lab_calc() { awk "BEGIN { printf \"%.6g\", $1 }"; }

lab_nsname() { echo "$LAB_RID-$1"; }

lab_in() {
    local ns=$1
    shift
    ip netns exec "$(lab_nsname "$ns")" "$@"
}

# Locate (or build) the C tools: $TN_LAB_BIN, a CMake build dir, or a private cc build.
lab_find_tools() {
    local src=$TN_LAB_DIR d
    for d in "${TN_LAB_BIN:-}" "$src/../../build-lab/samples/lab" "$src/../../build/samples/lab"; do
        if [ -n "$d" ] && [ -x "$d/dfcp-send" ] && [ -x "$d/dfcp-recv" ] && [ -x "$d/tn-delayline" ] &&
            [ -x "$d/tn-taioffset" ] && [ -z "$(find "$src" -name '*.[ch]' -newer "$d/tn-delayline" -print -quit)" ]; then
            TN_LAB_BIN=$(cd "$d" && pwd)
            break
        fi
        d=
    done
    if [ -z "$d" ]; then
        TN_LAB_BIN="${TMPDIR:-/tmp}/tn-lab-bin.$(id -u)"
        mkdir -p "$TN_LAB_BIN"
        local t s
        for t in dfcp-send dfcp-recv tn-delayline tn-taioffset; do
            s="$src/${t//-/_}.c"
            if [ ! -x "$TN_LAB_BIN/$t" ] || [ "$s" -nt "$TN_LAB_BIN/$t" ] || [ "$src/dfcp_lab.h" -nt "$TN_LAB_BIN/$t" ]; then
                cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -o "$TN_LAB_BIN/$t" "$s" -lm ||
                    { echo "run: cannot build $t" >&2; exit 1; }
            fi
        done
    fi
    TN_DFCP_SEND=$TN_LAB_BIN/dfcp-send
    TN_DFCP_RECV=$TN_LAB_BIN/dfcp-recv
    TN_DELAYLINE=$TN_LAB_BIN/tn-delayline
    TN_TAIOFFSET=$TN_LAB_BIN/tn-taioffset
}

lab_cleanup() {
    local p n
    trap - EXIT INT TERM
    for p in "${LAB_BACKLOG_PIDS[@]}" "${LAB_PIDS[@]}" "${LAB_CAP_PIDS[@]}" "${LAB_DL_PIDS[@]}"; do
        kill "$p" 2>/dev/null || true
    done
    if [ -n "$LAB_TRACE_INST" ] && [ -d "$LAB_TRACE_INST" ]; then
        echo 0 >"$LAB_TRACE_INST/tracing_on" 2>/dev/null || true
        echo 0 >"$LAB_TRACE_INST/events/enable" 2>/dev/null || true
        rmdir "$LAB_TRACE_INST" 2>/dev/null || true
    fi
    for n in "${LAB_NS[@]}"; do
        # processes still inside our namespaces are ours (started by this run)
        for p in $(ip netns pids "$(lab_nsname "$n")" 2>/dev/null); do kill "$p" 2>/dev/null || true; done
    done
    sleep 0.2
    for n in "${LAB_NS[@]}"; do
        for p in $(ip netns pids "$(lab_nsname "$n")" 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done
        ip netns del "$(lab_nsname "$n")" 2>/dev/null || true
    done
    [ "$LAB_DONE" = 1 ] || echo "run: interrupted or failed; namespaces removed" >&2
}

lab_setup_cleanup() {
    trap lab_cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

# lab_ns NAME host|router|delay
lab_ns() {
    local n
    n=$(lab_nsname "$1")
    ip netns add "$n"
    LAB_NS+=("$1")
    [ "$2" = host ] && LAB_HOSTS+=("$1")
    ip -n "$n" link set lo up
    # no IPv6 (no router solicitations or MLD in the captures), no stray traffic at all
    ip netns exec "$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
    if [ "$2" = router ]; then
        ip netns exec "$n" sysctl -qw net.ipv4.ip_forward=1
    fi
}

lab_sysctl() { lab_in "$1" sysctl -qw "$2"; }

lab_route() {
    local ns=$1
    shift
    ip -n "$(lab_nsname "$ns")" route add "$@"
}

lab_offloads_off() {
    # no TSO/GSO/GRO (one capture record per wire packet) and no TX checksum offload
    # (the delay line re-sends frames through AF_PACKET, so checksums must be complete)
    ip netns exec "$(lab_nsname "$1")" ethtool -K "$2" tso off gso off gro off tx off rx off >/dev/null 2>&1 || true
    # TCP always builds software-GSO skbs (sk_route_caps gets NETIF_F_GSO whatever the device
    # says), so one skb (one tcp_retransmit_skb event) could still carry several segments;
    # gso_max_segs 1 makes every TCP skb a single segment: one event per wire segment.
    ip -n "$(lab_nsname "$1")" link set dev "$2" gso_max_segs 1 2>/dev/null || true
}

# lab_link NS1 IF1 ADDR1 NS2 IF2 ADDR2: a veth pair between two namespaces.
lab_link() {
    local a b
    a=$(lab_nsname "$1")
    b=$(lab_nsname "$4")
    ip -n "$a" link add name "$2" type veth peer name "$5" netns "$b"
    lab_offloads_off "$1" "$2"
    lab_offloads_off "$4" "$5"
    [ -z "$3" ] || ip -n "$a" addr add "$3" dev "$2"
    [ -z "$6" ] || ip -n "$b" addr add "$6" dev "$5"
    ip -n "$a" link set dev "$2" up
    ip -n "$b" link set dev "$5" up
}

# lab_dlink NS1 IF1 ADDR1 NS2 IF2 ADDR2 DELAY_MS NAME: a link with a delay line in the middle,
# in its own namespace NAME: NS1:IF1 -- NAME:a [tn-delayline] NAME:b -- NS2:IF2. Both
# directions get DELAY_MS; the frames are bridged unchanged (L2), so NS1 and NS2 share a subnet.
lab_dlink() {
    local dl=$8
    lab_ns "$dl" delay
    lab_link "$1" "$2" "$3" "$dl" dla ""
    lab_link "$dl" dlb "" "$4" "$5" "$6"
    ip netns exec "$(lab_nsname "$dl")" "$TN_DELAYLINE" -a dla -b dlb -d "$7" -s "$SEED" -o "$OUT/delayline_$dl.txt" \
        2>"$OUT/.delayline_$dl.log" &
    LAB_DL_PIDS+=($!)
    LAB_DL_NAMES+=("$dl")
    LAB_DL_DELAY+=("$7")
}

lab_rate_bps() {
    echo "$1" | awk '{ s = tolower($0); v = s + 0; u = s; sub(/^[0-9.]+/, "", u);
        m = 1; if (u == "kbit") m = 1e3; else if (u == "mbit") m = 1e6; else if (u == "gbit") m = 1e9;
        else if (u == "kbps") m = 8e3; else if (u == "mbps") m = 8e6; else if (u == "bps") m = 8;
        printf "%.0f\n", v * m }'
}

# lab_limit_qdisc LIMIT -> "pfifo limit N" or "bfifo limit N"
lab_limit_qdisc() {
    case "$1" in
    *p) echo "pfifo limit ${1%p}" ;;
    *b) echo "bfifo limit ${1%b}" ;;
    *) echo "run: bad --limit $1 (Np or Nb)" >&2; exit 2 ;;
    esac
}

# lab_bottleneck NODE DEV RATE LIMIT LOSS FAIR "FLOWS"
lab_bottleneck() {
    local node=$1 dev=$2 rate=$3 limit=$4 loss=$5 fair=$6 flows=$7 n ns q f nfl bps
    ns=$(lab_nsname "$node")
    q=$(lab_limit_qdisc "$limit")
    if [ "$fair" = 1 ]; then
        # HTB: one class per flow, equal rate (guarantee) and quantum, ceil = link rate,
        # so idle share is lent equally; each leaf a drop-tail FIFO of the given limit.
        nfl=$(echo "$flows" | wc -w)
        bps=$(lab_rate_bps "$rate")
        tc -n "$ns" qdisc add dev "$dev" root handle 1: htb default 99
        tc -n "$ns" class add dev "$dev" parent 1: classid 1:1 htb rate "$bps"bit ceil "$bps"bit burst 3028 cburst 3028
        for f in $flows; do
            tc -n "$ns" class add dev "$dev" parent 1:1 classid "1:$((10 + f))" htb rate "$((bps / nfl))"bit \
                ceil "$bps"bit burst 3028 cburst 3028 quantum 1514
            # shellcheck disable=SC2086
            tc -n "$ns" qdisc add dev "$dev" parent "1:$((10 + f))" handle "$((10 + f)):" $q
            tc -n "$ns" filter add dev "$dev" parent 1: protocol ip prio 1 u32 \
                match ip dport "${F_DPORT[f - 1]}" 0xffff flowid "1:$((10 + f))"
        done
        # everything else (ARP, ICMP): a small class of its own
        tc -n "$ns" class add dev "$dev" parent 1:1 classid 1:99 htb rate 100kbit ceil "$bps"bit quantum 1514
        tc -n "$ns" qdisc add dev "$dev" parent 1:99 handle 99: pfifo limit 100
    else
        # TBF: the rate; its child: the drop-tail queue (packets or bytes)
        tc -n "$ns" qdisc add dev "$dev" root handle 1: tbf rate "$rate" burst 3028 latency 10s
        # shellcheck disable=SC2086
        tc -n "$ns" qdisc add dev "$dev" parent 1:1 handle 10: $q
    fi
    if [ "$(awk "BEGIN{print ($loss > 0)}")" = 1 ]; then
        # random loss on the data direction only, before the queue (iptables statistic)
        ip netns exec "$ns" iptables -A FORWARD -o "$dev" -m statistic --mode random \
            --probability "$loss" -j DROP
    fi
}

# lab_capture_start NODE DEV FILE SNAPLEN: tcpdump, nanosecond timestamps, waits until ready.
lab_capture_start() {
    local log
    log="$(dirname "$3")/.$(basename "$3").log"
    ip netns exec "$(lab_nsname "$1")" tcpdump -i "$2" -s "$4" -n -U --immediate-mode -B 8192 --time-stamp-precision=nano -Z root -w "$3" 2>"$log" &
    LAB_CAP_PIDS+=($!)
    for _ in $(seq 1 50); do
        grep -q "listening on" "$log" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "run: tcpdump on $1:$2 did not start: $(cat "$log")" >&2
    exit 1
}

lab_capture_stop() {
    local p
    sleep 0.5 # let the last packets reach the capture buffers
    for p in "${LAB_CAP_PIDS[@]}"; do kill -INT "$p" 2>/dev/null || true; done
    for p in "${LAB_CAP_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    LAB_CAP_PIDS=()
}

# lab_trace_start "SPORT:DPORT ...": a private tracefs instance with the tai clock, the three
# TCP events filtered to the sockets with one of these local:remote port pairs (the sender side).
lab_trace_start() {
    local ports=$1 filt= p e
    [ -n "$ports" ] || return 0
    if [ ! -d "$LAB_TRACEFS/instances" ]; then
        mount -t tracefs nodev "$LAB_TRACEFS" 2>/dev/null || true
    fi
    [ -d "$LAB_TRACEFS/instances" ] || { echo "run: tracefs not available at $LAB_TRACEFS" >&2; exit 1; }
    LAB_TRACE_INST="$LAB_TRACEFS/instances/$LAB_RID"
    mkdir "$LAB_TRACE_INST"
    echo 0 >"$LAB_TRACE_INST/tracing_on"
    echo tai >"$LAB_TRACE_INST/trace_clock"
    echo 16384 >"$LAB_TRACE_INST/buffer_size_kb"
    for p in $ports; do filt="${filt:+$filt || }(sport == ${p%%:*} && dport == ${p##*:})"; done
    for e in tcp_probe tcp_cong_state_set tcp_retransmit_skb; do
        echo "$filt" >"$LAB_TRACE_INST/events/tcp/$e/filter"
        echo 1 >"$LAB_TRACE_INST/events/tcp/$e/enable"
    done
    : >"$LAB_TRACE_INST/trace"
    echo 1 >"$LAB_TRACE_INST/tracing_on"
}

lab_trace_stop() {
    local out=$1 off spread
    [ -n "$LAB_TRACE_INST" ] || return 0
    echo 0 >"$LAB_TRACE_INST/tracing_on"
    read -r off spread < <("$TN_TAIOFFSET")
    LAB_TAI_OFFSET=$off
    cat "$LAB_TRACE_INST/trace" >"$out/.trace_raw.txt"
    echo 0 >"$LAB_TRACE_INST/events/enable"
    rmdir "$LAB_TRACE_INST" 2>/dev/null || true
    LAB_TRACE_INST=
    local map= i
    for ((i = 0; i < NFLOWS; i++)); do map="$map ${F_SPORT[i]}:${F_DPORT[i]}=$((i + 1))"; done
    awk -v tai_off="$off" -v flowmap="$map" -v out="$out" -f "$TN_LAB_DIR/trace2csv.awk" "$out/.trace_raw.txt"
    rm -f "$out/.trace_raw.txt"
}

# lab_backlog_start NODE DEV MS FILE: sample the qdisc backlog of DEV every MS milliseconds.
lab_backlog_start() {
    local ns dev=$2 file=$4 iv
    ns=$(lab_nsname "$1")
    iv=$(lab_calc "$3 / 1000")
    (
        echo "time_s,node,dev,qdisc,handle,backlog_bytes,backlog_pkts,dropped"
        while :; do
            t=$EPOCHREALTIME
            tc -n "$ns" -s qdisc show dev "$dev" 2>/dev/null | awk -v t="$t" -v node="$1" -v dev="$dev" '
                $1 == "qdisc" { kind = $2; h = $3 }
                $1 == "Sent" { d = $7; sub(/,/, "", d) }
                $1 == "backlog" { b = $2; p = $3; sub(/b$/, "", b); sub(/p$/, "", p)
                    if (b ~ /K$/) { sub(/K$/, "", b); b *= 1000 } else if (b ~ /M$/) { sub(/M$/, "", b); b *= 1000000 }
                    printf "%s,%s,%s,%s,%s,%s,%s,%s\n", t, node, dev, kind, h, b, p, d }'
            sleep "$iv"
        done
    ) >"$file" &
    LAB_BACKLOG_PIDS+=($!)
}

lab_backlog_stop() {
    local p
    for p in "${LAB_BACKLOG_PIDS[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
    LAB_BACKLOG_PIDS=()
}

# lab_qdisc_stats NODE DEV OUT: tc -s qdisc at the end (raw and CSV) + the random-loss counter.
lab_qdisc_stats() {
    local ns raw
    ns=$(lab_nsname "$1")
    raw="$3/qdisc_$1_$2.txt"
    tc -n "$ns" -s qdisc show dev "$2" >"$raw"
    ip netns exec "$ns" iptables -L FORWARD -v -x -n >>"$raw"
    [ -f "$3/qdisc.csv" ] || echo "node,dev,qdisc,handle,parent,sent_bytes,sent_pkts,dropped,overlimits,requeues,backlog_bytes,backlog_pkts" >"$3/qdisc.csv"
    awk -v node="$1" -v dev="$2" '
        $1 == "qdisc" { kind = $2; h = $3; par = ($4 == "root") ? "root" : $5 }
        $1 == "Sent" { sb = $2; sp = $4; d = $7; sub(/,/, "", d); o = $9; r = $11; sub(/\)/, "", r) }
        $1 == "backlog" { b = $2; p = $3; sub(/b$/, "", b); sub(/p$/, "", p)
            printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", node, dev, kind, h, par, sb, sp, d, o, r, b, p }' \
        "$raw" >>"$3/qdisc.csv"
    local lossdrops
    lossdrops=$(ip netns exec "$ns" iptables -L FORWARD -v -x -n | awk '/statistic/ { s += $1 } END { print s + 0 }')
    LAB_LOSS_DROPS+=("$1:$2=$lossdrops")
}

lab_dl_stop() {
    local p
    for p in "${LAB_DL_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${LAB_DL_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    LAB_DL_PIDS=()
    rm -f "$OUT"/.delayline_*.log
}

# Handshake RTT at the sender capture: last SYN before the first SYN-ACK (TCP), or last DFCP
# SYN before the first SYNACK (UDP payload type nibble 1 / 2). Prints milliseconds.
lab_handshake_rtt() {
    local pcap=$1 proto=$2 sport=$3 dport=$4
    if [ "$proto" = dfcp ]; then
        tshark -r "$pcap" -Y "udp.port == $sport && udp.port == $dport" -T fields \
            -e frame.time_epoch -e udp.srcport -e udp.payload 2>/dev/null |
            awk -v s="$sport" '{ t = substr($3, 9, 2) }
                $2 == s && t == "11" { syn = $1 }
                $2 != s && t == "12" && syn != "" && !done { printf "%.3f\n", ($1 - syn) * 1000; done = 1 }' || true
    else
        tshark -r "$pcap" -Y "tcp.port == $sport && tcp.port == $dport && tcp.flags.syn == 1" -T fields \
            -e frame.time_epoch -e tcp.srcport -e tcp.flags.ack 2>/dev/null |
            awk -v s="$sport" '$2 == s && $3 == "0" { syn = $1 }
                $2 != s && $3 == "1" && syn != "" && !done { printf "%.3f\n", ($1 - syn) * 1000; done = 1 }' || true
    fi
}

lab_sender_pcap() {
    # the sender capture of flow $1 (1-based)
    local c
    for ((c = 0; c < ${#CAP_NODE[@]}; c++)); do
        if [ "${CAP_POINT[c]}" = sender ] && [ "${CAP_NODE[c]}" = "${F_SND[$1 - 1]}" ] && [ -n "${CAP_FILE[c]}" ]; then
            echo "$OUT/${CAP_FILE[c]}"
            return
        fi
    done
}

lab_write_flows_and_manifest() {
    local i f j proto gp bytes rx sent hs ping pcap cc rtt_cfg
    {
        echo "flow,proto,cc,src_node,src_addr,sport,dst_node,dst_addr,dport,start_offset_s,oneway_delay_ms,rtt_config_ms,ping_rtt_ms,handshake_rtt_ms,goodput_bps,bytes_received,retransmits"
        for ((i = 0; i < NFLOWS; i++)); do
            f=$((i + 1)) proto=${FLOW_PROTO[i]}
            # mean of the echo replies after the first (the first one also waits for ARP)
            ping=$(awk '/icmp_seq=/ && !/icmp_seq=1 / { for (k = 1; k <= NF; k++) if ($k ~ /^time=/) { sub(/time=/, "", $k); s += $k; n++ } }
                END { if (n) printf "%.3f", s / n }' "$OUT/ping_flow$f.txt")
            pcap=$(lab_sender_pcap "$f")
            hs=
            [ -z "$pcap" ] || hs=$(lab_handshake_rtt "$pcap" "$proto" "${F_SPORT[i]}" "${F_DPORT[i]}")
            rtt_cfg=$(lab_calc "2 * ${F_OWD[i]}")
            if [ "$proto" = dfcp ]; then
                cc= gp=$(sed -n 's/^goodput_bps=//p' "$OUT/dfcp_recv_flow$f.txt")
                rx=$(awk -F, 'NR > 1 && $9 == "decoded" { s += $2 } END { printf "%.0f", s }' "$OUT/dfcp_recv_flow$f.csv")
                sent=
                proto_col=dfcp
            else
                cc=$proto proto_col=tcp
                gp=$(jq -r '.end.sum_received.bits_per_second // empty | floor' "$OUT/iperf3_flow$f.json" 2>/dev/null || true)
                rx=$(jq -r '.end.sum_received.bytes // empty' "$OUT/iperf3_flow$f.json" 2>/dev/null || true)
                sent=$(jq -r '.end.sum_sent.retransmits // empty' "$OUT/iperf3_flow$f.json" 2>/dev/null || true)
            fi
            echo "$f,$proto_col,$cc,${F_SND[i]},${F_SADDR[i]},${F_SPORT[i]},${F_RCV[i]},${F_DADDR[i]},${F_DPORT[i]},${FLOW_START[i]},${F_OWD[i]},$rtt_cfg,$ping,$hs,$gp,$rx,$sent"
        done
    } >"$OUT/flows.csv"

    {
        echo "# tcptrace-ng lab manifest: key=value, one per line (docs/lab.md)"
        echo "scenario=$SCENARIO"
        echo "label=$LABEL"
        echo "created_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "kernel=$(uname -r)"
        echo "command=samples/lab/run $SCENARIO ${LAB_ARGS:-}"
        echo "duration_s=$DURATION"
        echo "snaplen=$SNAPLEN"
        echo "sack=$SACK"
        echo "fair=$FAIR"
        echo "trace_clock=tai"
        echo "tai_offset_s=${LAB_TAI_OFFSET:-}"
        echo "time_base=unix_epoch_realtime"
        echo "bottlenecks=${#BN_NODE[@]}"
        for ((j = 0; j < ${#BN_NODE[@]}; j++)); do
            local b=bn$((j + 1)) ld
            echo "${b}_node=${BN_NODE[j]}"
            echo "${b}_dev=${BN_DEV[j]}"
            echo "${b}_rate=${BN_RATE[j]}"
            echo "${b}_rate_bps=$(lab_rate_bps "${BN_RATE[j]}")"
            echo "${b}_limit=${BN_LIMIT[j]}"
            echo "${b}_oneway_delay_ms=${BN_DELAY[j]}"
            echo "${b}_loss=${BN_LOSS[j]}"
            echo "${b}_sched=$([ "$FAIR" = 1 ] && echo htb || echo tbf)"
            echo "${b}_flows=${BN_FLOWS[j]}"
            ld=$(printf '%s\n' "${LAB_LOSS_DROPS[@]}" | sed -n "s/^${BN_NODE[j]}:${BN_DEV[j]}=//p")
            echo "${b}_random_loss_drops=$ld"
            echo "${b}_qdisc_drops=$(awk -F, -v n="${BN_NODE[j]}" -v d="${BN_DEV[j]}" '$1 == n && $2 == d && $3 != "htb" && $3 != "tbf" { s += $8 } END { print s + 0 }' "$OUT/qdisc.csv")"
        done
        for ((j = 0; j < ${#LAB_DL_NAMES[@]}; j++)); do
            echo "delayline_${LAB_DL_NAMES[j]}_oneway_delay_ms=${LAB_DL_DELAY[j]}"
        done
        echo "flows=$NFLOWS"
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; next }
            { for (i = 2; i <= NF; i++) printf "flow%s_%s=%s\n", $1, h[i], $i }' "$OUT/flows.csv"
    } >"$OUT/manifest.txt"
}

# Pair tcp_retransmit_skb events with the retransmitted segments of the sender capture:
# a segment is a retransmission when its sequence range starts below the highest sequence
# number already sent in that direction (SYN counts 1). Writes tcp_retransmit_pairs.csv.
lab_pair_retransmits() {
    local out=$1 i f pcap
    [ -f "$out/tcp_retransmit.csv" ] || return 0
    echo "flow,event_time_s,pcap_time_s,offset_us,seq_rel,len" >"$out/tcp_retransmit_pairs.csv"
    for ((i = 0; i < NFLOWS; i++)); do
        f=$((i + 1))
        [ "${FLOW_PROTO[i]}" != dfcp ] || continue
        pcap=$(lab_sender_pcap "$f")
        [ -n "$pcap" ] || continue
        tshark -r "$pcap" -Y "tcp.srcport == ${F_SPORT[i]} && tcp.dstport == ${F_DPORT[i]} && (tcp.len > 0 || tcp.flags.syn == 1 || tcp.flags.fin == 1)" \
            -T fields -e frame.time_epoch -e tcp.seq -e tcp.len -e tcp.flags.syn -e tcp.flags.fin 2>/dev/null |
            awk '{ end = $2 + $3 + $4 + $5; if (seen && $2 < maxend) print $1, $2, $3; if (!seen || end > maxend) maxend = end; seen = 1 }' \
                >"$out/.rx_$f.txt"
        awk -F, -v f="$f" 'NR > 1 && $2 == f && $8 == "0" { print $1 }' "$out/tcp_retransmit.csv" >"$out/.ev_$f.txt"
        paste -d' ' "$out/.ev_$f.txt" "$out/.rx_$f.txt" |
            awk -v f="$f" '{ off = ($2 != "") ? sprintf("%.1f", ($1 - $2) * 1e6) : ""; print f "," $1 "," $2 "," off "," $3 "," $4 }' \
                >>"$out/tcp_retransmit_pairs.csv"
        rm -f "$out/.rx_$f.txt" "$out/.ev_$f.txt"
    done
}

# alignment.txt: pcap and truth time ranges, and the offsets of the paired retransmissions.
lab_check_alignment() {
    local out=$1 pf pl tf tl
    read -r pf pl < <(for c in "$out"/*.pcap; do tshark -r "$c" -T fields -e frame.time_epoch 2>/dev/null | sed -n '1p;$p'; done |
        sort -n | sed -n '1p;$p' | tr '\n' ' ') || true
    read -r tf tl < <(cat "$out"/tcp_probe.csv "$out"/dfcp_*_flow*.csv 2>/dev/null | awk -F, '
        FNR == 1 || $1 == "block" || $1 == "time_s" { next }
        { for (i = 1; i <= NF; i++) if ($i ~ /^1[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][.][0-9]+$/) { if (lo == "" || $i < lo) lo = $i; if ($i > hi) hi = $i } }
        END { print lo, hi }') || true
    {
        echo "pcap_first_s=$pf"
        echo "pcap_last_s=$pl"
        echo "truth_first_s=$tf"
        echo "truth_last_s=$tl"
        awk -v a="$pf" -v b="$pl" -v c="$tf" -v d="$tl" 'BEGIN { print "ranges_overlap=" ((c != "" && c <= b && d >= a) ? "yes" : "no") }'
        if [ -f "$out/tcp_retransmit_pairs.csv" ]; then
            awk -F, 'NR > 1 { n++; if ($4 != "") { p++; v[p] = $4 + 0 } }
                END { printf "retransmit_events=%d\nretransmit_paired=%d\n", n, p
                    if (p) { for (i = 1; i <= p; i++) for (j = i + 1; j <= p; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
                        printf "retransmit_offset_us_min=%.1f\nretransmit_offset_us_median=%.1f\nretransmit_offset_us_max=%.1f\n", v[1], v[int((p + 1) / 2)], v[p] } }' \
                "$out/tcp_retransmit_pairs.csv"
        fi
    } >"$out/alignment.txt"
    LAB_DONE=1
}
