/* cc_htcp.c - H-TCP (D. Leith, R. Shorten, "H-TCP: TCP for high-speed and long-distance
 * networks", PFLDnet 2004; Linux net/ipv4/tcp_htcp.c): the increase grows with the time since
 * the last congestion event (past 1 s: 1 + 10 d + (d/2)^2 with d in seconds), scaled by the
 * RTT; the decrease is minRTT / maxRTT, within [0.5, 0.8] (BETA_MIN 64, BETA_MAX 102 of 128),
 * and 0.5 when the throughput changed by more than 20% (bandwidth switch). */
#include <math.h>

#include "cc.h"

#define HTCP_BETA_MIN (64.0 / 128)
#define HTCP_BETA_MAX (102.0 / 128)

struct htcp {
    double alpha;              /* segments per round trip, << 7 as in Linux */
    double beta;
    bool modeswitch;
    double pkts_acked;
    double min_rtt_ms, max_rtt_ms;
    int64_t last_cong;         /* the end of the last congestion event (0: the start) */
    bool undo_last_cong;       /* a congestion event began: its end restarts last_cong */
    /* achieved throughput: segments per second over about a window (bandwidth switch) */
    double packetcount, minB, maxB, old_maxB, Bi;
    int64_t lasttime;
};

/* Linux htcp_init sets last_cong at the connection's start: here its first ACK */
static void start_clock(const struct tn_cc_sock *sk, struct htcp *ca)
{
    if (!ca->last_cong)
        ca->last_cong = sk->now_ns;
}

static double cong_time_s(const struct tn_cc_sock *sk, const struct htcp *ca)
{
    return (double)(sk->now_ns - ca->last_cong) / 1e9;
}

static void htcp_init(struct tn_cc_sock *sk)
{
    struct htcp *ca = TN_CC_PRIV(sk, struct htcp);
    ca->alpha = 128;   /* ALPHA_BASE: one segment a round trip */
    ca->beta = HTCP_BETA_MIN;
    ca->pkts_acked = 1;
}

/* Linux htcp_alpha_update (alpha = 2 factor (1 - beta), use_rtt_scaling), in its integer
 * arithmetic (jiffies of HTCP_HZ per second): factor = 1 + (10 diff + (diff/2)^2 / HZ) / HZ
 * with diff the time beyond 1 s since the last congestion event, then scaled by minRTT / 100 ms
 * (the scale clamped to [0.5, 10] in eighths) and never below 1: a whole number, so that alpha
 * is 2 (1 - beta) segments a round trip, Reno's pace with beta 1/2, in the first second and
 * for short RTTs (a continuous factor / scale gave 0.45 segments a round trip at 45 ms); HZ
 * only rounds (factor steps every 0.1 s, scale is 800 / minRTT in ms) */
#define HTCP_HZ 1000.0

static void htcp_alpha_update(struct tn_cc_sock *sk, struct htcp *ca)
{
    double diff = floor(cong_time_s(sk, ca) * HTCP_HZ), factor = 1;
    if (diff > HTCP_HZ) {
        diff -= HTCP_HZ;
        factor = 1 + floor((10 * diff + floor(floor(diff / 2) * floor(diff / 2) / HTCP_HZ)) / HTCP_HZ);
    }
    double min_rtt = floor(ca->min_rtt_ms * HTCP_HZ / 1000);   /* jiffies */
    if (min_rtt > 0) {
        double scale = tn_fmin(tn_fmax(floor(HTCP_HZ * 8 / (10 * min_rtt)), 4), 80);
        factor = floor(factor * 8 / scale);
        if (factor < 1)
            factor = 1;
    }
    ca->alpha = 2 * factor * (128 - ca->beta * 128);
    if (ca->alpha <= 0)
        ca->alpha = 128;
}

static void htcp_beta_update(struct htcp *ca)
{
    double maxB = ca->maxB, old = ca->old_maxB;
    ca->old_maxB = ca->maxB;
    if (!(5 * maxB >= 4 * old && 5 * maxB <= 6 * old)) {   /* more than 20% change */
        ca->beta = HTCP_BETA_MIN;
        ca->modeswitch = false;
        return;
    }
    if (ca->modeswitch && ca->min_rtt_ms > 10 && ca->max_rtt_ms > 0)
        ca->beta = tn_fmin(tn_fmax(floor(ca->min_rtt_ms / ca->max_rtt_ms * 128) / 128, HTCP_BETA_MIN), HTCP_BETA_MAX);
    else {
        ca->beta = HTCP_BETA_MIN;
        ca->modeswitch = true;
    }
}

static double htcp_ssthresh(struct tn_cc_sock *sk)
{
    struct htcp *ca = TN_CC_PRIV(sk, struct htcp);
    htcp_beta_update(ca);
    htcp_alpha_update(sk, ca);
    if (ca->min_rtt_ms > 0 && ca->max_rtt_ms > ca->min_rtt_ms)   /* fading memory of maxRTT */
        ca->max_rtt_ms = ca->min_rtt_ms + (ca->max_rtt_ms - ca->min_rtt_ms) * 0.95;
    return tn_fmax(floor(sk->cwnd * ca->beta), 2);
}

static void htcp_cong_avoid(struct tn_cc_sock *sk, double acked)
{
    struct htcp *ca = TN_CC_PRIV(sk, struct htcp);
    start_clock(sk, ca);
    if (tn_cc_in_slow_start(sk)) {
        tn_cc_slow_start(sk, acked);
        return;
    }
    /* cwnd += alpha / cwnd per segment */
    if (sk->cwnd_cnt * ca->alpha / 128 >= sk->cwnd) {
        sk->cwnd += 1;
        sk->cwnd_cnt = 0;
        htcp_alpha_update(sk, ca);
    } else {
        sk->cwnd_cnt += ca->pkts_acked;
    }
    ca->pkts_acked = 1;
}

/* measure_achieved_throughput and measure_rtt */
static void htcp_pkts_acked(struct tn_cc_sock *sk)
{
    struct htcp *ca = TN_CC_PRIV(sk, struct htcp);
    start_clock(sk, ca);
    if (sk->state == TN_CA_OPEN)
        ca->pkts_acked = sk->acked;
    if (sk->rtt_ms > 0) {
        if (ca->min_rtt_ms <= 0 || sk->rtt_ms < ca->min_rtt_ms)
            ca->min_rtt_ms = sk->rtt_ms;
        if (sk->state == TN_CA_OPEN) {
            if (ca->max_rtt_ms < ca->min_rtt_ms)
                ca->max_rtt_ms = ca->min_rtt_ms;
            if (ca->max_rtt_ms < sk->rtt_ms && sk->rtt_ms <= ca->max_rtt_ms + 20)
                ca->max_rtt_ms = sk->rtt_ms;
        }
    }
    if (sk->state != TN_CA_OPEN) {
        ca->packetcount = 0;
        ca->lasttime = sk->now_ns;
        return;
    }
    ca->packetcount += sk->acked;
    double el = (double)(sk->now_ns - ca->lasttime) / 1e9;
    double a = floor(ca->alpha / 128);
    if (ca->packetcount >= sk->cwnd - (a ? a : 1) && ca->min_rtt_ms > 0 && el * 1000 >= ca->min_rtt_ms) {
        double cur = ca->packetcount / el;
        if (cong_time_s(sk, ca) * 1000 / ca->min_rtt_ms <= 3) {   /* just after backoff */
            ca->minB = ca->maxB = ca->Bi = cur;
        } else {
            ca->Bi = (3 * ca->Bi + cur) / 4;
            if (ca->Bi > ca->maxB)
                ca->maxB = ca->Bi;
            if (ca->minB > ca->maxB)
                ca->minB = ca->maxB;
        }
        ca->packetcount = 0;
        ca->lasttime = sk->now_ns;
    }
}

static void htcp_set_state(struct tn_cc_sock *sk, enum tn_ca_state st)
{
    struct htcp *ca = TN_CC_PRIV(sk, struct htcp);
    if (st != TN_CA_OPEN) {   /* htcp_reset */
        ca->last_cong = sk->now_ns;
        ca->undo_last_cong = true;
    } else if (ca->undo_last_cong) {   /* Linux htcp_state, TCP_CA_Open: the time since the
                                        * last congestion event runs from its end */
        ca->last_cong = sk->now_ns;
        ca->undo_last_cong = false;
    }
}

const struct tn_cc_ops tn_cc_htcp_ops = {
    .name = "htcp",
    .kind = "loss-based",
    .priv_size = sizeof(struct htcp),
    .init = htcp_init,
    .ssthresh = htcp_ssthresh,
    .cong_avoid = htcp_cong_avoid,
    .set_state = htcp_set_state,
    .undo_cwnd = tn_cc_reno_undo_cwnd,
    .pkts_acked = htcp_pkts_acked,
    .signature = "window to minRTT/maxRTT (0.5-0.8) x at a loss; Reno-like for 1 s after it, then an increase growing with the square of the time since",
};
