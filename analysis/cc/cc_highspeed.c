/* cc_highspeed.c - HighSpeed TCP (RFC 3649; Linux net/ipv4/tcp_highspeed.c): above 38
 * segments the increase a(w) grows and the decrease b(w) shrinks with the window, from the
 * table of RFC 3649 appendix B (Linux keeps b(w) scaled by 256).  At or below 38 segments it is
 * standard TCP (RFC 3649 §5). */
#include <math.h>

#include "cc.h"

/* window bound, decrease << 8 (RFC 3649 appendix B, as in Linux hstcp_aimd_vals) */
static const struct { double cwnd; double md; } aimd[] = {
    {38, 128},    {118, 112},   {221, 104},   {347, 98},    {495, 93},    {663, 89},
    {851, 86},    {1058, 83},   {1284, 81},   {1529, 78},   {1793, 76},   {2076, 74},
    {2378, 72},   {2699, 71},   {3039, 69},   {3399, 68},   {3778, 66},   {4177, 65},
    {4596, 64},   {5036, 62},   {5497, 61},   {5979, 60},   {6483, 59},   {7009, 58},
    {7558, 57},   {8130, 56},   {8726, 55},   {9346, 54},   {9991, 53},   {10661, 52},
    {11358, 52},  {12082, 51},  {12834, 50},  {13614, 49},  {14424, 48},  {15265, 48},
    {16137, 47},  {17042, 46},  {17981, 45},  {18955, 45},
};
#define NAIMD (sizeof aimd / sizeof aimd[0])

struct hstcp {
    unsigned ai;               /* aimd[ai - 1].cwnd < cwnd <= aimd[ai].cwnd */
};

/* the row of the table for the window (hstcp_cong_avoid updates it on every increase) */
static void hstcp_row(struct tn_cc_sock *sk, struct hstcp *ca)
{
    while (sk->cwnd > aimd[ca->ai].cwnd && ca->ai < NAIMD - 1)
        ca->ai++;
    while (ca->ai && sk->cwnd <= aimd[ca->ai - 1].cwnd)
        ca->ai--;
}

static void hstcp_cong_avoid(struct tn_cc_sock *sk, double acked)
{
    struct hstcp *ca = TN_CC_PRIV(sk, struct hstcp);
    if (tn_cc_in_slow_start(sk)) {
        tn_cc_slow_start(sk, acked);
        return;
    }
    hstcp_row(sk, ca);
    /* cwnd += a(w) / cwnd per ACK, a(w) = ai + 1 (Linux counts ACKs here, not segments) */
    sk->cwnd_cnt += ca->ai + 1;
    if (sk->cwnd_cnt >= sk->cwnd) {
        sk->cwnd_cnt -= sk->cwnd;
        sk->cwnd += 1;
    }
}

static double hstcp_ssthresh(struct tn_cc_sock *sk)
{
    struct hstcp *ca = TN_CC_PRIV(sk, struct hstcp);
    hstcp_row(sk, ca);   /* a window that grew in slow start has not updated it yet */
    return tn_fmax(sk->cwnd - floor(sk->cwnd * aimd[ca->ai].md / 256), 2);
}

const struct tn_cc_ops tn_cc_highspeed_ops = {
    .name = "highspeed",
    .kind = "loss-based",
    .priv_size = sizeof(struct hstcp),
    .ssthresh = hstcp_ssthresh,
    .cong_avoid = hstcp_cong_avoid,
    .undo_cwnd = tn_cc_reno_undo_cwnd,
    /* RFC 3649 §5: Low_Window 38, a(w) = 1 and b(w) = 0.5 at or below it (the table's first row) */
    .reno_below = 38,
    .reno_why = "Reno up to 38 segments, RFC 3649 §5",
    .signature = "standard TCP up to 38 segments; above, a smaller decrease (0.56 x at 118 segments) and a faster increase as the window grows (RFC 3649 table)",
};
