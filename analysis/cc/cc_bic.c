/* cc_bic.c - BIC TCP (L. Xu, K. Harfoush, I. Rhee, "Binary increase congestion control for
 * fast, long distance networks", INFOCOM 2004; Linux net/ipv4/tcp_bic.c): a binary search
 * towards the window of the last loss, at most 16 segments a round trip (max_increment), then a
 * slow probe beyond it; 0.8 x at a loss (beta 819/1024) above 14 segments (low_window). */
#include <math.h>

#include "cc.h"

#define BIC_BETA (819.0 / 1024.0)
#define BIC_B 4.0                  /* BICTCP_B: the search splits the distance by 4 */
#define BIC_MAX_INCREMENT 16.0
#define BIC_LOW_WINDOW 14.0
#define BIC_SMOOTH_PART 20.0
#define BIC_ACK_RATIO_SHIFT 4

struct bic {
    double cnt;                /* segments to acknowledge per one-segment increase */
    double last_max_cwnd, last_cwnd;
    int64_t last_time, epoch_start;
    double delayed_ack;        /* segments per ACK, << ACK_RATIO_SHIFT */
};

static void bic_init(struct tn_cc_sock *sk)
{
    TN_CC_PRIV(sk, struct bic)->delayed_ack = 2 << BIC_ACK_RATIO_SHIFT;
}

/* bictcp_update */
static void bic_update(struct tn_cc_sock *sk)
{
    struct bic *ca = TN_CC_PRIV(sk, struct bic);
    double cwnd = sk->cwnd;
    if (ca->last_cwnd == cwnd && sk->now_ns - ca->last_time <= 1000000000LL / 32)
        return;   /* at most once per 1/32 s at the same window */
    ca->last_cwnd = cwnd;
    ca->last_time = sk->now_ns;
    if (!ca->epoch_start)
        ca->epoch_start = sk->now_ns;
    if (cwnd <= BIC_LOW_WINDOW) {
        ca->cnt = cwnd;
        return;
    }
    if (cwnd < ca->last_max_cwnd) {   /* binary increase */
        double dist = floor((ca->last_max_cwnd - cwnd) / BIC_B);
        if (dist > BIC_MAX_INCREMENT)
            ca->cnt = floor(cwnd / BIC_MAX_INCREMENT);   /* linear */
        else if (dist <= 1)
            ca->cnt = floor(cwnd * BIC_SMOOTH_PART / BIC_B);
        else
            ca->cnt = floor(cwnd / dist);
    } else {   /* max probing */
        if (cwnd < ca->last_max_cwnd + BIC_B)
            ca->cnt = floor(cwnd * BIC_SMOOTH_PART / BIC_B);
        else if (cwnd < ca->last_max_cwnd + BIC_MAX_INCREMENT * (BIC_B - 1))
            ca->cnt = floor(cwnd * (BIC_B - 1) / (cwnd - ca->last_max_cwnd));
        else
            ca->cnt = floor(cwnd / BIC_MAX_INCREMENT);
    }
    if (ca->last_max_cwnd == 0 && ca->cnt > 20)
        ca->cnt = 20;   /* slow start or a link barely used */
    ca->cnt = floor(ca->cnt * (1 << BIC_ACK_RATIO_SHIFT) / ca->delayed_ack);
    if (ca->cnt == 0)
        ca->cnt = 1;
}

static void bic_cong_avoid(struct tn_cc_sock *sk, double acked)
{
    if (tn_cc_in_slow_start(sk)) {
        tn_cc_slow_start(sk, acked);
        return;
    }
    bic_update(sk);
    tn_cc_cong_avoid_ai(sk, TN_CC_PRIV(sk, struct bic)->cnt, acked);
}

static double bic_ssthresh(struct tn_cc_sock *sk)
{
    struct bic *ca = TN_CC_PRIV(sk, struct bic);
    ca->epoch_start = 0;
    if (sk->cwnd < ca->last_max_cwnd)   /* fast convergence */
        ca->last_max_cwnd = floor(sk->cwnd * (1 + BIC_BETA) / 2);
    else
        ca->last_max_cwnd = sk->cwnd;
    if (sk->cwnd <= BIC_LOW_WINDOW)
        return tn_fmax(floor(sk->cwnd / 2), 2);
    return tn_fmax(floor(sk->cwnd * BIC_BETA), 2);
}

static void bic_set_state(struct tn_cc_sock *sk, enum tn_ca_state st)
{
    if (st == TN_CA_LOSS) {   /* bictcp_reset */
        struct bic *ca = TN_CC_PRIV(sk, struct bic);
        *ca = (struct bic){.delayed_ack = 2 << BIC_ACK_RATIO_SHIFT};
    }
}

/* bictcp_acked: the segments per ACK, averaged (in Open only) */
static void bic_pkts_acked(struct tn_cc_sock *sk)
{
    struct bic *ca = TN_CC_PRIV(sk, struct bic);
    if (sk->state != TN_CA_OPEN)
        return;
    double ratio = ca->delayed_ack - floor(ca->delayed_ack / (1 << BIC_ACK_RATIO_SHIFT)) + sk->acked;
    double limit = 32 << BIC_ACK_RATIO_SHIFT;
    ca->delayed_ack = ratio < 1 ? 1 : ratio > limit ? limit : ratio;
}

const struct tn_cc_ops tn_cc_bic_ops = {
    .name = "bic",
    .kind = "loss-based",
    .priv_size = sizeof(struct bic),
    .init = bic_init,
    .ssthresh = bic_ssthresh,
    .cong_avoid = bic_cong_avoid,
    .set_state = bic_set_state,
    .undo_cwnd = tn_cc_reno_undo_cwnd,
    .pkts_acked = bic_pkts_acked,
    /* tcp_bic.c low_window: at or below it cnt = cwnd and ssthresh = cwnd / 2 */
    .reno_below = BIC_LOW_WINDOW,
    .reno_why = "Reno up to 14 segments, tcp_bic.c low_window",
    .signature = "window to 0.8 x at a loss, then a binary search back to the old maximum (at most 16 segments a round trip), a plateau there, and slow probing beyond",
};
