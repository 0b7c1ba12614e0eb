/* cc_westwood.c - TCP Westwood+ (S. Mascolo et al., "TCP Westwood: bandwidth estimation for
 * enhanced transport over wireless links", MobiCom 2001; L. Grieco, S. Mascolo, "Performance
 * evaluation and comparison of Westwood+, New Reno, and Vegas TCP congestion control", CCR
 * 34(2), 2004; Linux net/ipv4/tcp_westwood.c): the bandwidth acknowledged per max(RTT, 50 ms)
 * through two 7/8 filters; after a loss the window is that bandwidth times the least RTT
 * (cwnd = ssthresh = BWE x RTTmin), Reno's growth between losses. */
#include <math.h>

#include "cc.h"

#define WESTWOOD_RTT_MIN_MS 50.0   /* TCP_WESTWOOD_RTT_MIN: HZ / 20 */

struct westwood {
    double bw_ns_est, bw_est;  /* segments per ms */
    double bk;                 /* segments acknowledged in the current sample window */
    int64_t rtt_win_sx;
    double rtt_ms, rtt_min_ms;
    bool first;
};

static void westwood_init(struct tn_cc_sock *sk)
{
    struct westwood *w = TN_CC_PRIV(sk, struct westwood);
    w->rtt_min_ms = w->rtt_ms = 20000;   /* TCP_WESTWOOD_INIT_RTT: 20 s */
    w->first = true;
}

static double filter(double a, double b)
{
    return (7 * a + b) / 8;
}

static void update_window(struct tn_cc_sock *sk, struct westwood *w)
{
    if (w->first) {
        w->rtt_win_sx = sk->now_ns;
        w->first = false;
        return;
    }
    double delta = (double)(sk->now_ns - w->rtt_win_sx) / 1e6;
    if (w->rtt_ms < 20000 && delta > tn_fmax(w->rtt_ms, WESTWOOD_RTT_MIN_MS)) {
        double sample = w->bk / delta;
        if (w->bw_ns_est == 0 && w->bw_est == 0) {
            w->bw_ns_est = w->bw_est = sample;
        } else {
            w->bw_ns_est = filter(w->bw_ns_est, sample);
            w->bw_est = filter(w->bw_est, w->bw_ns_est);
        }
        w->bk = 0;
        w->rtt_win_sx = sk->now_ns;
    }
}

static void westwood_pkts_acked(struct tn_cc_sock *sk)
{
    struct westwood *w = TN_CC_PRIV(sk, struct westwood);
    if (sk->rtt_ms > 0)
        w->rtt_ms = sk->rtt_ms;
    update_window(sk, w);
    w->bk += sk->acked;
    w->rtt_min_ms = tn_fmin(w->rtt_ms, w->rtt_min_ms);
}

/* tcp_westwood_bw_rttmin */
static double bw_rttmin(const struct westwood *w)
{
    return tn_fmax(floor(w->bw_est * w->rtt_min_ms), 2);
}

static void westwood_cwnd_event(struct tn_cc_sock *sk, enum tn_ca_event ev)
{
    struct westwood *w = TN_CC_PRIV(sk, struct westwood);
    if (!(w->bw_est > 0))
        return;
    if (ev == TN_CA_EVENT_COMPLETE_CWR)
        sk->cwnd = sk->ssthresh = bw_rttmin(w);
    else if (ev == TN_CA_EVENT_LOSS)
        sk->ssthresh = bw_rttmin(w);
}

const struct tn_cc_ops tn_cc_westwood_ops = {
    .name = "westwood",
    .kind = "loss-based",
    .priv_size = sizeof(struct westwood),
    .init = westwood_init,
    .ssthresh = tn_cc_reno_ssthresh,
    .cong_avoid = tn_cc_reno_cong_avoid,
    .undo_cwnd = tn_cc_reno_undo_cwnd,
    .cwnd_event = westwood_cwnd_event,
    .pkts_acked = westwood_pkts_acked,
    .signature = "after a loss the window is the measured bandwidth x the least RTT (the path without its queue), Reno's growth between losses",
};
