/* cc_scalable.c - Scalable TCP (T. Kelly, "Scalable TCP: improving performance in highspeed
 * wide area networks", CCR 33(2), 2003; Linux net/ipv4/tcp_scalable.c): one segment per
 * min(cwnd, 100) segments acknowledged (TCP_SCALABLE_AI_CNT), and 1/8 off the window at a loss
 * (TCP_SCALABLE_MD_SCALE 3: cwnd - cwnd >> 3). */
#include <math.h>

#include "cc.h"

#define SCALABLE_AI_CNT 100.0
#define SCALABLE_MD_SCALE 8.0

static void scalable_cong_avoid(struct tn_cc_sock *sk, double acked)
{
    if (tn_cc_in_slow_start(sk)) {
        acked = tn_cc_slow_start(sk, acked);
        if (acked <= 0)
            return;
    }
    tn_cc_cong_avoid_ai(sk, tn_fmin(sk->cwnd, SCALABLE_AI_CNT), acked);
}

static double scalable_ssthresh(struct tn_cc_sock *sk)
{
    return tn_fmax(sk->cwnd - floor(sk->cwnd / SCALABLE_MD_SCALE), 2);
}

const struct tn_cc_ops tn_cc_scalable_ops = {
    .name = "scalable",
    .kind = "loss-based",
    .ssthresh = scalable_ssthresh,
    .cong_avoid = scalable_cong_avoid,
    .undo_cwnd = tn_cc_reno_undo_cwnd,
    .signature = "window to 0.875 x at a loss, then 1% more per round trip (exponential) above 100 segments",
};
