/* cc_core.c - what every flavour shares, as Linux net/ipv4/tcp_cong.c has it: slow start,
 * additive increase by one segment per window, Reno's halving and undo. */
#include <math.h>

#include "cc.h"

/* tcp_slow_start (RFC 5681 §3.1): one segment per segment acknowledged up to ssthresh;
 * returns the segments left over for congestion avoidance. */
double tn_cc_slow_start(struct tn_cc_sock *sk, double acked)
{
    if (sk->linux_2_6_22) {   /* 2.6.22 without ABC: one segment per ACK, not capped at ssthresh */
        sk->cwnd += 1;
        return 0;
    }
    double room = sk->ssthresh - sk->cwnd;
    double used = acked < room ? acked : room;
    sk->cwnd += used;
    return acked - used;
}

/* tcp_cong_avoid_ai: one segment per w segments acknowledged.  Linux 2.6.22 (ns-2.35's
 * modules) counted ACKs, not segments, and raised the window on the ACK after the count reached
 * w: "if (tp->snd_cwnd_cnt >= cnt) { snd_cwnd++; snd_cwnd_cnt = 0; } else snd_cwnd_cnt++;"
 * (tcp_reno_cong_avoid, bictcp_cong_avoid of BIC and CUBIC v2.1; Scalable's "> min(cwnd, 50)"
 * after the ++ is the same), so one segment per w + 1 ACKs. */
void tn_cc_cong_avoid_ai(struct tn_cc_sock *sk, double w, double acked)
{
    if (w < 1)
        w = 1;
    if (sk->linux_2_6_22) {
        if (sk->cwnd_cnt >= w) {
            sk->cwnd += 1;
            sk->cwnd_cnt = 0;
        } else {
            sk->cwnd_cnt += 1;
        }
        return;
    }
    if (sk->cwnd_cnt >= w) {   /* credits accumulated at a higher w: apply them gently */
        sk->cwnd_cnt = 0;
        sk->cwnd += 1;
    }
    sk->cwnd_cnt += acked;
    if (sk->cwnd_cnt >= w) {
        double delta = floor(sk->cwnd_cnt / w);
        sk->cwnd_cnt -= delta * w;
        sk->cwnd += delta;
    }
}

/* tcp_reno_cong_avoid (the caller checked tcp_is_cwnd_limited) */
void tn_cc_reno_cong_avoid(struct tn_cc_sock *sk, double acked)
{
    if (tn_cc_in_slow_start(sk)) {
        acked = tn_cc_slow_start(sk, acked);
        if (acked <= 0)
            return;
    }
    tn_cc_cong_avoid_ai(sk, sk->cwnd, acked);
}

/* tcp_reno_ssthresh: max(cwnd >> 1, 2) */
double tn_cc_reno_ssthresh(struct tn_cc_sock *sk)
{
    return tn_fmax(floor(sk->cwnd / 2), 2);
}

/* tcp_reno_undo_cwnd: max(cwnd, prior_cwnd) */
double tn_cc_reno_undo_cwnd(struct tn_cc_sock *sk)
{
    return tn_fmax(sk->cwnd, sk->prior_cwnd);
}
