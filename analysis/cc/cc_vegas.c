/* cc_vegas.c - TCP Vegas (L. Brakmo, L. Peterson, "TCP Vegas: end to end congestion avoidance
 * on a global internet", IEEE JSAC 13(8), 1995; Linux net/ipv4/tcp_vegas.c): once a round,
 * the segments queued, diff = cwnd (rtt - baseRTT) / baseRTT with rtt the round's least
 * sample, steer the window: +1 below alpha = 2, -1 above beta = 4; slow start ends when diff
 * exceeds gamma = 1.  Losses are handled as Reno. */
#include <math.h>
#include <stdio.h>

#include "cc.h"

#define VEGAS_ALPHA 2.0
#define VEGAS_BETA 4.0
#define VEGAS_GAMMA 1.0

struct vegas {
    bool doing_vegas_now;
    unsigned round;            /* the driver's round of the last adjustment */
    unsigned cnt_rtt;          /* RTT samples in this round */
    double min_rtt, base_rtt;  /* this round's least sample; the least ever (ms) */
};

static void vegas_enable(struct vegas *ca)
{
    ca->doing_vegas_now = true;
    ca->cnt_rtt = 0;
    ca->min_rtt = INFINITY;
}

static void vegas_init(struct tn_cc_sock *sk)
{
    struct vegas *ca = TN_CC_PRIV(sk, struct vegas);
    ca->base_rtt = INFINITY;
    vegas_enable(ca);
}

static void vegas_pkts_acked(struct tn_cc_sock *sk)
{
    struct vegas *ca = TN_CC_PRIV(sk, struct vegas);
    if (sk->rtt_ms <= 0)
        return;
    double vrtt = sk->rtt_ms + 0.001;   /* never zero */
    ca->base_rtt = tn_fmin(ca->base_rtt, vrtt);
    ca->min_rtt = tn_fmin(ca->min_rtt, vrtt);
    ca->cnt_rtt++;
}

static void vegas_set_state(struct tn_cc_sock *sk, enum tn_ca_state st)
{
    struct vegas *ca = TN_CC_PRIV(sk, struct vegas);
    if (st == TN_CA_OPEN)
        vegas_enable(ca);
    else
        ca->doing_vegas_now = false;
}

static void vegas_cwnd_event(struct tn_cc_sock *sk, enum tn_ca_event ev)
{
    if (ev == TN_CA_EVENT_CWND_RESTART || ev == TN_CA_EVENT_TX_START)
        vegas_init(sk);
}

static void vegas_cong_avoid(struct tn_cc_sock *sk, double acked)
{
    struct vegas *ca = TN_CC_PRIV(sk, struct vegas);
    if (!ca->doing_vegas_now) {
        tn_cc_reno_cong_avoid(sk, acked);
        return;
    }
    if (ca->round == sk->round) {   /* within the round: normal slow start */
        if (tn_cc_in_slow_start(sk))
            tn_cc_slow_start(sk, acked);
        return;
    }
    ca->round = sk->round;
    if (ca->cnt_rtt <= 2) {   /* too few samples to trust: Reno */
        tn_cc_reno_cong_avoid(sk, acked);
    } else {
        double rtt = ca->min_rtt;
        double target = floor(sk->cwnd * ca->base_rtt / rtt);
        double diff = floor(sk->cwnd * (rtt - ca->base_rtt) / ca->base_rtt);
        if (diff > VEGAS_GAMMA && tn_cc_in_slow_start(sk)) {
            sk->cwnd = tn_fmin(sk->cwnd, target + 1);
            sk->ssthresh = tn_fmin(sk->ssthresh, sk->cwnd - 1);   /* tcp_vegas_ssthresh */
            snprintf(sk->ss_exit_why, sizeof sk->ss_exit_why, "Vegas: %.0f segments queued > gamma %.0f",
                     diff, VEGAS_GAMMA);
            sk->ss_exit_now = true;
        } else if (tn_cc_in_slow_start(sk)) {
            tn_cc_slow_start(sk, acked);
        } else if (diff > VEGAS_BETA) {
            sk->cwnd -= 1;
            sk->ssthresh = tn_fmin(sk->ssthresh, sk->cwnd - 1);
        } else if (diff < VEGAS_ALPHA) {
            sk->cwnd += 1;
        }
        if (sk->cwnd < 2)
            sk->cwnd = 2;
        /* tcp_current_ssthresh (Open): max(ssthresh, 3/4 cwnd) */
        sk->ssthresh = tn_fmax(sk->ssthresh, floor(sk->cwnd * 3 / 4));
    }
    ca->cnt_rtt = 0;
    ca->min_rtt = INFINITY;
}

const struct tn_cc_ops tn_cc_vegas_ops = {
    .name = "vegas",
    .kind = "delay-based",
    .priv_size = sizeof(struct vegas),
    .init = vegas_init,
    .ssthresh = tn_cc_reno_ssthresh,
    .cong_avoid = vegas_cong_avoid,
    .set_state = vegas_set_state,
    .undo_cwnd = tn_cc_reno_undo_cwnd,
    .cwnd_event = vegas_cwnd_event,
    .pkts_acked = vegas_pkts_acked,
    .fall_max = 1,   /* tcp_vegas_cong_avoid: snd_cwnd - 1 once a round while diff > beta */
    .signature = "holds 2-4 segments in the bottleneck queue: the window stops growing as the RTT rises above its base, without losses",
};
