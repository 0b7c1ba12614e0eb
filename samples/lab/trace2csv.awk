# samples/lab/trace2csv.awk - convert a tracefs "trace" file (tcp_probe, tcp_cong_state_set,
# tcp_retransmit_skb; trace_clock tai) into the lab's ground-truth CSVs (docs/lab.md).
# Variables: tai_off (CLOCK_TAI - CLOCK_REALTIME, seconds; subtracted so times are Unix epoch
# like the pcap), flowmap ("sport:dport=flow ..."), out (output directory).
# Portable awk (Debian's default is mawk: no strtonum).

function hex2dec(s,    v, i, c) {
    s = tolower(s)
    sub(/^0x/, "", s)
    v = 0
    for (i = 1; i <= length(s); i++) {
        c = index("0123456789abcdef", substr(s, i, 1))
        if (c == 0) return -1
        v = v * 16 + c - 1
    }
    return v
}

# "1796043932.581404:" -> epoch seconds string; integer offset applied to the seconds part
function epoch(ts,    a, n, sec, frac) {
    sub(/:$/, "", ts)
    n = split(ts, a, ".")
    sec = a[1] - toff_int
    frac = (n > 1) ? a[2] : "0"
    if (toff_frac != 0) return sprintf("%.6f", sec + ("0." frac) - toff_frac)
    return sec "." frac
}

function kv(    i, p) {
    delete F
    for (i = evf + 1; i <= NF; i++) {
        p = index($i, "=")
        if (p > 0) F[substr($i, 1, p - 1)] = substr($i, p + 1)
    }
}

function flowof(sp, dp) {
    return ((sp ":" dp) in FLOW) ? FLOW[sp ":" dp] : ""
}

function addr(s, which,    p) {   # "10.1.1.2:40001" -> address or port
    p = match(s, /:[0-9]+$/)
    if (!p) return s
    return which == "addr" ? substr(s, 1, p - 1) : substr(s, p + 1)
}

BEGIN {
    toff_int = int(tai_off + (tai_off < 0 ? -0.5 : 0.5))
    toff_frac = tai_off - toff_int
    if (toff_frac < 1e-4 && toff_frac > -1e-4) toff_frac = 0
    n = split(flowmap, m, " ")
    for (i = 1; i <= n; i++) { split(m[i], kvp, "="); FLOW[kvp[1]] = kvp[2] }
    fp = out "/tcp_probe.csv"; fc = out "/tcp_cong_state.csv"; fr = out "/tcp_retransmit.csv"
    print "time_s,flow,saddr,sport,daddr,dport,data_len,snd_nxt,snd_una,snd_cwnd,ssthresh,snd_wnd,srtt_us,rcv_wnd" > fp
    print "time_s,flow,saddr,sport,daddr,dport,cong_state,cong_state_name" > fc
    print "time_s,flow,saddr,sport,daddr,dport,state,err" > fr
    split("Open Disorder CWR Recovery Loss", CS, " ")
    lost = 0
}

/^#/ { next }
/LOST/ { lost++ ; next }

{
    evf = 0
    for (i = 2; i <= NF; i++)
        if ($i == "tcp_probe:" || $i == "tcp_cong_state_set:" || $i == "tcp_retransmit_skb:") { evf = i; break }
    if (!evf) next
    t = epoch($(evf - 1))
    kv()
    if ($evf == "tcp_probe:") {
        sa = addr(F["src"], "addr"); sp = addr(F["src"], "port")
        da = addr(F["dest"], "addr"); dp = addr(F["dest"], "port")
        printf "%s,%s,%s,%s,%s,%s,%s,%.0f,%.0f,%s,%s,%s,%s,%s\n", t, flowof(sp, dp), sa, sp, da, dp,
            F["data_len"], hex2dec(F["snd_nxt"]), hex2dec(F["snd_una"]), F["snd_cwnd"], F["ssthresh"],
            F["snd_wnd"], F["srtt"], F["rcv_wnd"] > fp
    } else if ($evf == "tcp_cong_state_set:") {
        s = F["cong_state"] + 0
        printf "%s,%s,%s,%s,%s,%s,%d,%s\n", t, flowof(F["sport"], F["dport"]), F["saddr"], F["sport"],
            F["daddr"], F["dport"], s, (s + 1 in CS) ? CS[s + 1] : "unknown" > fc
    } else {
        printf "%s,%s,%s,%s,%s,%s,%s,%s\n", t, flowof(F["sport"], F["dport"]), F["saddr"], F["sport"],
            F["daddr"], F["dport"], F["state"], (("err" in F) ? F["err"] : "0") > fr
    }
}

END {
    if (lost) printf "trace2csv: %d LOST EVENTS lines: raise buffer_size_kb\n", lost > "/dev/stderr"
}
