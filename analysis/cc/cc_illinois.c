/* cc_illinois.c - TCP-Illinois (S. Liu, T. Basar, R. Srikant, "TCP-Illinois: a loss and
 * delay-based congestion control algorithm for high-speed networks", VALUETOOLS 2006; Linux
 * net/ipv4/tcp_illinois.c): the increase alpha (0.3-10 segments a round trip) falls and the
 * decrease beta (1/8-1/2) rises with the average queueing delay of the last round against the
 * largest seen; below 15 segments (win_thresh) it is Reno. */
#include <math.h>

#include "cc.h"

#define ALPHA_MIN 0.3
#define ALPHA_MAX 10.0
#define BETA_MIN 0.125
#define BETA_MAX 0.5
#define WIN_THRESH 15.0
#define THETA 5                /* rounds of low delay before alpha goes back to its maximum */

struct illinois {
    double alpha, beta;
    double base_rtt, max_rtt, sum_rtt;
    unsigned cnt_rtt, rtt_low;
    bool rtt_above;
    unsigned round;            /* the driver's round this state was last updated in */
    double acked;
};

static void rtt_reset(struct illinois *ca)
{
    ca->cnt_rtt = 0;
    ca->sum_rtt = 0;
}

static void illinois_init(struct tn_cc_sock *sk)
{
    struct illinois *ca = TN_CC_PRIV(sk, struct illinois);
    ca->alpha = ALPHA_MAX;
    ca->beta = BETA_MAX;
    ca->base_rtt = INFINITY;
    ca->acked = 1;
}

static double alpha_of(struct illinois *ca, double da, double dm)
{
    double d1 = dm / 100;   /* low threshold */
    if (da <= d1) {
        if (!ca->rtt_above)
            return ALPHA_MAX;
        if (++ca->rtt_low < THETA)
            return ca->alpha;
        ca->rtt_low = 0;
        ca->rtt_above = false;
        return ALPHA_MAX;
    }
    ca->rtt_above = true;
    dm -= d1;
    da -= d1;
    return (dm * ALPHA_MAX) / (dm + (da * (ALPHA_MAX - ALPHA_MIN)) / ALPHA_MIN);
}

static double beta_of(double da, double dm)
{
    double d2 = dm / 10, d3 = 8 * dm / 10;
    if (da <= d2)
        return BETA_MIN;
    if (da >= d3 || d3 <= d2)
        return BETA_MAX;
    return (BETA_MIN * d3 - BETA_MAX * d2 + (BETA_MAX - BETA_MIN) * da) / (d3 - d2);
}

/* update_params, once a round */
static void update_params(struct tn_cc_sock *sk, struct illinois *ca)
{
    if (sk->cwnd < WIN_THRESH) {
        ca->alpha = 1;   /* ALPHA_BASE */
        ca->beta = BETA_MAX;
    } else if (ca->cnt_rtt > 0) {
        double dm = ca->max_rtt - ca->base_rtt, da = ca->sum_rtt / ca->cnt_rtt - ca->base_rtt;
        ca->alpha = alpha_of(ca, da, dm);
        ca->beta = beta_of(da, dm);
    }
    rtt_reset(ca);
}

static void illinois_pkts_acked(struct tn_cc_sock *sk)
{
    struct illinois *ca = TN_CC_PRIV(sk, struct illinois);
    ca->acked = sk->acked;
    if (sk->rtt_ms <= 0)
        return;
    ca->base_rtt = tn_fmin(ca->base_rtt, sk->rtt_ms);
    ca->max_rtt = tn_fmax(ca->max_rtt, sk->rtt_ms);
    ca->cnt_rtt++;
    ca->sum_rtt += sk->rtt_ms;
}

static void illinois_cong_avoid(struct tn_cc_sock *sk, double acked)
{
    struct illinois *ca = TN_CC_PRIV(sk, struct illinois);
    if (ca->round != sk->round) {   /* after(ack, end_seq) */
        ca->round = sk->round;
        update_params(sk, ca);
    }
    if (tn_cc_in_slow_start(sk)) {
        tn_cc_slow_start(sk, acked);
        return;
    }
    sk->cwnd_cnt += ca->acked;
    ca->acked = 1;
    double delta = floor(sk->cwnd_cnt * ca->alpha);   /* cwnd += alpha / cwnd */
    if (delta >= sk->cwnd) {
        sk->cwnd += floor(delta / sk->cwnd);
        sk->cwnd_cnt = 0;
    }
}

static double illinois_ssthresh(struct tn_cc_sock *sk)
{
    const struct illinois *ca = TN_CC_PRIV(sk, struct illinois);
    if (sk->linux_2_6_22)   /* 2.6.22 (ns-2): (cwnd * beta) >> BETA_SHIFT, the window TO beta */
        return tn_fmax(floor(sk->cwnd * ca->beta), 2);
    return tn_fmax(sk->cwnd - floor(sk->cwnd * ca->beta), 2);
}

static void illinois_set_state(struct tn_cc_sock *sk, enum tn_ca_state st)
{
    struct illinois *ca = TN_CC_PRIV(sk, struct illinois);
    if (st == TN_CA_LOSS) {
        ca->alpha = 1;
        ca->beta = BETA_MAX;
        ca->rtt_low = 0;
        ca->rtt_above = false;
        rtt_reset(ca);
    }
}

const struct tn_cc_ops tn_cc_illinois_ops = {
    .name = "illinois",
    .kind = "loss-based",
    .priv_size = sizeof(struct illinois),
    .init = illinois_init,
    .ssthresh = illinois_ssthresh,
    .cong_avoid = illinois_cong_avoid,
    .set_state = illinois_set_state,
    .undo_cwnd = tn_cc_reno_undo_cwnd,
    .pkts_acked = illinois_pkts_acked,
    /* tcp_illinois.c win_thresh: below it alpha = ALPHA_BASE (1) and beta = BETA_BASE (1/2) */
    .reno_below = WIN_THRESH - 1,
    .reno_why = "Reno below 15 segments, tcp_illinois.c win_thresh",
    .signature = "window to 0.5-0.875 x at a loss (less the lower the queueing delay); grows up to 10 segments a round trip while the delay is low, 0.3 when it is high",
};
