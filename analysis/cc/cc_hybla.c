/* cc_hybla.c - TCP Hybla (C. Caini, R. Firrincieli, "TCP Hybla: a TCP enhancement for
 * heterogeneous networks", Int. J. Satellite Commun. 22(5), 2004; Linux net/ipv4/tcp_hybla.c):
 * the growth of a 25 ms reference connection (rtt0) whatever the RTT: with rho = RTT / rtt0
 * (at least 1), slow start adds 2^rho - 1 and congestion avoidance rho^2 / cwnd per ACK.  At
 * RTTs up to 25 ms it is Reno.  The decrease is Reno's. */
#include <math.h>

#include "cc.h"

#define HYBLA_RTT0_MS 25.0

/* tcp_hybla.c: hybla_init sets snd_cwnd_clamp to 65535 segments, and cong_avoid keeps the
 * window under it */
#define HYBLA_CWND_CLAMP 65535.0

struct hybla {
    bool hybla_en;
    double rho_3ls;            /* rho in 1/8 (at least 8), from the least smoothed RTT */
    double rho2;               /* rho^2, seven fraction bits */
    double min_srtt_ms;
    double cents;              /* fractions of a segment, in 1/128 */
};

static void recalc(struct tn_cc_sock *sk, struct hybla *ca)
{
    /* rho_3ls = max(srtt / rtt0, 1) in 1/8: rho keeps three fraction bits */
    ca->rho_3ls = tn_fmax(floor(sk->srtt_ms / HYBLA_RTT0_MS * 8), 8);
    ca->rho2 = floor(ca->rho_3ls * ca->rho_3ls * 2) / 128;
}

static void hybla_init(struct tn_cc_sock *sk)
{
    struct hybla *ca = TN_CC_PRIV(sk, struct hybla);
    ca->rho_3ls = 8;
    ca->rho2 = 1;
    ca->hybla_en = true;
    ca->min_srtt_ms = INFINITY;
}

static void hybla_set_state(struct tn_cc_sock *sk, enum tn_ca_state st)
{
    TN_CC_PRIV(sk, struct hybla)->hybla_en = st == TN_CA_OPEN;
}

static void hybla_cong_avoid(struct tn_cc_sock *sk, double acked)
{
    struct hybla *ca = TN_CC_PRIV(sk, struct hybla);
    if (sk->srtt_ms > 0 && sk->srtt_ms < ca->min_srtt_ms) {   /* only a lower srtt recalculates */
        recalc(sk, ca);
        ca->min_srtt_ms = sk->srtt_ms;
    }
    if (!ca->hybla_en) {
        tn_cc_reno_cong_avoid(sk, acked);
        return;
    }
    double incr;   /* in 1/128 segment */
    bool ss = sk->cwnd < sk->ssthresh;   /* hybla_cong_avoid's own test, in 2.6.22 as today */
    if (ss) {
        /* 2^rho - 1 in 1/128 as tcp_hybla.c computes it: 2^min(rho's integer part, 16) times
         * 2^(eighths / 8) from its fractions[] table (so that a long RTT cannot overflow) */
        static const double fractions[8] = {128, 139, 152, 165, 181, 197, 215, 234};
        double rho_int = floor(ca->rho_3ls / 8);
        incr = ldexp(fractions[(int)(ca->rho_3ls - rho_int * 8)], (int)tn_fmin(rho_int, 16)) - 128;
    } else {
        incr = floor(ca->rho2 * 128 / sk->cwnd);
        if (incr < 128)
            sk->cwnd_cnt++;
    }
    double odd = fmod(incr, 128);
    sk->cwnd += floor(incr / 128);
    ca->cents += odd;
    while (ca->cents >= 128) {
        sk->cwnd += 1;
        ca->cents -= 128;
        sk->cwnd_cnt = 0;
    }
    /* today's check for a window not raised for a while (2.6.22 has none) */
    if (!sk->linux_2_6_22 && incr == 0 && odd == 0 && sk->cwnd_cnt >= sk->cwnd) {
        sk->cwnd += 1;
        sk->cwnd_cnt = 0;
    }
    if (ss)
        sk->cwnd = tn_fmin(sk->cwnd, sk->ssthresh);
    sk->cwnd = tn_fmin(sk->cwnd, HYBLA_CWND_CLAMP);
}

const struct tn_cc_ops tn_cc_hybla_ops = {
    .name = "hybla",
    .kind = "loss-based",
    .priv_size = sizeof(struct hybla),
    .init = hybla_init,
    .ssthresh = tn_cc_reno_ssthresh,
    .cong_avoid = hybla_cong_avoid,
    .set_state = hybla_set_state,
    .undo_cwnd = tn_cc_reno_undo_cwnd,
    /* rho = srtt / rtt0 kept with three fraction bits (tcp_hybla.c rho_3ls), at least 1: it is
     * 1, and Hybla Reno, for a least smoothed RTT below 9/8 of rtt0 */
    .reno_rtt_ms = HYBLA_RTT0_MS * 9 / 8,
    .reno_why = "Reno below an RTT of 28.1 ms, tcp_hybla.c rho",
    .signature = "halves the window at a loss; grows (RTT/25 ms)^2 segments a round trip: Reno at 25 ms or less, faster the longer the RTT",
};
