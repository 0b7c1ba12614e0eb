/* cc_cubic.c - CUBIC as Linux implements it (RFC 9438; Linux net/ipv4/tcp_cubic.c): beta
 * 717/1024, C 0.4, fast convergence, the TCP-friendly region, and HyStart (Ha, Rhee 2011;
 * Linux hystart_update: ACK train and delay increase).  Where the sender runs Linux 2.6.22's
 * modules (ns-2), CUBIC v2.1 as that version has it (cubic21_*). */
#include <math.h>
#include <stdio.h>

#include "cc.h"

#define CUBIC_BETA (717.0 / 1024.0)
#define CUBIC_C 0.4
#define HYSTART_LOW_WINDOW 16.0     /* hystart_low_window */
#define HYSTART_MIN_SAMPLES 8       /* HYSTART_MIN_SAMPLES */
#define HYSTART_ACK_DELAY_MS 1.0    /* hystart_ack_delay: min(1 ms, 4 GSO sizes at the pacing
                                     * rate), 1 ms below 2 Gbit/s */
/* CUBIC v2.1, Linux 2.6.22 (ns-2.35 tcp/linux/src/tcp_cubic.c) */
#define CUBIC21_BETA (819.0 / 1024.0)
#define CUBIC21_BETA_SCALE 23.0     /* 8 (1024 + 819) / 3 / (1024 - 819), integer */
#define CUBIC21_MAX_INCREMENT 16.0  /* segments per 100 ms of delay_min above the origin */
#define CUBIC21_CNT_NO_LOSS 50.0    /* "slow start and low utilization": before a first loss */
#define ACK_RATIO_SHIFT 4           /* delayed_ack: segments per ACK << 4 */

struct cubic {
    double last_max, origin, K, tcp_cwnd, ack_cnt;
    int64_t epoch_start;
    /* HyStart: the round it counts (the driver's), its start, last ACK of a train, the
     * round's least RTT, samples taken */
    bool found;
    unsigned round;
    int64_t round_start, last_ack;
    double curr_rtt;
    int samples;
    double delayed_ack;        /* v2.1: segments per ACK << ACK_RATIO_SHIFT (bictcp_acked) */
};

static void cubic_init(struct tn_cc_sock *sk)
{
    struct cubic *ca = TN_CC_PRIV(sk, struct cubic);
    ca->round = (unsigned)-1;
    ca->delayed_ack = 2 << ACK_RATIO_SHIFT;   /* bictcp_reset */
}

/* bictcp_update: the cubic target and the TCP-friendly estimate give the count of segments to
 * acknowledge per one-segment increase. */
/* A new epoch (the first increase after a reduction): the curve's origin and the time K to it
 * from the window now, and the TCP-friendly estimate starting there (both versions) */
static void epoch_begin(struct tn_cc_sock *sk, struct cubic *ca, double ack_cnt)
{
    ca->epoch_start = sk->now_ns;
    ca->ack_cnt = ack_cnt;
    ca->tcp_cwnd = sk->cwnd;
    if (ca->last_max <= sk->cwnd) {
        ca->K = 0;
        ca->origin = sk->cwnd;
    } else {
        ca->K = cbrt((ca->last_max - sk->cwnd) / CUBIC_C);
        ca->origin = ca->last_max;
    }
}

static double cubic_cnt(struct tn_cc_sock *sk, double acked)
{
    struct cubic *ca = TN_CC_PRIV(sk, struct cubic);
    if (!ca->epoch_start) {
        epoch_begin(sk, ca, acked);
    } else {
        ca->ack_cnt += acked;
    }
    double min_rtt_s = sk->min_rtt_ms > 0 ? sk->min_rtt_ms / 1000.0 : 0;
    double t = (double)(sk->now_ns - ca->epoch_start) / 1e9 + min_rtt_s;
    double target = ca->origin + CUBIC_C * pow(t - ca->K, 3);
    double cnt = target > sk->cwnd ? sk->cwnd / (target - sk->cwnd) : 100 * sk->cwnd;
    if (ca->last_max == 0 && cnt > 20)
        cnt = 20;   /* Linux: grow at least 5% per RTT before the first loss */
    /* TCP-friendly region (RFC 9438 §4.3): the Reno-equivalent window grows by one segment per
     * cwnd * beta_scale / 8 segments acknowledged; Linux's beta_scale is
     * 8 * (1024 + 717) / 3 / (1024 - 717) = 15 (integer), i.e. about 0.53 segments per RTT */
    double delta = floor(sk->cwnd) * 15 / 8;
    if (delta > 0) {
        while (ca->ack_cnt > delta) {
            ca->ack_cnt -= delta;
            ca->tcp_cwnd += 1;
        }
    }
    if (ca->tcp_cwnd > sk->cwnd) {
        double c2 = sk->cwnd / (ca->tcp_cwnd - sk->cwnd);
        if (c2 < cnt)
            cnt = c2;
    }
    return cnt < 2 ? 2 : cnt;   /* Linux keeps cnt >= 2: at most 1.5x per RTT */
}

/* bictcp_update of CUBIC v2.1 (Linux 2.6.22), where it differs from today's: ACKs counted
 * rather than segments for the TCP-friendly window, which grows a segment per cwnd x 23 / 8 of
 * them (beta 0.8: 0.35 segments a round trip); above the origin at most 16 segments per 100 ms
 * of delay_min (min_cnt; delay_min from the timestamps, which a trace without options does not
 * show: the least RTT stands for it); 50 ACKs a segment before a first loss; the count scaled
 * by the segments per ACK (delayed_ack). */
static double cubic21_cnt(struct tn_cc_sock *sk)
{
    struct cubic *ca = TN_CC_PRIV(sk, struct cubic);
    ca->ack_cnt += 1;
    if (!ca->epoch_start)
        epoch_begin(sk, ca, 1);
    double delay_min_s = sk->min_rtt_ms > 0 ? sk->min_rtt_ms / 1000.0 : 0;
    double t = (double)(sk->now_ns - ca->epoch_start) / 1e9 + delay_min_s;
    double target = ca->origin + CUBIC_C * pow(t - ca->K, 3);
    double cnt = target > sk->cwnd ? floor(sk->cwnd / (target - sk->cwnd)) : 100 * sk->cwnd;
    if (delay_min_s > 0) {   /* max increment = Smax x rtt / 0.1 s */
        double min_cnt = floor(sk->cwnd * 0.1 / (CUBIC21_MAX_INCREMENT * delay_min_s));
        if (cnt < min_cnt && t >= ca->K)
            cnt = min_cnt;
    }
    if (ca->last_max == 0)   /* loss_cwnd == 0: set with last_max at a loss, reset together */
        cnt = CUBIC21_CNT_NO_LOSS;
    double delta = floor(floor(sk->cwnd) * CUBIC21_BETA_SCALE / 8);
    if (delta > 0) {
        while (ca->ack_cnt > delta) {
            ca->ack_cnt -= delta;
            ca->tcp_cwnd += 1;
        }
    }
    if (ca->tcp_cwnd > sk->cwnd) {
        double max_cnt = floor(sk->cwnd / (ca->tcp_cwnd - sk->cwnd));
        if (cnt > max_cnt)
            cnt = max_cnt;
    }
    cnt = floor(cnt * (1 << ACK_RATIO_SHIFT) / ca->delayed_ack);
    return cnt < 1 ? 1 : cnt;
}

static void cubic_cong_avoid(struct tn_cc_sock *sk, double acked)
{
    if (tn_cc_in_slow_start(sk)) {
        acked = tn_cc_slow_start(sk, acked);
        if (acked <= 0)
            return;
    }
    if (sk->linux_2_6_22)   /* v2.1 counts ACKs toward an increase (snd_cwnd_cnt++), not segments */
        tn_cc_cong_avoid_ai(sk, cubic21_cnt(sk), 1);
    else
        tn_cc_cong_avoid_ai(sk, cubic_cnt(sk, acked), acked);
}

/* bictcp_recalc_ssthresh, with fast convergence */
static double cubic_ssthresh(struct tn_cc_sock *sk)
{
    struct cubic *ca = TN_CC_PRIV(sk, struct cubic);
    ca->epoch_start = 0;
    if (sk->linux_2_6_22) {   /* v2.1: beta 819/1024 */
        ca->last_max = sk->cwnd < ca->last_max ? floor(sk->cwnd * (1 + CUBIC21_BETA) / 2) : sk->cwnd;
        return tn_fmax(floor(sk->cwnd * CUBIC21_BETA), 2);
    }
    ca->last_max = sk->cwnd < ca->last_max ? sk->cwnd * (1 + CUBIC_BETA) / 2 : sk->cwnd;
    /* HyStart stays armed (found is cleared only by bictcp_reset): while PRR holds the window
     * below the new ssthresh, or a restart after idle does, cubictcp_acked runs hystart_update
     * again, and a delay rise then sets ssthresh to the window (a second cut) */
    return tn_fmax(floor(sk->cwnd * CUBIC_BETA), 2);   /* (cwnd * 717) >> 10 */
}

/* cubictcp_state: a timeout (Loss) forgets everything, W_max included (bictcp_reset), and
 * re-arms HyStart (bictcp_hystart_reset) */
static void cubic_set_state(struct tn_cc_sock *sk, enum tn_ca_state st)
{
    if (st != TN_CA_LOSS)
        return;
    struct cubic *ca = TN_CC_PRIV(sk, struct cubic);
    *ca = (struct cubic){0};
    cubic_init(sk);
}

/* cubictcp_cwnd_event: back from idle, shift the epoch so the window stays on its curve */
static void cubic_cwnd_event(struct tn_cc_sock *sk, enum tn_ca_event ev)
{
    struct cubic *ca = TN_CC_PRIV(sk, struct cubic);
    if (ev == TN_CA_EVENT_TX_START && ca->epoch_start && sk->idle_ns > 0) {
        if (sk->idle_ns >= sk->now_ns - ca->epoch_start)
            ca->epoch_start = sk->now_ns;
        else
            ca->epoch_start += sk->idle_ns;
    }
}

/* hystart_update, on every ACK while the window is below ssthresh (Linux samples all of them,
 * window-limited or not, in recovery too: cubictcp_acked tests tcp_in_slow_start only) once the
 * window is at least hystart_low_window, until HyStart found its exit. */
static void cubic_pkts_acked(struct tn_cc_sock *sk)
{
    struct cubic *ca = TN_CC_PRIV(sk, struct cubic);
    /* v2.1's bictcp_acked: the segments per ACK, in Open only (its truncation holds the
     * estimate at 31, not 16, with one segment per ACK).  v2.1 had no HyStart (2.2, Linux
     * 2.6.29); its replay keeps it all the same: without it no CUBIC or BIC verdict on ns-2
     * moved, and the Vegas senders, whose estimate is CUBIC's replay while Vegas is named below
     * TN_CC_SURE, overshoot slow start (docs/inference.md) */
    if (sk->linux_2_6_22 && sk->state == TN_CA_OPEN) {
        double ratio = ca->delayed_ack - floor(ca->delayed_ack / (1 << ACK_RATIO_SHIFT)) + sk->acked;
        ca->delayed_ack = tn_fmax(ratio, 1);
    }
    /* cubictcp_acked: "Discard delay samples right after fast recovery", for a second (HZ)
     * after the epoch began */
    if (ca->epoch_start && sk->now_ns - ca->epoch_start < 1000000000)
        return;
    if (ca->found || !tn_cc_in_slow_start(sk) || sk->cwnd < HYSTART_LOW_WINDOW || sk->min_rtt_ms <= 0)
        return;
    if (ca->round != sk->round) {   /* bictcp_hystart_reset at the round's first ACK */
        ca->round = sk->round;
        ca->round_start = ca->last_ack = sk->round_start_ns;
        ca->curr_rtt = INFINITY;
        ca->samples = 0;
    }
    double delay_min = sk->min_rtt_ms;
    /* ACK train: ACKs at most HYSTART_ACK_DELAY_MS apart since the round began, for longer than
     * half the minimum RTT (plus that delay).  With 2 ms, ACKs clocked out of a 10 Mbit/s
     * bottleneck (1.2 ms apart) made a train of every round and the exit came 2-4 rounds early. */
    if ((double)(sk->now_ns - ca->last_ack) / 1e6 <= HYSTART_ACK_DELAY_MS) {
        ca->last_ack = sk->now_ns;
        double thresh = (delay_min + HYSTART_ACK_DELAY_MS) / 2;
        double train = (double)(sk->now_ns - ca->round_start) / 1e6;
        if (train > thresh) {
            ca->found = true;
            snprintf(sk->ss_exit_why, sizeof sk->ss_exit_why, "HyStart: ACK train of %.1f ms > %.1f ms",
                     train, thresh);
        }
    }
    /* Delay: the round's smallest RTT sample, once more than HYSTART_MIN_SAMPLES were taken,
     * above the minimum by clamp(min/8, 4, 16) ms (HYSTART_DELAY_MIN/MAX) */
    if (sk->rtt_ms > 0) {
        if (sk->rtt_ms < ca->curr_rtt)
            ca->curr_rtt = sk->rtt_ms;
        if (ca->samples < HYSTART_MIN_SAMPLES) {
            ca->samples++;
        } else {
            double thresh = delay_min / 8;
            thresh = thresh < 4 ? 4 : thresh > 16 ? 16 : thresh;
            if (ca->curr_rtt > delay_min + thresh) {
                ca->found = true;
                snprintf(sk->ss_exit_why, sizeof sk->ss_exit_why, "HyStart: round RTT %.1f ms > min %.1f + %.1f ms",
                         ca->curr_rtt, delay_min, thresh);
            }
        }
    }
    if (ca->found) {
        sk->ssthresh = sk->cwnd;
        sk->ss_exit_now = true;
    }
}

const struct tn_cc_ops tn_cc_cubic_ops = {
    .name = "cubic",
    .kind = "loss-based",
    .priv_size = sizeof(struct cubic),
    .init = cubic_init,
    .ssthresh = cubic_ssthresh,
    .cong_avoid = cubic_cong_avoid,
    .set_state = cubic_set_state,
    .undo_cwnd = tn_cc_reno_undo_cwnd,
    .cwnd_event = cubic_cwnd_event,
    .pkts_acked = cubic_pkts_acked,
    .checked = "kernel tcp_probe of the samples/cubic-* runs (tests/unit/check_truth.c)",
    /* Ha, Rhee, Xu 2008 (beta 0.2: the window to 0.8) and Linux before 2.6.25 (beta 819/1024),
     * which ns-2 2.35's Agent/TCP/Linux runs */
    .beta_alt = 819.0 / 1024,
    .signature = "window to 0.7 x at a loss, then a cubic curve: concave up to the old maximum, convex beyond, independent of the RTT",
};
