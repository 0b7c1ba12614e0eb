/* cc_bbr.c - BBR v1 (N. Cardwell, Y. Cheng, C. S. Gunn, S. Hassas Yeganeh, V. Jacobson, "BBR:
 * congestion-based congestion control", ACM Queue 14(5), 2016; Linux 6.x net/ipv4/tcp_bbr.c,
 * whose function names the comments below give): a model of the path, not a reaction to loss.
 * The bottleneck bandwidth is the most delivered per time over the last 10 rounds, the min RTT
 * the least over 10 s; the pacing rate is gain x bandwidth and the window (the inflight cap)
 * cwnd_gain x bandwidth x min RTT, plus the ACK-aggregation allowance (extra_acked) and the
 * quantization budget (3 TSO bursts).  Startup paces at 2/ln 2 = 2.885 until the bandwidth grew
 * less than 25% in 3 rounds, Drain at 1/2.885 until the flight is one BDP, ProbeBW cycles the
 * gains 5/4, 3/4, 1 x 6 a min RTT each, and ProbeRTT, when the min RTT is 10 s old, holds 4
 * segments for 200 ms and a round.  A loss only makes it conserve packets for the first round
 * of recovery (cwnd = packets in flight + acked), then it slow-starts back toward the target,
 * and on leaving recovery the window saved when it began comes back (bbr_save_cwnd).
 * Rounds are BBR's own (bbr_update_bw: a round ends when a segment sent after its start is
 * delivered, SACKed ones too, and one begins when recovery does), not the core's.
 * Not replayed: the long-term (policer) bandwidth (bbr_lt_bw_sampling), the EDT offset of
 * bbr_packets_in_net_at_edt; the losses an ACK marks (rs->losses) are what the sender resent
 * in answer to it;
 * the ProbeBW phase starts at gain 1 (Linux picks it at random, never the 3/4 one).
 * Away from the sender the flight is the monitor's and the ACKs' times are shifted by the
 * reaction estimate: the ACK aggregation and the rate are timed as the monitor saw the ACKs,
 * and where Linux waits for a flight (the end of Drain, ProbeRTT's 4 segments) or an idle
 * sender, the rules below say what else shows it. */
#include <math.h>
#include <stdio.h>

#include "cc.h"

#define BBR_HIGH_GAIN (739.0 / 256)        /* bbr_high_gain: BBR_UNIT * 2885 / 1000 + 1, 2/ln 2 */
#define BBR_DRAIN_GAIN (88.0 / 256)        /* bbr_drain_gain: BBR_UNIT * 1000 / 2885 */
#define BBR_CWND_GAIN 2.0                  /* bbr_cwnd_gain */
#define BBR_CYCLE_LEN 8                    /* CYCLE_LEN */
#define BBR_BW_ROUNDS (BBR_CYCLE_LEN + 2)  /* bbr_bw_rtts */
#define BBR_MIN_RTT_WIN_NS (10 * 1000000000LL)   /* bbr_min_rtt_win_sec */
#define BBR_PROBE_RTT_NS (200 * 1000000LL) /* bbr_probe_rtt_mode_ms */
#define BBR_CWND_MIN 4.0                   /* bbr_cwnd_min_target */
#define BBR_FULL_BW_THRESH 1.25            /* bbr_full_bw_thresh: BBR_UNIT * 5 / 4 */
#define BBR_FULL_BW_CNT 3                  /* bbr_full_bw_cnt */
#define BBR_PACING_MARGIN 0.99             /* bbr_pacing_margin_percent 1 */
#define BBR_MIN_TSO_RATE 1200000.0         /* bbr_min_tso_rate, bit/s */
#define BBR_PACING_SHIFT 10                /* sk_pacing_shift default: ~1 ms of pacing per burst */
#define BBR_GSO_MAX_BYTES (65536 - 1 - 320) /* GSO_LEGACY_MAX_SIZE - 1 - MAX_TCP_HEADER (x86-64) */
#define BBR_TSO_SEGS_MAX 127               /* bbr_tso_segs_goal: min(segs, 0x7F) */
#define BBR_EXTRA_ACKED_WIN_RTTS 5         /* bbr_extra_acked_win_rtts */
#define BBR_EXTRA_ACKED_MAX_MS 100.0       /* bbr_extra_acked_max_us 100 * 1000 */
#define BBR_ACK_EPOCH_RESET (1u << 20)     /* bbr_ack_epoch_acked_reset_thresh */

static const double pacing_gain_cycle[BBR_CYCLE_LEN] = {1.25, 0.75, 1, 1, 1, 1, 1, 1};   /* bbr_pacing_gain */

enum bbr_mode { BBR_STARTUP, BBR_DRAIN, BBR_PROBE_BW, BBR_PROBE_RTT };

struct bbr {
    enum bbr_mode mode;
    double bw[BBR_BW_ROUNDS];  /* the round's most: segments per ms, by rtt_cnt % BBR_BW_ROUNDS */
    unsigned bw_round;
    unsigned rtt_cnt;          /* BBR's packet-timed rounds */
    bool round_start, round_marked;
    double next_rtt_seq;       /* bbr->next_rtt_delivered as a sequence: the round ends when a
                                * segment beyond it is delivered (bytes, relative) */
    double prev_flight;        /* packets in flight before this ACK (after the previous one's sends) */
    double prev_snd_nxt;       /* snd_nxt before this ACK's sends, bytes */
    double prev_delivered;     /* tp->delivered before this ACK, segments */
    bool prev_set;
    double min_rtt_ms;
    int64_t min_rtt_stamp, probe_rtt_done_stamp, cycle_stamp;
    bool probe_rtt_round_done, full_bw_reached, packet_conservation, idle_restart;
    double app_limited_until;  /* tp->app_limited set by ProbeRTT: delivered + in flight */
    double drain_round_flight, drain_round_delivered;   /* at the last round start in Drain */
    double full_bw;
    unsigned full_bw_cnt, cycle_idx;
    double pacing_gain, cwnd_gain, prior_cwnd;
    enum tn_ca_state prev_ca_state;
    /* bbr_update_ack_aggregation */
    int64_t ack_epoch_stamp;
    double ack_epoch_acked, extra_acked[2];
    unsigned extra_acked_win_rtts, extra_acked_win_idx;
};

static double max_bw(const struct bbr *b)
{
    double m = 0;
    for (int i = 0; i < BBR_BW_ROUNDS; i++)
        m = tn_fmax(m, b->bw[i]);
    return m;
}

/* bbr_bdp: bandwidth x min RTT x gain, rounded up; the initial window before any sample */
static double bdp(const struct bbr *b, double bw, double gain)
{
    if (b->min_rtt_ms <= 0)
        return TN_CC_IW;
    return ceil(bw * b->min_rtt_ms * gain - 1e-9);
}

/* bbr_tso_segs_goal (bbr_min_tso_segs): about 1 ms of the pacing rate (sk_pacing_rate >>
 * sk_pacing_shift) in whole segments, at least 2 (1 below bbr_min_tso_rate); Linux ignores the
 * device's TSO/GSO here, so a link without TSO (the lab's veths) budgets the same */
static double tso_segs_goal(const struct tn_cc_sock *sk)
{
    double bytes = tn_fmin(sk->pacing_bps / 8 / (1 << BBR_PACING_SHIFT), BBR_GSO_MAX_BYTES);
    double min_segs = sk->pacing_bps < BBR_MIN_TSO_RATE ? 1 : 2;
    return tn_fmin(tn_fmax(floor(bytes / sk->mss), min_segs), BBR_TSO_SEGS_MAX);
}

/* bbr_quantization_budget: 3 TSO bursts, rounded up to even, 2 more in the probing phase */
static double quantization_budget(const struct tn_cc_sock *sk, const struct bbr *b, double cwnd)
{
    cwnd += 3 * tso_segs_goal(sk);
    cwnd = 2 * ceil(cwnd / 2 - 1e-9);
    if (b->mode == BBR_PROBE_BW && b->cycle_idx == 0)
        cwnd += 2;
    return cwnd;
}

/* bbr_inflight */
static double inflight(const struct tn_cc_sock *sk, const struct bbr *b, double bw, double gain)
{
    return quantization_budget(sk, b, bdp(b, bw, gain));
}

static void bbr_init(struct tn_cc_sock *sk)
{
    struct bbr *b = TN_CC_PRIV(sk, struct bbr);
    b->mode = BBR_STARTUP;
    b->pacing_gain = b->cwnd_gain = BBR_HIGH_GAIN;
    b->min_rtt_ms = -1;
    b->prev_ca_state = TN_CA_OPEN;
    b->ack_epoch_stamp = sk->ack_seen_ns;
}

/* bbr_reset_probe_bw_mode: Linux starts at a random phase other than the draining one; the
 * replay starts at the last cruising phase, so that it probes next */
static void enter_probe_bw(struct bbr *b, int64_t now)
{
    b->mode = BBR_PROBE_BW;
    b->cycle_idx = BBR_CYCLE_LEN - 1;
    b->cycle_stamp = now;
}

/* bbr_update_bw: BBR's round counting and the max filter of the delivery rate (the rate sample
 * is the core's, as Linux's tcp_rate.c hands it to cong_control) */
static void update_bw(struct tn_cc_sock *sk, struct bbr *b)
{
    double delivered_seq = sk->delivered * sk->mss;
    b->round_start = false;
    if (!b->round_marked || delivered_seq > b->next_rtt_seq + 0.5) {
        b->next_rtt_seq = b->prev_set ? b->prev_snd_nxt : (double)sk->snd_nxt;
        b->round_marked = true;
        b->rtt_cnt++;
        b->round_start = true;
        b->packet_conservation = false;
    }
    if (b->rtt_cnt != b->bw_round) {
        b->bw_round = b->rtt_cnt;
        b->bw[b->rtt_cnt % BBR_BW_ROUNDS] = 0;
    }
    double rate = sk->rate;
    bool app_limited = sk->app_limited || sk->delivered < b->app_limited_until;
    if (!app_limited || rate >= max_bw(b))
        b->bw[b->rtt_cnt % BBR_BW_ROUNDS] = tn_fmax(b->bw[b->rtt_cnt % BBR_BW_ROUNDS], rate);
}

/* bbr_update_ack_aggregation: the most delivered beyond bw x the time since the epoch began,
 * over 5-10 rounds */
static void update_ack_aggregation(const struct tn_cc_sock *sk, struct bbr *b, double acked, double bw)
{
    if (acked <= 0)
        return;
    if (b->round_start) {
        b->extra_acked_win_rtts = b->extra_acked_win_rtts + 1 < 0x1F ? b->extra_acked_win_rtts + 1 : 0x1F;
        if (b->extra_acked_win_rtts >= BBR_EXTRA_ACKED_WIN_RTTS) {
            b->extra_acked_win_rtts = 0;
            b->extra_acked_win_idx ^= 1;
            b->extra_acked[b->extra_acked_win_idx] = 0;
        }
    }
    double epoch_ms = (double)(sk->ack_seen_ns - b->ack_epoch_stamp) / 1e6;
    double expected = floor(bw * epoch_ms);
    if (b->ack_epoch_acked <= expected || b->ack_epoch_acked + acked >= BBR_ACK_EPOCH_RESET) {
        b->ack_epoch_acked = 0;
        b->ack_epoch_stamp = sk->ack_seen_ns;
        expected = 0;
    }
    b->ack_epoch_acked = tn_fmin(0xFFFFF, b->ack_epoch_acked + acked);
    double extra = tn_fmin(b->ack_epoch_acked - expected, sk->cwnd);
    if (extra > b->extra_acked[b->extra_acked_win_idx])
        b->extra_acked[b->extra_acked_win_idx] = extra;
}

/* bbr_ack_aggregation_cwnd */
static double ack_aggregation_cwnd(const struct bbr *b, double bw)
{
    if (!b->full_bw_reached)
        return 0;
    return tn_fmin(floor(tn_fmax(b->extra_acked[0], b->extra_acked[1])), floor(bw * BBR_EXTRA_ACKED_MAX_MS));
}

/* bbr_save_cwnd: the "last known good" window, for after a recovery or ProbeRTT */
static void save_cwnd(const struct tn_cc_sock *sk, struct bbr *b)
{
    if (b->prev_ca_state < TN_CA_RECOVERY && b->mode != BBR_PROBE_RTT)
        b->prior_cwnd = sk->cwnd;
    else
        b->prior_cwnd = tn_fmax(b->prior_cwnd, sk->cwnd);
}

static void bbr_cong_control(struct tn_cc_sock *sk)
{
    struct bbr *b = TN_CC_PRIV(sk, struct bbr);
    /* rs->acked_sacked: the segments this ACK delivered, each once (tp->delivered's step): a
     * cumulative ACK over segments SACKed before delivers only the ones it fills */
    double acked = b->prev_set ? tn_fmax(0, sk->delivered - b->prev_delivered) : sk->acked;
    b->prev_delivered = tn_fmax(b->prev_delivered, sk->delivered);
    /* packets in flight before this ACK (rs->prior_in_flight) and after it, before the sender
     * answers it (tcp_packets_in_flight when cong_control runs): the core's flight is the one
     * after the sender's answer */
    double prior_in_flight = b->prev_set ? b->prev_flight : sk->flight;
    enum tn_ca_state st = sk->state;
    bool entering = st == TN_CA_RECOVERY && b->prev_ca_state != TN_CA_RECOVERY;
    /* rs->losses: what the sender marked lost on this ACK, seen as what it resent in answer;
     * recovery begins with at least one (tcp_enter_recovery after tcp_time_to_recover) */
    double losses = entering ? tn_fmax(sk->losses, 1) : sk->losses;
    double in_flight = tn_fmax(0, prior_in_flight - acked - losses);
    /* bbr_update_model */
    update_bw(sk, b);
    double bw = max_bw(b);   /* the filter changes only in update_bw */
    update_ack_aggregation(sk, b, acked, bw);
    /* bbr_update_cycle_phase / bbr_is_next_cycle_phase */
    if (b->mode == BBR_PROBE_BW && b->min_rtt_ms > 0) {
        bool full = sk->now_ns - b->cycle_stamp > (int64_t)(b->min_rtt_ms * 1e6);
        double g = b->pacing_gain, infl = prior_in_flight;
        if (g > 1)
            infl += tso_segs_goal(sk);   /* bbr_packets_in_net_at_edt: the EDT skb */
        bool next = g == 1 ? full
                           : g > 1 ? full && (losses > 0 || infl >= inflight(sk, b, bw, g))
                                   : full || infl <= inflight(sk, b, bw, 1);
        if (next) {
            b->cycle_idx = (b->cycle_idx + 1) % BBR_CYCLE_LEN;
            b->cycle_stamp = sk->now_ns;
        }
    }
    /* bbr_check_full_bw_reached, once a round */
    bool app_limited = sk->app_limited || sk->delivered < b->app_limited_until;
    if (!b->full_bw_reached && b->round_start && !app_limited) {
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
        sk->ssthresh = inflight(sk, b, bw, 1);
        snprintf(sk->ss_exit_why, sizeof sk->ss_exit_why,
                 "BBR: bandwidth grew less than 25%% in %d rounds, Startup -> Drain", BBR_FULL_BW_CNT);
        sk->ss_exit_now = true;
    }
    if (b->mode == BBR_DRAIN) {
        /* Paced at 1/2.885 of the delivery rate, a sender in Drain sends a third of what a
         * round delivers, so its flight falls by two thirds of that every round until it
         * leaves.  Away from the sender the flight is the monitor's (off by the reaction
         * estimate, which lags the draining queue): a round whose flight fell less than half
         * of that says the sender has left Drain too. */
        bool flat = false;
        if (b->round_start) {
            if (b->drain_round_flight > 0)
                flat = b->drain_round_flight - in_flight <
                       0.5 * (1 - BBR_DRAIN_GAIN) * (sk->delivered - b->drain_round_delivered);
            b->drain_round_flight = in_flight;
            b->drain_round_delivered = sk->delivered;
        }
        if (in_flight <= inflight(sk, b, bw, 1) || flat)
            enter_probe_bw(b, sk->now_ns);
    }
    /* bbr_update_min_rtt and ProbeRTT */
    bool expired = sk->now_ns - b->min_rtt_stamp > BBR_MIN_RTT_WIN_NS;   /* no overflow near the end of time */
    if (sk->rtt_ms > 0 && (b->min_rtt_ms < 0 || sk->rtt_ms <= b->min_rtt_ms || expired)) {
        b->min_rtt_ms = sk->rtt_ms;
        b->min_rtt_stamp = sk->now_ns;
    }
    if (expired && !b->idle_restart && b->mode != BBR_PROBE_RTT && b->min_rtt_stamp) {
        b->mode = BBR_PROBE_RTT;
        save_cwnd(sk, b);
        b->probe_rtt_done_stamp = 0;
    }
    if (b->mode == BBR_PROBE_RTT) {
        b->app_limited_until = sk->delivered + tn_fmax(in_flight, 1);   /* ignore its low rate samples */
        /* Linux waits for its flight to drain to 4 segments under the cap of 4; a replay whose
         * ProbeRTT is not the sender's own moment sees another flight: the cap has drained
         * it once a round has passed */
        if (!b->probe_rtt_done_stamp && (in_flight <= BBR_CWND_MIN || b->round_start)) {
            b->probe_rtt_done_stamp = sk->now_ns + BBR_PROBE_RTT_NS;
            b->probe_rtt_round_done = false;
            b->next_rtt_seq = b->prev_set ? b->prev_snd_nxt : (double)sk->snd_nxt;
        } else if (b->probe_rtt_done_stamp) {
            if (b->round_start)
                b->probe_rtt_round_done = true;
            /* bbr_check_probe_rtt_done */
            if (b->probe_rtt_round_done && sk->now_ns > b->probe_rtt_done_stamp) {
                b->min_rtt_stamp = sk->now_ns;
                sk->cwnd = tn_fmax(sk->cwnd, b->prior_cwnd);
                if (b->full_bw_reached)
                    enter_probe_bw(b, sk->now_ns);
                else
                    b->mode = BBR_STARTUP;
            }
        }
    }
    if (acked > 0)
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
    double snd_nxt_before = b->prev_set ? b->prev_snd_nxt : (double)sk->snd_nxt;
    b->prev_flight = sk->flight;
    b->prev_snd_nxt = (double)sk->snd_nxt;
    b->prev_set = true;
    /* bbr_set_cwnd */
    double cwnd = sk->cwnd;
    if (acked <= 0)
        goto done;   /* no packet fully ACKed; just apply caps */
    /* bbr_set_cwnd_to_recover_or_restore: an ACK for P segments releases at most 2 P, the
     * lost ones deducted first */
    if (losses > 0)
        cwnd = tn_fmax(cwnd - losses, 1);
    if (entering) {
        b->packet_conservation = true;   /* the first round of recovery, which starts now */
        b->next_rtt_seq = snd_nxt_before;
        cwnd = in_flight + acked;        /* cut what the application, TSQ or TSO left unused */
    } else if (b->prev_ca_state >= TN_CA_RECOVERY && st < TN_CA_RECOVERY) {
        cwnd = tn_fmax(cwnd, b->prior_cwnd);   /* leaving recovery: the window saved at its start */
        b->packet_conservation = false;
    }
    b->prev_ca_state = st;
    if (b->packet_conservation) {
        cwnd = tn_fmax(cwnd, in_flight + acked);
        goto done;
    }
    double target = bdp(b, bw, b->cwnd_gain);
    target += ack_aggregation_cwnd(b, bw);
    target = quantization_budget(sk, b, target);
    if (b->full_bw_reached)   /* slow-start up toward the target, or snap down to it */
        cwnd = tn_fmin(cwnd + acked, target);
    else if (cwnd < target || sk->delivered < TN_CC_IW)
        cwnd = cwnd + acked;
    cwnd = tn_fmax(cwnd, BBR_CWND_MIN);
done:
    if (b->mode == BBR_PROBE_RTT)   /* drain the queue, refresh min_rtt */
        cwnd = tn_fmin(cwnd, BBR_CWND_MIN);
    sk->cwnd = cwnd;
}

/* bbr_ssthresh: remember the window (bbr_save_cwnd), the threshold does not change */
static double bbr_ssthresh(struct tn_cc_sock *sk)
{
    save_cwnd(sk, TN_CC_PRIV(sk, struct bbr));
    return sk->ssthresh;
}

/* bbr_set_state: a timeout is the end of a round and resets the full-pipe detection */
static void bbr_set_state(struct tn_cc_sock *sk, enum tn_ca_state st)
{
    struct bbr *b = TN_CC_PRIV(sk, struct bbr);
    if (st == TN_CA_LOSS) {
        b->prev_ca_state = TN_CA_LOSS;
        b->full_bw = 0;
        b->round_start = true;
    }
}

/* bbr_cwnd_event: restarting from idle */
static void bbr_cwnd_event(struct tn_cc_sock *sk, enum tn_ca_event ev)
{
    struct bbr *b = TN_CC_PRIV(sk, struct bbr);
    /* Linux restarts from idle (tp->app_limited at CA_EVENT_TX_START) when nothing was in
     * flight; the driver tells it only then, from what the sender could have seen
     * (tn_ep_idle_check, tcp_event_data_sent) */
    if (ev == TN_CA_EVENT_TX_START && sk->idle_ns > 0) {
        b->idle_restart = true;
        b->ack_epoch_stamp = sk->ack_seen_ns;
        b->ack_epoch_acked = 0;
        if (b->mode == BBR_PROBE_BW)   /* pace at the estimate, no faster, after idle */
            sk->pacing_bps = max_bw(b) * BBR_PACING_MARGIN * sk->mss * 8 * 1000;
    }
}

/* bbr_undo_cwnd */
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
    return tn_fmin(sk->cwnd, ceil(max_bw(b) * tn_fmax(b->pacing_gain, 1) * sk->srtt_ms));
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
    .checked = "kernel tcp_probe of samples/bbr-loss1-owd10 at the sender, router and receiver captures (tests/unit/check_truth.c)",
    .signature = "no multiplicative decrease at a loss; flight about one BDP, probing 1.25 x one round in 8; a dip to 4 segments for 200 ms every 10 s (ProbeRTT)",
};
