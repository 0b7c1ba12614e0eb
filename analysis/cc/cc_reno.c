/* cc_reno.c - Reno/NewReno: slow start, one segment per window in congestion avoidance, half
 * the window at a loss (RFC 5681 §3, RFC 6582; Linux tcp_cong.c tcp_reno_*). */
#include "cc.h"

const struct tn_cc_ops tn_cc_reno_ops = {
    .name = "reno",
    .kind = "loss-based",
    .ssthresh = tn_cc_reno_ssthresh,
    .cong_avoid = tn_cc_reno_cong_avoid,
    .undo_cwnd = tn_cc_reno_undo_cwnd,
    .checked = "kernel tcp_probe of samples/reno-smallq (tests/unit/check_truth.c)",
    .signature = "halves the window at a loss, one segment per round trip between losses",
};
