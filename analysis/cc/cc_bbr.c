/* cc_bbr.c - BBR v1 (N. Cardwell, Y. Cheng, C. S. Gunn, S. Hassas Yeganeh, V. Jacobson, "BBR:
 * congestion-based congestion control", ACM Queue 14(5), 2016; Linux 6.x net/ipv4/tcp_bbr.c):
 * a model of the path, not a reaction to loss.  The bottleneck bandwidth is the most delivered
 * per time over the last 10 rounds, the min RTT the least over 10 s; the pacing rate is
 * gain x bandwidth and the window (the inflight cap) cwnd_gain x bandwidth x min RTT.
 * Startup paces at 2/ln 2 = 2.885 until the bandwidth grew less than 25% in 3 rounds, Drain
 * at 1/2.885 until the flight is one BDP, ProbeBW cycles the gains 5/4, 3/4, 1 x 6 a min RTT
 * each, and ProbeRTT, when the min RTT is 10 s old, holds 4 segments for 200 ms and a round.
 * A loss only makes it conserve packets for a round of recovery, then the window comes back.
 * Not replayed: the long-term (policer) bandwidth and ACK-aggregation extra window; the
 * ProbeBW phase starts at gain 1 (Linux picks it at random). */
#include <math.h>
#include <stdio.h>

#include "cc.h"

#define BBR_HIGH_GAIN (2885.0 / 1000)      /* bbr_high_gain: 2/ln(2) */
#define BBR_DRAIN_GAIN (1000.0 / 2885)
#define BBR_CWND_GAIN 2.0
#define BBR_CYCLE_LEN 8
#define BBR_BW_ROUNDS (BBR_CYCLE_LEN + 2)  /* bbr_bw_rtts */
#define BBR_MIN_RTT_WIN_NS (10 * 1000000000LL)   /* bbr_min_rtt_win_sec */
#define BBR_PROBE_RTT_NS (200 * 1000000LL) /* bbr_probe_rtt_mode_ms */
#define BBR_CWND_MIN 4.0                   /* bbr_cwnd_min_target */
#define BBR_FULL_BW_THRESH 1.25            /* bbr_full_bw_thresh */
#define BBR_FULL_BW_CNT 3
#define BBR_PACING_MARGIN 0.99             /* bbr_pacing_margin_percent 1 */

static const double pacing_gain_cycle[BBR_CYCLE_LEN] = {1.25, 0.75, 1, 1, 1, 1, 1, 1};

enum bbr_mode { BBR_STARTUP, BBR_DRAIN, BBR_PROBE_BW, BBR_PROBE_RTT };

struct bbr {
    enum bbr_mode mode;
    double bw[BBR_BW_ROUNDS];  /* the round's most: segments per ms, by round % BBR_BW_ROUNDS */
    unsigned bw_round;
    double min_rtt_ms;
    int64_t min_rtt_stamp, probe_rtt_done_stamp, cycle_stamp;
    bool probe_rtt_round_done, full_bw_reached, packet_conservation, idle_restart;
    double full_bw;
    unsigned full_bw_cnt, cycle_idx;
    double pacing_gain, cwnd_gain, prior_cwnd;
    enum tn_ca_state prev_ca_state;
    unsigned conservation_round;
    unsigned probe_rtt_round;  /* the round ProbeRTT began in */
};

static double max_bw(const struct bbr *b)
{
    double m = 0;
    for (int i = 0; i < BBR_BW_ROUNDS; i++)
        m = fmax(m, b->bw[i]);
    return m;
}

/* bbr_bdp: bandwidth x min RTT x gain, rounded up; the initial window before any sample */
static double bdp(const struct bbr *b, double bw, double gain)
{
    if (b->min_rtt_ms <= 0 || bw <= 0)
        return TN_CC_IW;
    return ceil(bw * b->min_rtt_ms * gain);
}

static void bbr_init(struct tn_cc_sock *sk)
{
    struct bbr *b = TN_CC_PRIV(sk, struct bbr);
    b->mode = BBR_STARTUP;
    b->pacing_gain = b->cwnd_gain = BBR_HIGH_GAIN;
    b->min_rtt_ms = -1;
    b->prev_ca_state = TN_CA_OPEN;
}

static void enter_probe_bw(struct bbr *b, int64_t now)
{
    b->mode = BBR_PROBE_BW;
    b->cycle_idx = BBR_CYCLE_LEN - 1;   /* next phase probes up */
    b->cycle_stamp = now;
}

static void bbr_cong_control(struct tn_cc_sock *sk)
{
    struct bbr *b = TN_CC_PRIV(sk, struct bbr);
    double acked = sk->acked;
    /* bbr_update_bw: the round's most, into a 10-round max filter (the rate sample is the
     * core's, as Linux's tcp_rate.c hands it to cong_control) */
    double rate = sk->rate;
    if (sk->round != b->bw_round) {
        b->bw_round = sk->round;
        b->bw[sk->round % BBR_BW_ROUNDS] = 0;
    }
    if (!sk->app_limited || rate >= max_bw(b))
        b->bw[sk->round % BBR_BW_ROUNDS] = fmax(b->bw[sk->round % BBR_BW_ROUNDS], rate);
    double bw = max_bw(b);
    /* bbr_update_cycle_phase */
    if (b->mode == BBR_PROBE_BW && b->min_rtt_ms > 0) {
        bool full = sk->now_ns - b->cycle_stamp > (int64_t)(b->min_rtt_ms * 1e6);
        double g = b->pacing_gain;
        bool next = g == 1 ? full : g > 1 ? full && sk->flight >= bdp(b, bw, g)
                                          : full || sk->flight <= bdp(b, bw, 1);
        if (next) {
            b->cycle_idx = (b->cycle_idx + 1) % BBR_CYCLE_LEN;
            b->cycle_stamp = sk->now_ns;
        }
    }
    /* bbr_check_full_bw_reached, once a round */
    if (!b->full_bw_reached && sk->round_start && !sk->app_limited) {
        if (bw >= b->full_bw * BBR_FULL_BW_THRESH) {
            b->full_bw = bw;
            b->full_bw_cnt = 0;
        } else if (++b->full_bw_cnt >= BBR_FULL_BW_CNT) {
            b->full_bw_reached = true;
        }
    }
    /* bbr_check_drain */
    if (b->mode == BBR_STARTUP && b->full_bw_reached) {
        b->mode = BBR_DRAIN;
        sk->ssthresh = bdp(b, bw, 1);
        snprintf(sk->ss_exit_why, sizeof sk->ss_exit_why,
                 "BBR: bandwidth grew less than 25%% in %d rounds, Startup -> Drain", BBR_FULL_BW_CNT);
        sk->ss_exit_now = true;
    }
    if (b->mode == BBR_DRAIN && sk->flight <= bdp(b, bw, 1))
        enter_probe_bw(b, sk->now_ns);
    /* bbr_update_min_rtt and ProbeRTT */
    bool expired = sk->now_ns - b->min_rtt_stamp > BBR_MIN_RTT_WIN_NS;   /* no overflow near the end of time */
    if (sk->rtt_ms > 0 && (b->min_rtt_ms < 0 || sk->rtt_ms < b->min_rtt_ms || expired)) {
        b->min_rtt_ms = sk->rtt_ms;
        b->min_rtt_stamp = sk->now_ns;
    }
    if (expired && !b->idle_restart && b->mode != BBR_PROBE_RTT && b->min_rtt_stamp) {
        b->mode = BBR_PROBE_RTT;
        b->probe_rtt_round = sk->round;
        b->prior_cwnd = b->prev_ca_state < TN_CA_RECOVERY ? sk->cwnd : fmax(b->prior_cwnd, sk->cwnd);
        b->probe_rtt_done_stamp = 0;
    }
    if (b->mode == BBR_PROBE_RTT) {
        /* Linux waits for its flight to drain to 4 segments under the cap of 4; a replay whose
         * ProbeRTT is not the sender's own moment sees another flight: the cap has drained
         * it once a round has passed */
        if (!b->probe_rtt_done_stamp &&
            (sk->flight <= BBR_CWND_MIN || sk->round != b->probe_rtt_round)) {
            b->probe_rtt_done_stamp = sk->now_ns;   /* held from here for BBR_PROBE_RTT_NS */
            b->probe_rtt_round_done = false;
        } else if (b->probe_rtt_done_stamp) {
            if (sk->round_start)
                b->probe_rtt_round_done = true;
            if (b->probe_rtt_round_done && sk->now_ns - b->probe_rtt_done_stamp > BBR_PROBE_RTT_NS) {
                b->min_rtt_stamp = sk->now_ns;
                sk->cwnd = fmax(sk->cwnd, b->prior_cwnd);
                if (b->full_bw_reached)
                    enter_probe_bw(b, sk->now_ns);
                else
                    b->mode = BBR_STARTUP;
            }
        }
    }
    if (sk->rtt_ms > 0)
        b->idle_restart = false;
    /* bbr_update_gains */
    switch (b->mode) {
    case BBR_STARTUP: b->pacing_gain = b->cwnd_gain = BBR_HIGH_GAIN; break;
    case BBR_DRAIN: b->pacing_gain = BBR_DRAIN_GAIN; b->cwnd_gain = BBR_HIGH_GAIN; break;
    case BBR_PROBE_BW: b->pacing_gain = pacing_gain_cycle[b->cycle_idx]; b->cwnd_gain = BBR_CWND_GAIN; break;
    case BBR_PROBE_RTT: b->pacing_gain = b->cwnd_gain = 1; break;
    }
    /* bbr_set_pacing_rate: before the pipe is full it only goes up */
    double pace = bw * b->pacing_gain * BBR_PACING_MARGIN * sk->mss * 8 * 1000;   /* bit/s */
    if (b->min_rtt_ms <= 0 && sk->srtt_ms > 0)   /* bbr_init_pacing_rate_from_rtt */
        pace = BBR_HIGH_GAIN * TN_CC_IW / sk->srtt_ms * sk->mss * 8 * 1000;
    if (b->full_bw_reached || pace > sk->pacing_bps)
        sk->pacing_bps = pace;
    /* bbr_set_cwnd, with bbr_set_cwnd_to_recover_or_restore */
    if (acked <= 0)
        return;
    double cwnd = sk->cwnd;
    enum tn_ca_state st = sk->state;
    if (st == TN_CA_RECOVERY && b->prev_ca_state != TN_CA_RECOVERY) {
        b->packet_conservation = true;
        b->conservation_round = sk->round;
        cwnd = sk->flight + acked;
    } else if (b->prev_ca_state >= TN_CA_RECOVERY && st < TN_CA_RECOVERY) {
        cwnd = fmax(cwnd, b->prior_cwnd);
        b->packet_conservation = false;
    }
    b->prev_ca_state = st;
    if (b->packet_conservation && sk->round != b->conservation_round)
        b->packet_conservation = false;   /* one round of conservation */
    if (b->packet_conservation) {
        cwnd = fmax(cwnd, sk->flight + acked);
    } else {
        double target = bdp(b, bw, b->cwnd_gain);
        /* bbr_quantization_budget: 3 TSO bursts (at least 2 segments each: about 1 ms at the
         * pacing rate), rounded up to even, 2 more in the probing phase */
        double tso = fmax(2, fmin(floor(sk->pacing_bps / 8 / 1000 / sk->mss), 44));
        target += 3 * tso;
        target = 2 * ceil(target / 2);
        if (b->mode == BBR_PROBE_BW && b->cycle_idx == 0)
            target += 2;
        if (b->full_bw_reached)
            cwnd = fmin(cwnd + acked, target);
        else if (cwnd < target || sk->delivered < TN_CC_IW)
            cwnd = cwnd + acked;
        cwnd = fmax(cwnd, BBR_CWND_MIN);
    }
    if (b->mode == BBR_PROBE_RTT)
        cwnd = fmin(cwnd, BBR_CWND_MIN);
    sk->cwnd = cwnd;
}

/* bbr_ssthresh: remember the window (bbr_save_cwnd), the threshold does not change */
static double bbr_ssthresh(struct tn_cc_sock *sk)
{
    struct bbr *b = TN_CC_PRIV(sk, struct bbr);
    if (b->prev_ca_state < TN_CA_RECOVERY && b->mode != BBR_PROBE_RTT)
        b->prior_cwnd = sk->cwnd;
    else
        b->prior_cwnd = fmax(b->prior_cwnd, sk->cwnd);
    return sk->ssthresh;
}

static void bbr_set_state(struct tn_cc_sock *sk, enum tn_ca_state st)
{
    struct bbr *b = TN_CC_PRIV(sk, struct bbr);
    if (st == TN_CA_LOSS) {
        b->prev_ca_state = TN_CA_LOSS;
        b->full_bw = 0;
    }
}

static void bbr_cwnd_event(struct tn_cc_sock *sk, enum tn_ca_event ev)
{
    struct bbr *b = TN_CC_PRIV(sk, struct bbr);
    if (ev == TN_CA_EVENT_TX_START && sk->idle_ns > 0) {
        b->idle_restart = true;
        if (b->mode == BBR_PROBE_BW)   /* pace at the estimate, no faster, after idle */
            sk->pacing_bps = max_bw(b) * BBR_PACING_MARGIN * sk->mss * 8 * 1000;
    }
}

static double bbr_undo_cwnd(struct tn_cc_sock *sk)
{
    struct bbr *b = TN_CC_PRIV(sk, struct bbr);
    b->full_bw = 0;
    b->full_bw_cnt = 0;
    return sk->cwnd;
}

/* The flight BBR keeps: pacing at gain x bandwidth holds about one BDP in flight, the window
 * (cwnd_gain x BDP + the quantization budget) caps it when ACKs come late or bunched; the
 * flight is the lesser of the paced one (at the RTT seen) and the cap */
static double bbr_target_flight(const struct tn_cc_sock *sk)
{
    const struct bbr *b = TN_CC_PRIV(sk, const struct bbr);
    if (b->mode != BBR_PROBE_BW || sk->srtt_ms <= 0)
        return sk->cwnd;
    return fmin(sk->cwnd, ceil(max_bw(b) * fmax(b->pacing_gain, 1) * sk->srtt_ms));
}

static void bbr_get_info(const struct tn_cc_sock *sk, double *bw_bps, double *min_rtt_ms)
{
    const struct bbr *b = TN_CC_PRIV(sk, const struct bbr);
    *bw_bps = max_bw(b) * sk->mss * 8 * 1000;
    *min_rtt_ms = b->min_rtt_ms;
}

const struct tn_cc_ops tn_cc_bbr_ops = {
    .name = "bbr",
    .kind = "model-based",
    .priv_size = sizeof(struct bbr),
    .init = bbr_init,
    .ssthresh = bbr_ssthresh,
    .cong_control = bbr_cong_control,
    .set_state = bbr_set_state,
    .undo_cwnd = bbr_undo_cwnd,
    .cwnd_event = bbr_cwnd_event,
    .target_flight = bbr_target_flight,
    .get_info = bbr_get_info,
    .signature = "no multiplicative decrease at a loss; flight about one BDP, probing 1.25 x one round in 8; a dip to 4 segments for 200 ms every 10 s (ProbeRTT)",
};
