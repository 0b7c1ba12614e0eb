#!/usr/bin/env bash
# samples/lab/make_samples.sh - regenerate the committed lab samples (root required).
# usage: samples/lab/make_samples.sh [NAME...]   (default: all; existing folders are replaced)
# Each sample is one samples/lab/run invocation; samples/README.md lists what each shows.
set -euo pipefail
LAB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SAMPLES=$(cd "$LAB/.." && pwd)

# name | scenario and options
SPECS=(
"reno-smallq|single --flows reno --rate 10mbit --limit 5p --delay 10 --loss 0.005 --sack 0 --duration 4 --capture snd,rcv"
"cubic-loss1-owd10|single --flows cubic --rate 10mbit --limit 50p --delay 10 --loss 0.01 --duration 3 --capture snd,rcv"
"cubic-loss1-owd100|single --flows cubic --rate 10mbit --limit 100p --delay 100 --loss 0.01 --duration 5 --capture snd,rcv"
"dumbbell-cubic-rtt|dumbbell --flows cubic,cubic --rate 10mbit --limit 50p --delay 5 --access-delay 0,40 --duration 5 --capture snd,rcv"
"parkinglot-cubic|parkinglot --flows cubic,cubic,cubic --rate 10mbit --limit 50p --delay 5 --duration 4 --capture snd,rcv"
"dfcp-loss|single --flows dfcp --rate 10mbit --limit 50p --delay 10 --loss 0.02 --duration 3 --capture snd,rcv --dfcp-opts -r@9000000"
"dfcp-fail|single --flows dfcp --rate 10mbit --limit 50p --delay 10 --loss 0.05 --duration 3 --capture snd,rcv --dfcp-opts -r@9000000@-n@36"
"dfcp-cubic-fair|single --flows dfcp,cubic --fair --rate 10mbit --limit 30p --delay 10 --duration 3 --capture snd,rcv --dfcp-opts -r@6000000"
"cubic-queue-4points|single --flows cubic --rate 10mbit --limit 50p --delay 10 --duration 3 --capture snd,rin,rout,rcv --backlog-ms 10"
"cubic-owd5|single --flows cubic --rate 10mbit --limit 50p --delay 5 --duration 3 --capture snd,rcv --label owd=5ms"
"cubic-owd25|single --flows cubic --rate 10mbit --limit 50p --delay 25 --duration 3 --capture snd,rcv --label owd=25ms"
"cubic-owd50|single --flows cubic --rate 10mbit --limit 50p --delay 50 --duration 3 --capture snd,rcv --label owd=50ms"
"bbr-loss1-owd10|single --flows bbr --rate 5mbit --limit 50p --delay 10 --loss 0.01 --duration 12 --capture snd,rout,rcv"
"cubic-bdp-owd40|single --flows cubic --rate 50mbit --limit 100p --delay 40 --duration 3 --capture snd,rcv"
"cubic-pause-owd10|single --flows cubic --rate 10mbit --limit 50p --delay 10 --duration 8 --capture snd,rout,rcv --iperf-opts -l@256K@-b@3M"
"reno-loss1-owd25|single --flows reno --rate 10mbit --limit 50p --delay 25 --loss 0.01 --duration 5 --capture snd,rcv"
"dumbbell-reno-cubic|dumbbell --flows reno,cubic --rate 10mbit --limit 50p --delay 10 --duration 6 --capture snd,rcv"
"cubic-rate4m-owd20|single --flows cubic --rate 10mbit --limit 50p --delay 20 --duration 6 --capture snd,rcv --iperf-opts -b@4M"
"reno-nosack-owd30|single --flows reno --rate 10mbit --limit 40p --delay 30 --loss 0.005 --sack 0 --duration 6 --capture snd,rcv"
"parkinglot-mixed|parkinglot --flows reno,cubic,bbr --rate 10mbit --limit 50p --delay 5 --duration 8 --capture snd,rcv"
"dumbbell-cubic-oldrcv|dumbbell --flows cubic,cubic --rate 10mbit --limit 50p --delay 40 --duration 5 --capture snd,rcv --rcv-sysctl 2:net.ipv4.tcp_window_scaling=0 --rcv-sysctl 2:net.ipv4.tcp_timestamps=0"
)

# reno-smallq must show a timeout (a Loss state in tcp_cong_state.csv) and a queue-overflow
# drop; random loss makes that likely, not certain, so it is retried.
accept() {
    # the delay line is sound: the data connection's handshake within 10% of the configured
    # RTT (a loaded machine delays the delay line), and no packet lost by a capture; not a
    # parking lot's long flow (1), whose handshake crosses both queues the short flows fill
    local long=0
    case "$1" in parkinglot-*) long=1 ;; esac
    awk -F, -v long="$long" 'NR > 1 && $14 != "" && $1 != long { d = $14 - $12; if (d < 0) d = -d; if (d > 0.1 * $12) bad = 1 } END { exit bad }' "$2/flows.csv" || return 1
    awk -F, 'NR > 1 && $6 + 0 > 0 { bad = 1 } END { exit bad }' "$2/captures.csv" || return 1
    case "$1" in
    cubic-bdp-owd40)
        # one loss burst with 100+ holes open at once: 100+ retransmissions within one RTT
        awk -F, 'NR > 1 { t[++n] = $1 } END { for (i = 1; i + 99 <= n; i++) if (t[i + 99] - t[i] < 0.08) exit 0; exit 1 }' \
            "$2/tcp_retransmit.csv" ;;
    reno-smallq)
        grep -q ',Loss$' "$2/tcp_cong_state.csv" &&
            [ "$(sed -n 's/^bn1_qdisc_drops=//p' "$2/manifest.txt")" -gt 0 ] ;;
    dfcp-fail)
        [ "$(sed -n 's/^failed=//p' "$2/dfcp_recv_flow1.txt")" -gt 0 ] ;;
    dumbbell-cubic-oldrcv)
        # flow 2's receiver answered without window scale and time stamp options, flow 1's with them
        [ -z "$(tshark -r "$2/rcv2_eth0.pcap" -Y 'tcp.flags.syn == 1 && tcp.flags.ack == 1 && tcp.srcport == 5202' \
                  -T fields -e tcp.options.wscale.shift -e tcp.options.timestamp.tsval 2>/dev/null | tr -d '[:space:]')" ] &&
            [ -n "$(tshark -r "$2/rcv1_eth0.pcap" -Y 'tcp.flags.syn == 1 && tcp.flags.ack == 1 && tcp.srcport == 5201' \
                       -T fields -e tcp.options.wscale.shift 2>/dev/null | tr -d '[:space:]')" ] ;;
    *) return 0 ;;
    esac
}

WANT=" $* "
for spec in "${SPECS[@]}"; do
    name=${spec%%|*}
    args=${spec#*|}
    if [ "$WANT" != "  " ]; then
        case "$WANT" in *" $name "*) ;; *) continue ;; esac
    fi
    for try in 1 2 3 4 5 6 7 8; do
        rm -rf "$SAMPLES/$name"
        # "@" in an argument stands for a space (options passed through to dfcp-send; "_" is
        # in sysctl names)
        # shellcheck disable=SC2086
        set -- ${args}
        argv=()
        for a in "$@"; do argv+=("${a//@/ }"); done
        "$LAB/run" "${argv[@]}" -o "$SAMPLES/$name"
        if accept "$name" "$SAMPLES/$name"; then break; fi
        echo "make_samples: $name try $try did not show what it should, again" >&2
    done
done
du -sh "$SAMPLES"
