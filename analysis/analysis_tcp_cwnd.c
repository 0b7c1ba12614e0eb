/* analysis_tcp_cwnd.c - congestion-window estimates: the sender's state machine replayed from
 * the ACKs seen, once per flavour of analysis/cc/flavours.def, side by side.  This file is the
 * part of Linux's TCP core a congestion module relies on (net/ipv4/tcp_input.c, tcp_output.c):
 * when the window may grow (tcp_is_cwnd_limited, RFC 7661), proportional rate reduction during
 * recovery (RFC 6937), the end of a reduction, the timeout, the restart after idle (RFC 2861,
 * tcp_cwnd_restart); the flavours (analysis/cc/cc_*.c) do the rest through their ops.
 * Windows are kept in segments, like Linux. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"
#include "cc/cc.h"

#define NFLAV (TN_CC_COUNT - 1)
#define SS_ROUNDS 4                 /* rounds of slow growth that mean slow start is over */
#define SS_GROWTH 1.25              /* slow start at least doubles the flight per round (1.5 with
                                     * delayed ACKs counted per ACK); below this it is not */
#define KNEE_FLAT 2.0               /* segments a round in congestion avoidance may add right
                                     * after a recovery and still count as flat: Reno's one
                                     * (RFC 5681 §3.1) and the flight's one-segment resolution */
#define BETA_MIN_WINDOW 8.0         /* decreases measured on windows of 8 segments or more, where
                                     * one segment does not blur them (as the observed ones) */
#define OL_SLACK 3.0                /* segments below the replay's window a flight still counts as
                                     * filling it, for the open-loop copies' growth (no Linux
                                     * rule: the replay's window is an estimate; see cwnd_validate) */

static const struct tn_cc_ops *const flavour_ops[NFLAV] = {
#define TN_CC_FLAVOUR(ID, id, desc) &tn_cc_##id##_ops,
#include "cc/flavours.def"
#undef TN_CC_FLAVOUR
};

/* A step series kept as its corners: a point when the value changes, and the last value just
 * before the change, so drawing it point to point gives the per-ACK picture. */
struct step {
    struct tn_series s;
    double last_v;
    int64_t last_t;
    bool any;
};

struct ss_exit {
    bool set;
    int64_t t_ns;
    uint64_t pkt;
    int64_t una;
    char why[96];
};

/* Linux's record of how the sender used its window, kept per window of data rather than per
 * ACK (tcp_cwnd_validate, RFC 7661): tp->is_cwnd_limited, max_packets_out, cwnd_usage_seq. */
struct cwnd_use {
    bool limited;              /* a send of the current window found the flight at cwnd */
    double max_out;            /* the flight after the send that began it, or a larger one since
                                * while not limited, segments */
    int64_t seq;               /* snd_nxt then: the window ends when una reaches it */
};

struct flavour_run {
    const struct tn_cc_ops *ops;
    struct tn_cc_sock sk;
    bool in_model;             /* allocated with its model (tn_cc_new), not on its own */
    bool in_recovery;          /* fast recovery under way (PRR) */
    enum tn_ca_state ended_state;   /* the state the last episode ended, for its last ACK */
    double recover_fs, prr_delivered, prr_out;
    double *flights;           /* the flight at each ACK the replay is fitted on, segments */
    size_t nfl, cap_fl;
    double *beta;              /* cwnd after / flight before each fast recovery, as replayed */
    bool beta_pending;
    double beta_next;          /* the flavour's own decrease at the last loss (own_decrease) */
    long beta_slot;            /* BBR: the slot its decrease goes to, on the ACK after */
    size_t nbeta, cap_beta;
    struct step *cw, *ss;      /* the window and ssthresh series, when recorded */
    struct ss_exit exit;       /* the first time it left slow start without a loss */
    /* the open-loop copy: the flavour alone since the last reduction (no correction from the
     * flight), compared with each window-clocked round's largest flight: the growth shape */
    struct tn_cc_sock ol;
    bool ol_on;
    double *oerr;
    size_t noerr, cap_oerr;
    /* whether the window limits the sender, per window of data (cwnd_validate): the replay's
     * own (Linux's rule, its growth), and the open-loop copies' (OL_SLACK, their growth) */
    struct cwnd_use use, use_ol;
    int64_t sent_nxt;          /* snd_nxt at the last ACK: new data beyond it is a transmission */
    bool ol_limited;           /* the copy grows on this ACK */
};

/* What the core worked out from one ACK, the same for every flavour. */
struct ack_ctx {
    double segs, flight, pipe;
    double sent_out, sent_out_r;   /* cwnd_validate's flight, and rounded (the same for all) */
    /* what every flavour's socket is told, struct tn_cc_sock's bytes from now_ns on (only
     * those: the inputs are logged for the deferred flavours) */
    _Alignas(8) unsigned char in[TN_CC_ACK_BLOCK];
    double newly;              /* segments newly delivered (Linux tp->delivered's step: without
                                * SACK a duplicate ACK is one, tcp_add_reno_sack) */
    bool fit_round;            /* a window-clocked round ended: the open-loop copies are
                                * compared with its largest flight (top) */
    double top;
    double unseen_top;         /* > 0: the flight grew too slowly for slow start for SS_ROUNDS
                                * rounds up to this (slow_start_ended_unseen) */
    bool knee;                 /* the window stopped slow-starting after a fast recovery (the
                                * sender's ssthresh, see struct tn_cc_model): the open-loop
                                * copies start from here */
    bool midflow_first;        /* the first ACK of a sender whose start was not seen */
    double midflow_sync;       /* > 0: the first round of such a sender ended at this window */
};

/* What the sender did, as the flavours are told it: kept in order for the flavours that are
 * replayed later (see struct tn_cc_model). */
enum cc_op { OP_ACK, OP_LOSS, OP_RECOVERY_END, OP_IDLE, OP_SYN_TIMEOUT, OP_CWR, OP_RECORD };

struct cc_input {
    enum cc_op op;
    int64_t t_ns;
    bool timeout;
    double v1, v2;             /* LOSS: flight, window bytes; IDLE: idle ms, rto ms;
                                * RECOVERY_END: slot + 1 of its decrease; RECORD: none (a
                                * point of each window series at t_ns, tn_cc_record) */
    struct tn_cc_ack a;        /* ACK */
    struct ack_ctx x;
};

/* The flavours checked against ground truth (tn_cc_ops.checked: those the classifier may name,
 * and whose windows the rate limiter and the live view read) are replayed on every ACK from
 * the start.  The others only matter to the classifier's evidence, and only once a flow shows
 * enough to score them (TN_CC_MIN_FIT rounds or a loss): their inputs are kept in a short log,
 * and they are created and fed it when the log is full or at the end if the flow can be
 * scored, their window series' points with it (OP_RECORD).  A short connection so never
 * carries the other flavours, nor their series. */
#define DEFER_LOG_MAX 32
#define RATE_HIST_MAX 64        /* (time, delivered) of recent ACKs, for the rate sample */

struct tn_cc_model {
    double mss;
    double min_rtt_ms, srtt_ms;
    double min_srtt_ms;        /* the least smoothed RTT (Hybla's rho is taken from it) */
    double flight_max;         /* the largest flight outside episodes since the first one
                                * ended (slow start, before it, is the same in every
                                * loss-based flavour: Linux tcp_slow_start), segments */
    bool lost;                 /* an episode (recovery, timeout) ended */
    double delivered;
    /* rounds of one window (Linux hystart_update, bbr round counting): a round ends when the
     * ACKs pass the highest sequence sent when it began */
    unsigned round;
    int64_t round_end_seq, round_start_ns;
    /* the largest flight of each of the last rounds, to see a slow start that ended unseen */
    double round_flight, round_hist[SS_ROUNDS];
    double round_pipe_min;     /* the smallest pipe after an ACK in this round */
    double round_sent_min;     /* the smallest pipe right after a send in this round: the
                                * window when the round began, where the window only grows */
    double last_sent_min;      /* that of the last round that ended */
    bool round_rwnd;           /* the receiver's window bounded the flight in this round */
    unsigned rounds_clean;     /* consecutive finished rounds the window clocked: not bounded
                                * by the receiver, and the pipe never fell below half its top
                                * (an application that pauses drains it) */
    bool ss_exit_pending;      /* a flavour left slow start early on the last ACK */
    char ss_exit_why[96];
    /* Vegas's rule seen in the flight (queue_rule): this round's least RTT sample, whether a
     * loss, an episode, an idle restart or a CWR touched it, the last round's top and the
     * segments it held in the queue when it counts (top 0: it does not), and the rounds after
     * one that held more than Vegas's beta whose window fell or rose */
    double round_rtt_min;
    bool round_disturbed;
    double q_prev_top, q_prev_diff;
    unsigned q_falls, q_rises;
    unsigned q_fall_sizes[TN_CC_FALL_SIZES];
    /* BBR signatures in the flight itself: ProbeRTT dips (at most 4 segments for 200 ms) */
    int64_t dip_start_ns, dip_ack_ns, last_dip_ns;
    unsigned dips;
    /* The decrease at a loss as the sender's new ssthresh shows it.  After a fast recovery the
     * window is ssthresh (RFC 5681 §3.2, RFC 6937), or less when the sender moderated it to the
     * flight (Linux before 3.2: tcp_moderate_cwnd, rate halving) and then slow-starts back to
     * ssthresh (RFC 5681 §3.1: cwnd < ssthresh).  Either way the first round after the
     * recovery whose largest flight grew by less than SS_GROWTH over the round before has
     * reached ssthresh: that flight over the flight at the loss is the flavour's decrease. */
    double knee_before;        /* the flight when the loss was seen, segments (0: none) */
    unsigned knee_round;       /* > 0: look for the knee from this round on */
    bool knee_ca;              /* the last round grew too little for slow start */
    double end_flight;         /* the flight the recovery left: the largest of the ACK that
                                * ended it and the next one (the sends that ACK released) */
    unsigned end_acks;         /* ACKs of end_flight still to see */
    double *knees;             /* per slot (one per such recovery), -1 until seen */
    double *knee_win;          /* per slot: the window at the loss, segments */
    size_t nknees, cap_knees, cap_win, knee_slot;
    /* The window of the last loss in slow start, while the recoveries since have not cut the
     * flight (tn_cc_on_cut): a loss at that window is still the end of the slow start (0: none) */
    double ss_loss_w;
    bool ss_cut_pending;
    /* The largest flight outside episodes since the last one ended, and the round it ended
     * in: a loss within a round of that end measures its window from these ACKs, not from
     * the rounds that held the recovery's flight (tn_cc_on_loss) */
    double post_ep_flight;
    unsigned ep_end_round;       /* the recovery of such a loss has not yet shown its flight after */
    /* the rate sample's history: a ring grown up to RATE_HIST_MAX */
    int64_t *hist_t;
    double *hist_d;
    uint64_t hist_n;           /* entries ever kept */
    uint64_t hist_back;        /* the last entry kept earlier than the one before it (0: none) */
    unsigned hist_cap;
    /* the flavours not yet replayed, and what they will be told */
    bool deferred_on;          /* every flavour is replayed */
    struct cc_input *log;
    size_t nlog, cap_log;
    struct flavour_run *f[NFLAV];
    int estimate;              /* after tn_cc_finish: the flavour whose window is the estimate */
    /* A capture begun mid-flow (tn_cc_start_unseen): the sender's window and ssthresh before
     * it are unknown, and so is the state of its flavour.  The replay follows the flight in
     * congestion avoidance (no slow start assumed: a long-lived sender has mostly left it)
     * and takes the window the first whole round showed; nothing is estimated before. */
    bool start_unseen, synced;
    unsigned seen_round;       /* the round of the first ACK after which all in flight was seen */
    double seen_top;           /* this round's largest flight, and whether an episode touched it */
    bool seen_disturbed;
};

static bool is_live(const struct tn_cc_ops *ops)
{
    return ops->checked != NULL;
}

/* The flavour state (priv) of the replay and of its open-loop copy lie after the run. */
#define PRIV_ALIGN 16
#define ROUND_UP(n) (((n) + PRIV_ALIGN - 1) / PRIV_ALIGN * PRIV_ALIGN)

/* *dst = *src with dst's own flavour state (the open-loop copy of the replay) */
static void copy_sock(struct tn_cc_sock *dst, const struct tn_cc_sock *src, size_t priv_size)
{
    void *priv = dst->priv;
    *dst = *src;
    dst->priv = priv;
    if (priv_size)
        memcpy(priv, src->priv, priv_size);
}

/* A reduction is over (or the window was set anew): the open-loop copy starts from here. */
static void restart_open_loop(struct flavour_run *r)
{
    copy_sock(&r->ol, &r->sk, r->ops->priv_size);
    r->ol_on = true;
}

static size_t run_size(const struct tn_cc_ops *ops)
{
    return ROUND_UP(sizeof(struct flavour_run)) + 2 * ROUND_UP(ops->priv_size);
}

/* A run in zeroed memory of run_size(ops) bytes: the run, then its two flavour states. */
static struct flavour_run *run_init(unsigned char *mem, const struct tn_cc_ops *ops, double mss)
{
    size_t head = ROUND_UP(sizeof(struct flavour_run)), priv = ROUND_UP(ops->priv_size);
    struct flavour_run *r = (struct flavour_run *)(void *)mem;
    r->ops = ops;
    r->sk.priv = mem + head;
    r->ol.priv = mem + head + priv;
    r->sk.cwnd = TN_CC_IW;
    r->sk.ssthresh = INFINITY;
    r->sk.mss = mss;
    r->sk.min_rtt_ms = r->sk.srtt_ms = r->sk.rtt_ms = -1;
    if (ops->init)
        ops->init(&r->sk);
    copy_sock(&r->ol, &r->sk, ops->priv_size);
    r->ol_on = true;
    return r;
}

static struct flavour_run *run_new(const struct tn_cc_ops *ops, double mss)
{
    return run_init(tn_xcalloc(1, run_size(ops)), ops, mss);
}

static void run_free(struct flavour_run *r)
{
    if (!r)
        return;
    free(r->flights);
    free(r->beta);
    free(r->oerr);
    if (r->cw) {
        free(r->cw->s.pts);
        free(r->ss->s.pts);
        free(r->cw);
    }
    if (!r->in_model)
        free(r);
}

/* The model and the runs of the flavours replayed from the first ACK in one allocation: every
 * sender has them. */
struct tn_cc_model *tn_cc_new(uint32_t mss)
{
    size_t size = ROUND_UP(sizeof(struct tn_cc_model));
    for (int i = 0; i < NFLAV; i++)
        if (is_live(flavour_ops[i]))
            size += run_size(flavour_ops[i]);
    unsigned char *mem = tn_xcalloc(1, size);
    struct tn_cc_model *m = (struct tn_cc_model *)(void *)mem;
    m->mss = mss ? mss : 1448;
    m->min_rtt_ms = m->srtt_ms = m->min_srtt_ms = -1;
    m->estimate = TN_CC_CUBIC - 1;
    size_t at = ROUND_UP(sizeof(struct tn_cc_model));
    for (int i = 0; i < NFLAV; i++)
        if (is_live(flavour_ops[i])) {
            m->f[i] = run_init(mem + at, flavour_ops[i], m->mss);
            m->f[i]->in_model = true;
            at += run_size(flavour_ops[i]);
        }
    return m;
}

void tn_cc_start_unseen(struct tn_cc_model *m)
{
    m->start_unseen = true;
}

void tn_cc_free(struct tn_cc_model *m)
{
    if (!m)
        return;
    for (int i = 0; i < NFLAV; i++)
        run_free(m->f[i]);
    free(m->log);
    free(m->hist_t);
    free(m->hist_d);
    free(m->knees);
    free(m->knee_win);
    free(m);
}

/* Vegas (Brakmo, Peterson 1995; Linux tcp_vegas.c, and ns-2 2.35's copy of Linux 2.6.22's)
 * once a round takes the segments its last round held in the bottleneck queue, diff = that
 * window x (1 - baseRTT / rtt), rtt the round's least sample and baseRTT the least ever (2.6.22:
 * old_wnd - target_cwnd; 6.x: cwnd (rtt - baseRTT) / baseRTT, which is larger), and above
 * beta = 4 segments (both: 4 << V_PARAM_SHIFT, and 4) takes one segment off the window for the
 * next round.  No loss-based flavour lowers its window without a loss, an idle restart or a
 * CWR (RFC 5681 §3.1: congestion avoidance only grows it).  So for each round after one that
 * held more than beta, both window-clocked and untouched by those: did the window fall (Vegas)
 * or rise (loss-based)?  The flight is compared in whole segments (Vegas's step is one). */
#define VEGAS_BETA 4.0

static void queue_rule(struct tn_cc_model *m, bool clocked)
{
    double top = m->round_flight;
    bool ok = clocked && !m->round_disturbed && isfinite(m->round_rtt_min) && m->min_rtt_ms > 0;
    if (ok && m->q_prev_top > 0 && m->q_prev_diff > VEGAS_BETA) {
        if (tn_round(top) < tn_round(m->q_prev_top)) {
            m->q_falls++;
            double k = tn_round(m->q_prev_top) - tn_round(top);
            m->q_fall_sizes[k < TN_CC_FALL_SIZES - 1 ? (unsigned)k : TN_CC_FALL_SIZES - 1]++;
        }
        else if (tn_round(top) > tn_round(m->q_prev_top))
            m->q_rises++;
    }
    m->q_prev_top = ok ? top : 0;
    m->q_prev_diff = ok ? top * (1 - m->min_rtt_ms / m->round_rtt_min) : 0;
}

/* Returns whether a round just ended; keeps each round's largest flight. */
static bool next_round(struct tn_cc_model *m, const struct tn_cc_ack *a, int64_t una)
{
    bool ended = false;
    if (!m->round_end_seq || una >= m->round_end_seq) {   /* a new round begins */
        ended = m->round_end_seq != 0;
        if (ended) {
            memmove(m->round_hist, m->round_hist + 1, (SS_ROUNDS - 1) * sizeof *m->round_hist);
            m->round_hist[SS_ROUNDS - 1] = m->round_flight;
            bool clocked = !m->round_rwnd && m->round_pipe_min >= 0.5 * m->round_flight;
            m->rounds_clean = clocked ? m->rounds_clean + 1 : 0;
            m->last_sent_min = m->round_sent_min;
            queue_rule(m, clocked);
        }
        m->round_rtt_min = INFINITY;
        m->round_disturbed = false;
        m->round_flight = 0;
        m->round_pipe_min = INFINITY;
        m->round_sent_min = INFINITY;
        m->round_rwnd = false;
        m->round_end_seq = a->snd_nxt;
        m->round_start_ns = a->t_ns;
        m->round++;
    }
    return ended;
}

const char *tn_cc_hystart_exit(struct tn_cc_model *m)
{
    if (!m->ss_exit_pending)
        return NULL;
    m->ss_exit_pending = false;
    return m->ss_exit_why;
}

/* The first exit from slow start without a loss; a flavour the classifier may name also
 * raises the slow-start-end event (tn_cc_hystart_exit), the others are only kept. */
static void note_ss_exit(struct tn_cc_model *m, struct flavour_run *r, const struct tn_cc_ack *a)
{
    r->sk.ss_exit_now = false;
    if (r->exit.set)
        return;
    r->exit = (struct ss_exit){.set = true, .t_ns = a->t_ns, .pkt = a->pkt,
                               .una = a->snd_nxt - (int64_t)a->flight_now};
    snprintf(r->exit.why, sizeof r->exit.why, "%s: %s", r->ops->name, r->sk.ss_exit_why);
    if (!m->ss_exit_pending && is_live(r->ops)) {
        m->ss_exit_pending = true;
        snprintf(m->ss_exit_why, sizeof m->ss_exit_why, "%s", r->exit.why);
    }
}

/* Proportional rate reduction as Linux's tcp_cwnd_reduction (3.2 on; RFC 6937): cwnd = pipe +
 * sndcnt, where above ssthresh sndcnt is ssthresh/prior_cwnd of all delivered since the
 * recovery began less all sent since (prr_out), and at or below it what was delivered and not
 * yet sent again, at least this ACK's, one more when the cumulative ACK advanced and nothing
 * was newly lost (PRR-SSRB), at most what takes the pipe to ssthresh.  Sends short of sndcnt
 * (the receiver's window, the application) leave their credit: with the flight held by the
 * receiver's window the window stays where it was (dumbbell-cubic-oldrcv's second flow:
 * tcp_probe 41 through its recovery, where the replay went from 41 to 3), and a pipe emptied
 * by a burst of losses is refilled up to ssthresh within the recovery (cubic-bdp-owd40: 434
 * -> 580).  An ACK that delivers nothing leaves the window.
 * A trace without TCP options is ns-2's, whose Agent/TCP/Linux runs Linux 2.6.2x's recovery
 * (rate halving, tcp_moderate_cwnd to the flight: no PRR, no credit): there the window
 * follows the pipe, ssthresh/RecoverFS of each ACK's delivery above ssthresh, and one
 * segment more than delivered below it. */
static void prr_ack(struct flavour_run *r, const struct tn_cc_ack *a, double delivered, double pipe)
{
    struct tn_cc_sock *sk = &r->sk;
    double snd;
    if (a->legacy_recovery) {
        if (pipe > sk->ssthresh)
            snd = delivered * sk->ssthresh / (r->recover_fs > 0 ? r->recover_fs : sk->prior_cwnd);
        else
            snd = tn_fmin(sk->ssthresh - pipe, delivered + 1);
        double w = pipe + (snd > 0 ? snd : 0);
        sk->cwnd = w < 1 ? 1 : w;
        return;
    }
    if (delivered <= 0)
        return;
    r->prr_delivered += delivered;
    double prior = sk->prior_cwnd > 0 ? sk->prior_cwnd : sk->cwnd;
    double delta = sk->ssthresh - pipe;
    if (delta < 0) {
        snd = ceil(sk->ssthresh * r->prr_delivered / prior) - r->prr_out;
    } else {
        snd = tn_fmax(r->prr_delivered - r->prr_out, delivered);
        if (a->acked > 0 && a->resent == 0)   /* FLAG_SND_UNA_ADVANCED && !newly_lost */
            snd += 1;
        snd = tn_fmin(delta, snd);
    }
    snd = tn_fmax(snd, r->prr_out > 0 ? 0 : 1);   /* the fast retransmit on entering */
    double w = pipe + snd;
    sk->cwnd = w < 1 ? 1 : w;
}

/* An ACK the replay is fitted on: its flight sets the resolution of the decrease test. */
static void fit(struct flavour_run *r, double flight_segs)
{
    tn_grow((void **)&r->flights, &r->cap_fl, r->nfl + 1, sizeof *r->flights);
    r->flights[r->nfl++] = flight_segs;
}

/* A slow start that ended unseen: the replay is still in slow start, but the flight of the
 * last SS_ROUNDS rounds grew, and by less than SS_GROWTH a round, and stays below two thirds
 * of the window - a window-limited sender in slow start would double it.  The sender left slow
 * start on a loss the monitor could not see (the first segment lost before a receiver-side
 * monitor, repaired by a probe), or by an exit we do not replay: continue from the flight.
 * The flight's part, the same for every flavour: > 0 the top of the last round, if it holds. */
static double slow_growth_top(const struct tn_cc_model *m)
{
    if (m->rounds_clean < SS_ROUNDS)
        return 0;
    const double *h = m->round_hist;
    for (int i = 0; i < SS_ROUNDS; i++)
        if (h[i] < 4 || (i && h[i] > SS_GROWTH * h[i - 1]))
            return 0;
    return h[SS_ROUNDS - 1] > h[0] ? h[SS_ROUNDS - 1] : 0;
}

static bool slow_start_ended_unseen(const struct flavour_run *r, const struct ack_ctx *x)
{
    return x->unseen_top > 0 && tn_cc_in_slow_start(&r->sk) && !r->in_recovery &&
           r->sk.cwnd > 1.5 * x->unseen_top;
}

/* ProbeRTT (Linux tcp_bbr.c: bbr_probe_rtt_mode_ms 200, bbr_cwnd_min_target 4) drains the
 * flight to 4 segments for 200 ms; counted once per dip, dips at least 5 s apart (the
 * min_rtt window is 10 s: bbr_min_rtt_win_sec), from a flight of at least 3 x 4 segments the
 * round before it began (a sender that never had more is no dip).  The dip lasts from the
 * ACK on which the flight reached 4 segments (bbr_update_min_rtt sets probe_rtt_done_stamp
 * 200 ms on) to the ACK on which BBR leaves ProbeRTT (bbr_check_probe_rtt_done, once that
 * stamp has passed and a round has ended), whose answer takes the flight above 4 again:
 * inside it the ACKs come one round trip apart, so the last ACK with 4 segments in flight can
 * be up to a round trip before the 200 ms are over.  They do come, at least once a round trip
 * (4 segments in flight, each ACKed in the round; the min RTT at once, the queue being
 * drained): a silence of more than two least RTTs (a retransmission timeout) is no dip. */
static bool dip_clocked(const struct tn_cc_model *m, int64_t t_ns)
{
    return m->min_rtt_ms > 0 && t_ns - m->dip_ack_ns <= (int64_t)(2 * m->min_rtt_ms * 1e6);
}

static void dip_ends(struct tn_cc_model *m, int64_t t_ns)
{
    if (m->dip_start_ns && dip_clocked(m, t_ns) && t_ns - m->dip_start_ns >= 180 * 1000000LL &&
        (!m->last_dip_ns || m->dip_start_ns - m->last_dip_ns >= 5000 * 1000000LL)) {
        m->dips++;
        m->last_dip_ns = m->dip_start_ns;
    }
}

static void watch_dips(struct tn_cc_model *m, const struct tn_cc_ack *a, double pipe, bool in_episode)
{
    if (pipe <= 4 && !in_episode && pipe > 0) {
        if (m->dip_start_ns && !dip_clocked(m, a->t_ns))
            m->dip_start_ns = 0;
        /* the round before the dip began: the rounds inside it are 4 segments */
        if (!m->dip_start_ns && m->round_hist[SS_ROUNDS - 1] >= 3 * 4)
            m->dip_start_ns = a->t_ns;
        m->dip_ack_ns = a->t_ns;
        return;
    }
    if (pipe > 4 && !in_episode)   /* the ACK that ends ProbeRTT (not a loss, nor an idle period) */
        dip_ends(m, a->t_ns);
    m->dip_start_ns = 0;
}

/* Linux tcp_rate.c: the delivery rate is what was delivered over about one round trip; here
 * the segments delivered since the ACK one srtt before (or the oldest kept). */
static double rate_sample(struct tn_cc_model *m, int64_t now)
{
    if (m->hist_n == m->hist_cap && m->hist_cap < RATE_HIST_MAX) {
        /* not wrapped yet (hist_n == cap): growing keeps every entry at its index */
        m->hist_cap = m->hist_cap ? 2 * m->hist_cap : 8;
        m->hist_t = tn_xrealloc(m->hist_t, m->hist_cap * sizeof *m->hist_t);
        m->hist_d = tn_xrealloc(m->hist_d, m->hist_cap * sizeof *m->hist_d);
    }
    unsigned mask = m->hist_cap - 1, k = m->hist_n & mask;   /* the capacity is a power of two */
    if (m->hist_n && now < m->hist_t[(m->hist_n - 1) & mask])
        m->hist_back = m->hist_n;
    m->hist_t[k] = now;
    m->hist_d[k] = m->delivered;
    m->hist_n++;
    double rtt = m->srtt_ms > 0 ? m->srtt_ms : m->min_rtt_ms;
    if (rtt <= 0)
        return 0;
    unsigned n = m->hist_n <= mask ? (unsigned)m->hist_n : mask + 1;
    if (n < 2)
        return 0;
    /* the i-th entry back, the first at least rtt old (or the oldest): where the times kept
     * are in order (a capture's are, but for a clock step) the ages grow with i, and it is
     * found by bisection; otherwise entry by entry */
    unsigned i = 1;
    if (m->hist_back <= m->hist_n - n) {
        unsigned hi = n - 1;
        while (i < hi) {
            unsigned mid = (i + hi) / 2;
            if ((double)(now - m->hist_t[(m->hist_n - 1 - mid) & mask]) / 1e6 >= rtt)
                hi = mid;
            else
                i = mid + 1;
        }
    } else {
        while (i < n - 1 && !((double)(now - m->hist_t[(m->hist_n - 1 - i) & mask]) / 1e6 >= rtt))
            i++;
    }
    unsigned j = (m->hist_n - 1 - i) & mask;
    double dt = (double)(now - m->hist_t[j]) / 1e6;
    return dt > 0 ? (m->delivered - m->hist_d[j]) / dt : 0;
}

/* Linux include/net/tcp.h (6.1 on, as the lab's 6.18 runs; the slow-start half since 3.16):
 *
 *	static inline bool tcp_is_cwnd_limited(const struct sock *sk)
 *	{
 *		const struct tcp_sock *tp = tcp_sk(sk);
 *
 *		if (tp->is_cwnd_limited)
 *			return true;
 *
 *		// If in slow start, ensure cwnd grows to twice what was ACKed.
 *		if (tcp_in_slow_start(tp))
 *			return tcp_snd_cwnd(tp) < 2 * tp->max_packets_out;
 *
 *		return false;
 *	}
 *
 * Every flavour's cong_avoid returns at once where it is false (tcp_reno_cong_avoid,
 * cubictcp_cong_avoid, ...); the replay asks it in the driver, for every flavour. */
static bool is_cwnd_limited(const struct cwnd_use *u, const struct tn_cc_sock *sk)
{
    if (u->limited)
        return true;
    if (tn_cc_in_slow_start(sk))
        return sk->cwnd < 2 * u->max_out;
    return false;
}

static void use_update(struct cwnd_use *u, bool limited, double out, int64_t una, int64_t nxt)
{
    if (una >= u->seq || limited || (!u->limited && out > u->max_out)) {
        u->limited = limited;
        u->max_out = out;
        u->seq = nxt;
    }
}

/* tn_round(c) <= w for w = tn_round(something): for a whole w below 2^52 and c >= 0 that is
 * c < w + 0.5 (w + 0.5 exact there), without rounding c */
static bool rounds_to_at_most(double c, double w)
{
    if (w < 4503599627370496.0 && c >= 0)
        return c < w + 0.5;
    return tn_round(c) <= w;
}

/* Linux net/ipv4/tcp_output.c, tcp_write_xmit after its sends of new data, and
 * tcp_cwnd_validate as of "tcp: fix tcp_cwnd_validate() to not forget is_cwnd_limited"
 * (Neal Cardwell, 2022; Linux 6.1, the lab's 6.18):
 *
 *	is_cwnd_limited |= (tcp_packets_in_flight(tp) >= tcp_snd_cwnd(tp));
 *	if (likely(sent_pkts || is_cwnd_limited))
 *		tcp_cwnd_validate(sk, is_cwnd_limited);
 *	...
 *	if (!before(tp->snd_una, tp->cwnd_usage_seq) ||
 *	    is_cwnd_limited ||
 *	    (!tp->is_cwnd_limited &&
 *	     tp->packets_out > tp->max_packets_out)) {
 *		tp->is_cwnd_limited = is_cwnd_limited;
 *		tp->max_packets_out = tp->packets_out;
 *		tp->cwnd_usage_seq = tp->snd_nxt;
 *	}
 *
 * A window's record holds from the send that began it until the cumulative ACK reaches that
 * send's snd_nxt: once a send of it found the flight at cwnd, every ACK of the window grows the
 * window, also those of a tail that an application burst leaves to drain (no send follows, so
 * nothing clears the record); in slow start the window grows up to twice the largest flight of
 * the window, not of the ACK.  The replay has one transmission per ACK, the new data it released
 * (tcp_write_xmit runs after the ACK's tcp_cong_control: the next ACK is the first to read it);
 * retransmissions (tcp_xmit_retransmit_queue) and an ACK with nothing to send (an empty write
 * queue: tcp_push_pending_frames does not call tcp_write_xmit) leave the record.  The flight is
 * the one the replay's window is corrected to (flight_max, sent_flight_max: the most in flight
 * from this ACK to the next, counted on the scoreboard of the ACK before), so that a flight
 * that filled the replay's window reads as at cwnd; the pipe after the ACK where that is more
 * (the first ACKs, before the scoreboard is known).  Outside episodes it is packets_out too.
 * Linux compares whole packets; the replay counts the flight and its window in bytes over the
 * MSS (84 segments of 1448 bytes read 83.3 over an announced 1460, and the window grows by
 * what an ACK delivered over it), so both are compared rounded to whole segments.  Sends
 * inside a recovery or timeout episode leave the record, as their ACKs leave the window (the
 * flight the monitor has there is its scoreboard's, shaped by the episode, and the window
 * PRR's over it): Linux's record of those sends (the flight at PRR's window) would carry
 * into the first window after the episode, on top of the replay's post-recovery window,
 * which is not the sender's; from the first send after the episode a new window begins.
 *
 * The open-loop copies (the flavour alone since the last reduction) grow where the sender was
 * window-limited, not where their own window was: that is judged on the replay's window, an
 * estimate, so a flight within OL_SLACK segments of it counts as filling it there (the margin
 * the per-ACK rule had; judged as the replay's own, the copies of a flavour whose replay runs
 * ahead of the flight stop growing and the lab's flavour verdicts moved: vegas named at
 * cubic-bdp-owd40's sender, cubic lost at cubic-queue-4points' router). */
__attribute__((always_inline))   /* into run_ack, as ack_one */
static inline void cwnd_validate(struct flavour_run *r, const struct tn_cc_ack *a, const struct ack_ctx *x)
{
    if (r->ops->cong_control || a->snd_nxt <= r->sent_nxt)
        return;
    r->sent_nxt = a->snd_nxt;
    if (a->in_episode || a->episode_ended)
        return;   /* the episode's flight says nothing of the window (see above) */
    double flight = x->sent_out;
    int64_t una = a->snd_nxt - (int64_t)a->flight_now;
    use_update(&r->use, rounds_to_at_most(r->sk.cwnd, x->sent_out_r), flight, una, a->snd_nxt);
    use_update(&r->use_ol, flight >= r->sk.cwnd - OL_SLACK, flight, una, a->snd_nxt);
}

/* One flavour's replay of one ACK: the replay (sk = &r->sk, observed: the flight corrects it
 * and is fitted), or its open-loop copy (sk = &r->ol: the flavour alone from the last
 * reduction on, growing where the replay found the sender window-limited). */
__attribute__((always_inline))   /* into run_ack's two calls, each with observed constant */
static inline void ack_one(struct tn_cc_model *m, struct flavour_run *r, struct tn_cc_sock *sk, bool observed,
                           const struct tn_cc_ack *a, const struct ack_ctx *x)
{
    const struct tn_cc_ops *ops = r->ops;
    double segs = x->segs, flight = x->flight, pipe = x->pipe;
    memcpy(&sk->now_ns, x->in, TN_CC_ACK_BLOCK);
    if (ops->cong_control) {   /* the flavour does it all (BBR) */
        sk->cwnd_limited = !a->rwnd_limited && !a->app_limited;
        if (observed && sk->cwnd_limited && !a->in_episode && !a->episode_ended && flight >= 4 && ops->target_flight)
            fit(r, flight);
        ops->cong_control(sk);
        if (observed && sk->ss_exit_now)
            note_ss_exit(m, r, a);
        sk->ss_exit_now = false;
        return;
    }
    if (observed && slow_start_ended_unseen(r, x)) {
        /* as after a loss the monitor did not see: the flavour sets its state from the
         * window it had, then both are the flight */
        sk->cwnd = floor(x->unseen_top);
        if (ops->ssthresh)
            ops->ssthresh(sk);
        sk->cwnd = sk->ssthresh = floor(x->unseen_top);
        sk->cwnd_cnt = 0;
        snprintf(sk->ss_exit_why, sizeof sk->ss_exit_why, "flight grew less than %.0f%% a round for %d rounds",
                 (SS_GROWTH - 1) * 100, SS_ROUNDS);
        note_ss_exit(m, r, a);   /* the open-loop copy goes on: a flavour without an exit of
                                  * its own (HyStart) pays for the slow start it would keep */
    }
    if (r->in_recovery || a->episode_ended) {
        if (!observed)
            return;
        /* Linux calls pkts_acked (tcp_clean_rtx_queue) before the ACK that ends an episode
         * moves the state to Open (tcp_fastretrans_alert): the flavour sees it in the old
         * state (BIC and H-TCP count only Open ACKs; the one ending a recovery can cover a
         * window of segments) */
        enum tn_ca_state st = sk->state;
        if (a->episode_ended && !r->in_recovery)
            sk->state = r->ended_state;
        if (segs > 0 && ops->pkts_acked)
            ops->pkts_acked(sk);
        if (observed && sk->ss_exit_now)   /* HyStart under PRR (cc_cubic.c) */
            note_ss_exit(m, r, a);
        sk->ss_exit_now = false;
        sk->state = st;
        if (r->in_recovery) {
            r->prr_out += (double)a->sent / m->mss;   /* the sends before this ACK */
            prr_ack(r, a, a->legacy_recovery ? segs : x->newly, pipe);
        }
        return;   /* after an episode: the flight before this ACK was shaped by it */
    }
    /* Linux grows the window only when it limits the sender: tcp_is_cwnd_limited, on the
     * record of the sends before this ACK (cwnd_validate) */
    bool cwnd_limited = is_cwnd_limited(&r->use, sk);
    if (observed)
        r->ol_limited = !a->rwnd_limited && is_cwnd_limited(&r->use_ol, sk);
    else   /* the copy grows where the sender was window-limited, whatever its own window */
        cwnd_limited = r->ol_limited;
    sk->cwnd_limited = cwnd_limited;
    /* the fit: every ACK outside episodes that the receiver's window did not bound */
    if (observed && !a->rwnd_limited && flight >= 4)
        fit(r, flight);
    double sent = a->sent_flight_max / m->mss;
    if (observed && sent > sk->cwnd + 0.5)
        sk->cwnd = floor(sent);   /* it sent while the pipe was below its window */
    if (segs > 0 && ops->pkts_acked)   /* Linux calls it on every ACK, limited or not */
        ops->pkts_acked(sk);
    if (observed && sk->ss_exit_now)
        note_ss_exit(m, r, a);
    sk->ss_exit_now = false;
    /* Linux tcp_cong_control -> tcp_may_raise_cwnd: the window grows only on an ACK that
     * advances the cumulative ACK (FLAG_DATA_ACKED, RFC 5681 §3.1: in-order delivery), by
     * everything it delivered (acked_sacked); a duplicate ACK that only SACKs does not grow it */
    if (segs <= 0 || !cwnd_limited || a->acked <= 0)
        return;
    ops->cong_avoid(sk, segs);
    if (observed && sk->ss_exit_now)
        note_ss_exit(m, r, a);
    sk->ss_exit_now = false;
}

/* The flavour's decrease at the fast recovery of slot k (the slots are the model's, one per
 * recovery whose decrease the classifier compares: tn_cc_model.knees); -1 where none. */
static void set_slot(struct flavour_run *r, long k, double v)
{
    if (k < 0)
        return;
    if ((size_t)k >= r->nbeta) {
        tn_grow((void **)&r->beta, &r->cap_beta, (size_t)k + 1, sizeof *r->beta);
        while (r->nbeta <= (size_t)k)
            r->beta[r->nbeta++] = -1;
    }
    r->beta[k] = v;
}

/* A sender whose start the capture did not see (struct tn_cc_model: start_unseen).  From its
 * first ACK the replay is in congestion avoidance (ssthresh at its window, which the flight
 * then raises: ack_one), not in a slow start that would double an unknown window each round
 * (a cut of cubic-queue-4points' sender read 100 segments for the kernel's 49 for 250 ms).
 * At the end of the first whole round the flavour starts afresh at the window that round
 * showed, as from a slow start that ended unseen (slow_start_ended_unseen): its state before
 * (CUBIC's epoch and W_max, H-TCP's time since the last loss) is unknown, so it is set up as
 * Linux's tcp_init_congestion_control leaves it, then from that window as its reduction sets
 * it (CUBIC's W_max at the window); cwnd = ssthresh = the window.  (Measured on the lab
 * captures cut mid-flow: from zeroed state alone, W_max 0, the windows were 1-5 points worse
 * and two flows fewer named.) */
static void midflow_state(struct flavour_run *r, const struct ack_ctx *x)
{
    struct tn_cc_sock *sk = &r->sk;
    if (x->midflow_sync > 0) {
        if (r->ops->priv_size)
            memset(sk->priv, 0, r->ops->priv_size);
        if (r->ops->init)
            r->ops->init(sk);
        sk->cwnd = tn_fmax(1, tn_round(x->midflow_sync));
        if (r->ops->ssthresh)
            r->ops->ssthresh(sk);
        sk->cwnd = tn_fmax(1, tn_round(x->midflow_sync));
        sk->cwnd_cnt = 0;
    }
    sk->ssthresh = sk->cwnd;
    restart_open_loop(r);
}

__attribute__((always_inline))   /* into tn_cc_on_ack's loop over the flavours, and run_input */
static inline void run_ack(struct tn_cc_model *m, struct flavour_run *r, const struct tn_cc_ack *a,
                           const struct ack_ctx *x)
{
    /* a flavour with its own control (BBR) is told the same in its replay and in its copy
     * (the flight corrects neither, and every event that changes the replay alone stops the
     * copy or restarts it from the replay): while on, the copy is the replay, not run twice */
    const struct tn_cc_sock *ol = r->ops->cong_control ? &r->sk : &r->ol;
    /* a window-clocked round ended: how far is the open-loop copy from its largest flight? */
    if (x->fit_round && r->ol_on) {
        double w = r->ops->target_flight ? r->ops->target_flight(ol) : ol->cwnd;
        tn_grow((void **)&r->oerr, &r->cap_oerr, r->noerr + 1, sizeof *r->oerr);
        r->oerr[r->noerr++] = fabs(w - x->top) / x->top;
    }
    if (!r->ops->cong_control && (x->midflow_first || x->midflow_sync > 0))
        midflow_state(r, x);
    ack_one(m, r, &r->sk, true, a, x);
    cwnd_validate(r, a, x);   /* the data this ACK released */
    if (r->ol_on && !r->ops->cong_control)
        ack_one(m, r, &r->ol, false, a, x);
    if (x->knee && !r->ops->cong_control && !r->in_recovery)
        restart_open_loop(r);   /* growth is compared from ssthresh on, not from a moderated window */
    /* a flavour with its own control restores its window on the ACK after the recovery */
    if (r->beta_pending && r->sk.prior_cwnd >= BETA_MIN_WINDOW)
        set_slot(r, r->beta_slot, r->sk.cwnd / r->sk.prior_cwnd);
    r->beta_pending = false;
}

static void set_state(struct flavour_run *r, enum tn_ca_state st)
{
    r->sk.state = st;
    if (r->ops->set_state)
        r->ops->set_state(&r->sk, st);
}

static void event(struct flavour_run *r, enum tn_ca_event ev)
{
    if (r->ops->cwnd_event)
        r->ops->cwnd_event(&r->sk, ev);
}

/* The flavour's own decrease at a window of w segments: what its ssthresh (and Westwood's
 * window at CA_EVENT_COMPLETE_CWR) makes of w, on a scratch copy of its state, over w.  The
 * classifier compares it with the observed one (the knee in tn_cc_model over the window at
 * the loss); the replay's own window may differ from the sender's, which the growth fit judges. */
static double own_decrease(const struct flavour_run *r, double w)
{
    _Alignas(PRIV_ALIGN) unsigned char priv[256];
    if (r->ops->priv_size > sizeof priv || w <= 0 || !r->ops->ssthresh)
        return -1;
    struct tn_cc_sock s = r->sk;
    s.priv = priv;
    if (r->ops->priv_size)
        memcpy(priv, r->sk.priv, r->ops->priv_size);
    w = tn_round(w);   /* a whole number of segments, as Linux's snd_cwnd: the flavours round
                     * their ssthresh down from it (floor(13.9 / 2) / 13.9 is no Reno's half) */
    s.cwnd = s.prior_cwnd = w;
    s.ssthresh = s.cwnd = r->ops->ssthresh(&s);
    if (r->ops->cwnd_event)
        r->ops->cwnd_event(&s, TN_CA_EVENT_COMPLETE_CWR);
    return s.cwnd / w;
}

static void run_loss(struct flavour_run *r, int64_t t_ns, bool timeout, double fl, double w)
{
    if (!timeout && !r->in_recovery && !r->ops->cong_control)
        r->beta_next = w >= BETA_MIN_WINDOW ? own_decrease(r, w) : -1;
    struct tn_cc_sock *sk = &r->sk;
    sk->now_ns = t_ns;
    r->ol_on = false;   /* until the reduction is over */
    if (r->ops->cong_control) {   /* BBR keeps its model; the state tells it */
        bool entering = sk->state == TN_CA_OPEN || sk->state == TN_CA_CWR || timeout;
        if (entering) {
            sk->prior_cwnd = sk->cwnd;
            r->recover_fs = fl > 0 ? fl : sk->cwnd;
            if (r->ops->ssthresh)
                sk->ssthresh = r->ops->ssthresh(sk);
        }
        if (timeout)
            sk->cwnd = 1;   /* tcp_enter_loss: packets in flight + 1 */
        set_state(r, timeout ? TN_CA_LOSS : TN_CA_RECOVERY);
        return;
    }
    if (fl > sk->cwnd && !r->in_recovery)
        sk->cwnd = fl;
    if (!r->in_recovery) {   /* an RTO inside recovery keeps the ssthresh already set (Linux) */
        sk->prior_cwnd = sk->cwnd;
        sk->ssthresh = r->ops->ssthresh(sk);
        r->recover_fs = fl > 0 ? fl : sk->cwnd;
        r->prr_delivered = r->prr_out = 0;
        sk->cwnd_cnt = 0;   /* tcp_init_cwnd_reduction */
    }
    if (timeout) {
        event(r, TN_CA_EVENT_LOSS);
        sk->cwnd = 1;
        sk->cwnd_cnt = 0;
        r->in_recovery = false;
        set_state(r, TN_CA_LOSS);
    } else {
        r->in_recovery = true;
        set_state(r, TN_CA_RECOVERY);
    }
}

/* A probe retransmission (TLP) repaired a loss: Linux reduces the window once, without a
 * recovery episode (CWR, tcp_process_tlp_ack): ssthresh from the window, cwnd = ssthresh. */
static void run_cwr(struct flavour_run *r)
{
    struct tn_cc_sock *sk = &r->sk;
    if (!r->in_recovery && !r->ops->cong_control) {
        sk->prior_cwnd = sk->cwnd;
        sk->ssthresh = r->ops->ssthresh(sk);
        sk->cwnd = sk->ssthresh;
        sk->cwnd_cnt = 0;
        event(r, TN_CA_EVENT_COMPLETE_CWR);
    }
    restart_open_loop(r);
}

/* The handshake timed out: Linux enters Loss in SYN_SENT (ssthresh from the initial window)
 * and starts the transfer from one segment (RFC 6298 §5.7). */
static void run_syn_timeout(struct flavour_run *r)
{
    struct tn_cc_sock *sk = &r->sk;
    if (r->ops->cong_control) {
        sk->cwnd = 1;
    } else {
        sk->cwnd = TN_CC_IW;
        sk->ssthresh = r->ops->ssthresh(sk);
        sk->cwnd = 1;
        sk->cwnd_cnt = 0;
    }
    restart_open_loop(r);
}

static void run_recovery_end(struct flavour_run *r, int64_t t_ns, bool timeout, long slot)
{
    struct tn_cc_sock *sk = &r->sk;
    sk->now_ns = t_ns;
    r->ended_state = sk->state;
    bool fast = r->in_recovery && !timeout;
    if (r->ops->cong_control) {
        fast = sk->state == TN_CA_RECOVERY && !timeout;
        set_state(r, TN_CA_OPEN);
    } else {
        if (fast && isfinite(sk->ssthresh))
            sk->cwnd = sk->ssthresh;   /* Linux tcp_end_cwnd_reduction */
        r->in_recovery = false;
        if (fast)
            event(r, TN_CA_EVENT_COMPLETE_CWR);
        set_state(r, TN_CA_OPEN);
    }
    /* the flavour's own decrease (before any observation corrects the replay) */
    if (fast && r->beta_next > 0 && !r->ops->cong_control)
        set_slot(r, slot, r->beta_next);
    r->beta_next = -1;
    r->beta_pending = fast && r->ops->cong_control;
    r->beta_slot = slot;
    restart_open_loop(r);
}

/* Back from idle with nothing in flight (the sender's first segment after idle_ms): Linux
 * tcp_slow_start_after_idle_check -> tcp_cwnd_restart (RFC 2861, RFC 7661 §4.1): ssthresh
 * keeps 3/4 of the window, which halves per RTO of idleness down to the restart window
 * min(IW, cwnd); flavours with their own control (BBR) are not restarted.  Then
 * CA_EVENT_TX_START (tcp_event_data_sent), which CUBIC uses to shift its epoch. */
static void run_idle(struct flavour_run *r, int64_t t_ns, double idle_ms, double rto_ms)
{
    struct tn_cc_sock *sk = &r->sk;
    sk->now_ns = t_ns;
    sk->idle_ns = (int64_t)(idle_ms * 1e6);
    sk->rto_ms = rto_ms;
    if (!r->ops->cong_control && idle_ms > rto_ms) {
        event(r, TN_CA_EVENT_CWND_RESTART);
        if (sk->state != TN_CA_CWR && sk->state != TN_CA_RECOVERY)   /* tcp_current_ssthresh */
            sk->ssthresh = tn_fmax(sk->ssthresh, floor(sk->cwnd * 3 / 4));
        double restart = tn_fmin(TN_CC_IW, sk->cwnd), cwnd = sk->cwnd;
        for (double d = idle_ms - rto_ms; d > 0 && cwnd > restart; d -= rto_ms)
            cwnd = floor(cwnd / 2);
        sk->cwnd = tn_fmax(cwnd, restart);
    }
    event(r, TN_CA_EVENT_TX_START);
    sk->idle_ns = 0;
    restart_open_loop(r);
}

static void record_point(const struct tn_cc_model *m, struct flavour_run *r, int64_t t_ns);

static void run_input(struct tn_cc_model *m, struct flavour_run *r, const struct cc_input *in)
{
    switch (in->op) {
    case OP_ACK: run_ack(m, r, &in->a, &in->x); break;
    case OP_LOSS: run_loss(r, in->t_ns, in->timeout, in->v1 / m->mss, in->v2 / m->mss); break;
    case OP_RECOVERY_END: run_recovery_end(r, in->t_ns, in->timeout, (long)in->v1 - 1); break;
    case OP_IDLE: run_idle(r, in->t_ns, in->v1, in->v2); break;
    case OP_SYN_TIMEOUT: run_syn_timeout(r); break;
    case OP_CWR: run_cwr(r); break;
    case OP_RECORD: record_point(m, r, in->t_ns); break;
    }
}

/* Create the deferred flavours and replay what they missed (their series points too). */
static void undefer(struct tn_cc_model *m)
{
    if (m->deferred_on)
        return;
    m->deferred_on = true;
    for (int i = 0; i < NFLAV; i++) {
        if (m->f[i])
            continue;
        m->f[i] = run_new(flavour_ops[i], m->mss);
        for (size_t k = 0; k < m->nlog; k++)
            run_input(m, m->f[i], &m->log[k]);
    }
    free(m->log);
    m->log = NULL;
    m->nlog = m->cap_log = 0;
}

static void log_input(struct tn_cc_model *m, const struct cc_input *in);

/* Every flavour is told in; those deferred get it later (or at once, once they exist). */
static void tell(struct tn_cc_model *m, const struct cc_input *in)
{
    for (int i = 0; i < NFLAV; i++)
        if (m->f[i] && (m->deferred_on || is_live(m->f[i]->ops)))
            run_input(m, m->f[i], in);
    if (m->deferred_on)
        return;
    log_input(m, in);
}

/* Kept for the deferred flavours; a full log creates them (and then in goes to them too). */
static void log_input(struct tn_cc_model *m, const struct cc_input *in)
{
    if (m->nlog == DEFER_LOG_MAX) {   /* a sender long enough to need every flavour */
        undefer(m);   /* replays the log, not in */
        for (int i = 0; i < NFLAV; i++)
            if (!is_live(m->f[i]->ops))
                run_input(m, m->f[i], in);
        return;
    }
    if (m->nlog == m->cap_log) {   /* from 2: a short connection tells a few */
        m->cap_log = m->cap_log ? 2 * m->cap_log : 2;
        m->log = tn_xrealloc(m->log, m->cap_log * sizeof *m->log);
    }
    m->log[m->nlog++] = *in;
}

/* A round ended: has the window reached the ssthresh of the last fast recovery?  A round that
 * grew by less than SS_GROWTH over the one before is past slow start.  If it is the first
 * round after the recovery and began where it ended (within KNEE_FLAT), the window began it
 * at ssthresh; otherwise the sender slow-started up to ssthresh inside it, and the round after
 * began there, less that round's own growth (the flavour's increase, not its decrease: BIC's
 * binary search adds up to 16 segments a round right after a loss).  Only rounds the window
 * clocked count. */
static bool find_knee(struct tn_cc_model *m)
{
    if (!m->knee_round || m->round - 1 < m->knee_round)
        return false;
    if (m->rounds_clean == 0) {   /* the receiver's window or the application shaped it */
        m->knee_round = 0;
        return false;
    }
    double top = m->round_hist[SS_ROUNDS - 1], prev = m->round_hist[SS_ROUNDS - 2];
    double start = m->last_sent_min;
    if (!isfinite(start) || start <= 0 || start > top) {
        m->knee_round = 0;
        m->knee_ca = false;
        return false;
    }
    double w;
    if (!m->knee_ca) {
        if (top >= SS_GROWTH * prev)
            return false;   /* still slow-starting back to ssthresh */
        /* the first round after the recovery that did not slow-start, and it began where it
         * ended (within the two segments of one round of additive increase and the flight's
         * resolution): it began at ssthresh (RFC 6937: cwnd = ssthresh at the end).  Or its
         * largest flight is within those two segments of the round's before, the one the
         * recovery ended in: the flight did not rise across the boundary, so nothing
         * slow-started and the window was ssthresh through both; the smaller of the two is
         * where this round began.  (A sender's pipe right after a send can sit well below its
         * window where one ACK covers many segments: cubic-bdp-owd40's sender, 24 segments
         * below a window of 305.) */
        if (m->round - 1 == m->knee_round && top - start <= KNEE_FLAT) {
            w = start;
        } else if (m->round - 1 == m->knee_round && fabs(top - prev) <= KNEE_FLAT) {
            w = tn_fmin(top, prev);
        } else if (m->round - 1 == m->knee_round && !m->end_acks && m->end_flight >= BETA_MIN_WINDOW &&
                   m->end_flight <= start + KNEE_FLAT && start - m->end_flight <= top - start + KNEE_FLAT) {
            /* it grew faster than Reno but not as slow start does, and from the flight the
             * recovery left to where it began by no more than its own growth: congestion
             * avoidance all along, from a window of ssthresh when the recovery ended (Linux
             * tcp_end_cwnd_reduction; 2.6.2x tcp_complete_cwr after tcp_cwnd_down stopped at
             * ssthresh).  BIC's binary search adds 4-16 segments a round right after a loss
             * (tcp_bic.c max_increment), CUBIC several at large windows. */
            w = m->end_flight;
        } else {   /* it slow-started up to ssthresh inside the round: the next one began there */
            m->knee_ca = true;
            return false;
        }
    } else {
        w = 2 * start - top;   /* where the round began, less its own growth */
    }
    m->knee_round = 0;
    m->knee_ca = false;
    m->knees[m->knee_slot] = w / m->knee_before;
    return true;
}

/* A sender whose start was not seen (struct tn_cc_model: start_unseen): its window is the
 * largest flight of the first round that began once every segment in flight had been seen
 * sent (the cumulative ACK passed the first one seen), if the window clocked it (the pipe
 * never fell below half its top: a recovery under way at the cut holds it lower, and the
 * monitor cannot see that recovery begin) and no episode touched it.  Before, the flight
 * counts only what was sent after the capture began, without the SACK state of a recovery
 * under way at the cut (cubic-loss1-owd100's sender: 2 segments in its dupacks' view, the
 * kernel's window 53), and the rounds, which end with that flight, are no round trips. */
static void midflow_watch(struct tn_cc_model *m, const struct tn_cc_ack *a, struct ack_ctx *x, bool round_ended)
{
    if (round_ended && m->seen_round && m->round - 1 > m->seen_round && m->rounds_clean > 0 &&
        !m->seen_disturbed && m->seen_top >= 1) {
        x->midflow_sync = m->seen_top;
        m->synced = true;
        return;
    }
    if (round_ended) {
        m->seen_top = 0;
        m->seen_disturbed = false;
    }
    if (a->all_seen && !m->seen_round)
        m->seen_round = m->round;
    m->seen_disturbed |= a->in_episode || a->episode_ended;
    m->seen_top = tn_fmax(m->seen_top, x->sent_out);
}

void tn_cc_on_ack(struct tn_cc_model *m, const struct tn_cc_ack *a)
{
    struct cc_input in;   /* every field set below: not cleared first (360 bytes per ACK) */
    in.op = OP_ACK;
    in.t_ns = a->t_ns;
    in.timeout = false;
    in.v1 = in.v2 = 0;
    in.a = *a;
    struct ack_ctx *x = &in.x;
    x->segs = (double)(a->acked + a->sacked) / m->mss;
    x->flight = a->flight_max / m->mss;
    x->pipe = a->flight_now / m->mss;
    x->sent_out = tn_fmax(x->flight, x->pipe);
    x->sent_out_r = tn_round(x->sent_out);
    if (a->rtt_ms > 0) {
        if (m->min_rtt_ms < 0 || a->rtt_ms < m->min_rtt_ms)
            m->min_rtt_ms = a->rtt_ms;
        m->srtt_ms = m->srtt_ms < 0 ? a->rtt_ms : 0.875 * m->srtt_ms + 0.125 * a->rtt_ms;   /* RFC 6298 */
        if (m->min_srtt_ms < 0 || m->srtt_ms < m->min_srtt_ms)
            m->min_srtt_ms = m->srtt_ms;
    }
    /* delivered: each segment once (a SACKed one is not counted again when the cumulative
     * ACK passes it), as Linux's tp->delivered that BBR's rate samples use */
    x->newly = tn_fmax(0, (double)a->delivered / m->mss - m->delivered);
    m->delivered = tn_fmax(m->delivered, (double)a->delivered / m->mss);
    unsigned round_before = m->round;
    bool round_ended = next_round(m, a, a->snd_nxt - (int64_t)a->flight_now);
    x->midflow_first = m->start_unseen && round_before == 0;
    x->midflow_sync = 0;
    m->round_flight = tn_fmax(m->round_flight, x->flight);
    if (m->lost && !a->in_episode && !a->episode_ended) {
        m->flight_max = tn_fmax(m->flight_max, x->flight);
        m->post_ep_flight = tn_fmax(m->post_ep_flight, x->flight);
    }
    m->round_pipe_min = tn_fmin(m->round_pipe_min, x->pipe);
    if (a->sent_flight_max > 0)
        m->round_sent_min = tn_fmin(m->round_sent_min, a->sent_flight_max / m->mss);
    m->round_rwnd |= a->rwnd_limited;
    m->round_disturbed |= a->in_episode || a->episode_ended;
    if (a->rtt_ms > 0)
        m->round_rtt_min = tn_fmin(m->round_rtt_min, a->rtt_ms);
    watch_dips(m, a, x->pipe, a->in_episode);
    struct tn_cc_sock told, *sk = &told;
    sk->now_ns = a->t_ns;
    sk->ack_seen_ns = a->seen_ns ? a->seen_ns : a->t_ns;
    sk->rtt_ms = a->rtt_ms;
    sk->min_rtt_ms = m->min_rtt_ms;
    sk->srtt_ms = m->srtt_ms;
    sk->acked = x->segs;
    sk->delivered = m->delivered;
    /* the ACKs' spacing as the monitor saw it: the sender sees the same, one constant way later */
    sk->rate = rate_sample(m, sk->ack_seen_ns);
    sk->flight = x->pipe;
    sk->losses = (double)a->resent / m->mss;
    sk->flight_max = x->flight;
    sk->snd_nxt = a->snd_nxt;
    sk->una = a->snd_nxt - (int64_t)a->flight_now;
    sk->round = m->round;
    sk->round_start_ns = m->round_start_ns;
    sk->round_start = m->round != round_before;
    sk->app_limited = a->app_limited;
    sk->linux_2_6_22 = a->legacy_recovery;
    memcpy(x->in, &sk->now_ns, TN_CC_ACK_BLOCK);
    x->top = m->round_hist[SS_ROUNDS - 1];
    x->fit_round = round_ended && m->rounds_clean > 0 && x->top >= 4 && !a->in_episode;
    x->unseen_top = round_ended ? slow_growth_top(m) : 0;
    if (m->end_acks) {
        m->end_flight = tn_fmax(m->end_flight, x->flight);
        m->end_acks--;
    }
    x->knee = round_ended && find_knee(m);
    if (m->start_unseen && !m->synced)   /* a capture begun mid-flow: the window, once seen */
        midflow_watch(m, a, x, round_ended);
    if (m->deferred_on) {   /* every flavour runs (a long sender): no log, no dispatch */
        for (int i = 0; i < NFLAV; i++)
            run_ack(m, m->f[i], &in.a, x);
        return;
    }
    tell(m, &in);
}

double tn_cc_cwnd_bytes(const struct tn_cc_model *m)
{
    /* the rate limiter's window: the lesser of the two standard flavours' */
    return tn_fmin(m->f[TN_CC_RENO - 1]->sk.cwnd, m->f[TN_CC_CUBIC - 1]->sk.cwnd) * m->mss;
}

void tn_cc_on_loss(struct tn_cc_model *m, int64_t t_ns, bool timeout, double flight)
{
    m->round_disturbed = true;   /* queue_rule */
    m->knee_round = 0;   /* a loss before the knee: that decrease is not seen */
    m->knee_ca = false;
    /* the window when the loss happened: the flight at the fast retransmit has already lost
     * a segment per duplicate ACK, the largest flight of this round or the last has not */
    double w = tn_fmax(flight / m->mss, tn_fmax(m->round_flight, m->round_hist[SS_ROUNDS - 1]));
    /* ... unless an episode ended in this round or the last: their flight is the window before
     * that episode's reduction (the recovery drains it), and the window at this loss is the
     * one after it (RFC 6937: cwnd = ssthresh at the end of the recovery), which the flight
     * since shows (Linux may enter a second recovery on the ACK that ended the first) */
    if (m->lost && m->round - m->ep_end_round <= 1)
        w = tn_fmax(flight / m->mss, m->post_ep_flight);
    /* A loss in slow start (the last round's flight grew by SS_GROWTH or more) ends it with a
     * burst of losses, the window having doubled in the round trip the loss took to show
     * (RFC 5681 §3.1): its recovery is long and what follows is no measure of the decrease. */
    const double *h = m->round_hist;
    bool slow_start = h[SS_ROUNDS - 2] > 0 && h[SS_ROUNDS - 1] >= SS_GROWTH * h[SS_ROUNDS - 2];
    /* Nor is a loss at the window of a loss in slow start whose recovery did not cut the flight
     * (TN_CC_NO_CUT): every loss-based flavour has cut it by then (RFC 5681 §3.2, at least 1/8:
     * Scalable, Illinois), so the sender is still where its slow start overshot.  BBR does
     * that: a loss in Startup makes it conserve packets for a round and then restore the
     * window (tcp_bbr.c bbr_set_cwnd_to_recover_or_restore, bbr_save_cwnd), Startup goes on
     * until the bandwidth grew less than 25% for 3 rounds (bbr_check_full_bw_reached:
     * bbr_full_bw_thresh, bbr_full_bw_cnt), and Drain then takes the flight down to one BDP
     * (bbr_check_drain; Cardwell et al. 2016): the flight after that is no ssthresh. */
    bool overshoot = !timeout && m->ss_loss_w > 0 && !m->ss_cut_pending && w >= TN_CC_NO_CUT * m->ss_loss_w;
    if (!timeout && (slow_start || overshoot)) {
        m->ss_loss_w = tn_fmax(m->ss_loss_w, w);
        m->ss_cut_pending = true;
    } else {
        m->ss_loss_w = 0;
    }
    m->knee_before = timeout || slow_start || overshoot ? 0 : w;
    tell(m, &(struct cc_input){.op = OP_LOSS, .t_ns = t_ns, .timeout = timeout, .v1 = flight, .v2 = w * m->mss});
}

bool tn_cc_loss_ended_slow_start(const struct tn_cc_model *m)
{
    return m->ss_cut_pending;
}

void tn_cc_unmeasured_loss(struct tn_cc_model *m)
{
    m->knee_before = 0;
}

void tn_cc_on_cut(struct tn_cc_model *m, double beta)
{
    if (!m->ss_cut_pending)
        return;
    m->ss_cut_pending = false;
    if (beta < TN_CC_NO_CUT)   /* cut: a later loss is measured */
        m->ss_loss_w = 0;
}

void tn_cc_on_cwr(struct tn_cc_model *m)
{
    m->round_disturbed = true;   /* queue_rule */
    tell(m, &(struct cc_input){.op = OP_CWR});
}

void tn_cc_on_syn_timeout(struct tn_cc_model *m)
{
    m->round_disturbed = true;   /* queue_rule */
    tell(m, &(struct cc_input){.op = OP_SYN_TIMEOUT});
}

void tn_cc_on_recovery_end(struct tn_cc_model *m, int64_t t_ns, bool timeout)
{
    m->round_disturbed = true;   /* queue_rule */
    double slot = 0;   /* the slot + 1 of this recovery's decrease, 0: none */
    m->lost = true;
    m->post_ep_flight = 0;
    m->ep_end_round = m->round;
    if (!timeout && m->knee_before >= BETA_MIN_WINDOW) {
        m->knee_round = m->round + 1;   /* the rounds that begin after the recovery */
        tn_grow((void **)&m->knees, &m->cap_knees, m->nknees + 1, sizeof *m->knees);
        m->knee_slot = m->nknees;
        tn_grow((void **)&m->knee_win, &m->cap_win, m->nknees + 1, sizeof *m->knee_win);
        m->knee_win[m->nknees] = m->knee_before;
        m->knees[m->nknees++] = -1;
        slot = (double)m->nknees;
        m->end_flight = 0;
        m->end_acks = 2;
    }
    tell(m, &(struct cc_input){.op = OP_RECOVERY_END, .t_ns = t_ns, .timeout = timeout, .v1 = slot});
}

void tn_cc_on_idle(struct tn_cc_model *m, int64_t t_ns, double idle_ms, double rto_ms)
{
    m->round_disturbed = true;   /* queue_rule */
    tell(m, &(struct cc_input){.op = OP_IDLE, .t_ns = t_ns, .v1 = idle_ms, .v2 = rto_ms});
}

static void push(struct tn_series *s, int64_t t, double v)
{
    tn_grow((void **)&s->pts, &s->cap, s->n + 1, sizeof *s->pts);
    s->pts[s->n++] = (struct tn_point){t, v};
}

static void step_push(struct step *st, int64_t t, double v)
{
    if (st->any && v == st->last_v) {
        st->last_t = t;
        return;
    }
    if (st->any && st->s.n && st->s.pts[st->s.n - 1].t_ns < st->last_t)
        push(&st->s, st->last_t, st->last_v);   /* the corner before the change */
    push(&st->s, t, v);
    st->any = true;
    st->last_v = v;
    st->last_t = t;
}

static void step_close(struct step *st)
{
    if (st->any && st->s.n && st->s.pts[st->s.n - 1].t_ns < st->last_t)
        push(&st->s, st->last_t, st->last_v);
}

void tn_cc_record(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d,
                  struct tn_cc_model *m, int64_t t_ns)
{
    (void)c;
    (void)d;
    if (!ctx->cfg->record_series || (m->start_unseen && !m->synced))
        return;
    /* the flavours replayed from the start take their point now; the deferred ones take it
     * from the log if they are ever created (a sender long enough to need them, or one the
     * classifier scores): a short connection's series hold the checked flavours' windows
     * only, as its replay does (11 flavours' two points per direction were 3.3 KB of
     * series.csv per connection of short50k, and every flavour replayed for them) */
    for (int i = 0; i < NFLAV; i++)
        if (m->f[i] && (m->deferred_on || is_live(m->f[i]->ops)))
            record_point(m, m->f[i], t_ns);
    if (!m->deferred_on)
        log_input(m, &(struct cc_input){.op = OP_RECORD, .t_ns = t_ns});
}

static void record_point(const struct tn_cc_model *m, struct flavour_run *r, int64_t t_ns)
{
    if (!r->cw) {
        r->cw = tn_xcalloc(2, sizeof *r->cw);
        r->ss = r->cw + 1;
    }
    step_push(r->cw, t_ns, r->sk.cwnd * m->mss);
    if (isfinite(r->sk.ssthresh) && r->sk.ssthresh < 1e9)
        step_push(r->ss, t_ns, r->sk.ssthresh * m->mss);
}

/* The element a sort would put at v[n / 2], found by quickselect (Hoare's FIND, CACM 4(7) 1961)
 * in expected linear time: the per-ACK error arrays of every flavour are long (one entry per ACK)
 * and a full sort of each was a fifth of a bulk flow's run.  v is reordered. */
static double median(double *v, size_t n)
{
    if (!n)
        return -1;
    size_t lo = 0, hi = n - 1, k = n / 2;
    while (lo < hi) {
        double pivot = v[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                double t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break;   /* v[j+1 .. i-1] all equal the pivot, and k is among them */
    }
    return v[k];
}

/* Slots without a value (-1) left out. */
static unsigned valid_count(const double *v, size_t n)
{
    unsigned k = 0;
    for (size_t i = 0; i < n; i++)
        k += v[i] >= 0;
    return k;
}

static double valid_median(const double *v, size_t n)
{
    double *w = tn_xcalloc(n + 1, sizeof *w);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] >= 0)
            w[k++] = v[i];
    double med = median(w, k);
    free(w);
    return med;
}

static void move_series(struct tn_series *dst, struct tn_series *src)
{
    free(dst->pts);
    *dst = *src;
    memset(src, 0, sizeof *src);
}

static void copy_series(struct tn_series *dst, const struct tn_series *src)
{
    free(dst->pts);
    memset(dst, 0, sizeof *dst);
    for (size_t k = 0; k < src->n; k++)
        push(dst, src->pts[k].t_ns, src->pts[k].v);
}

bool tn_cc_ss_exit_of(const struct tn_cc_model *m, enum tn_cc_flavor f, int64_t *t_ns, uint64_t *pkt,
                      int64_t *una, const char **why)
{
    if (f == TN_CC_UNKNOWN)   /* the flavour whose window is the estimate (tn_cc_finish) */
        f = (enum tn_cc_flavor)(m->estimate + 1);
    if (f <= TN_CC_UNKNOWN || f >= TN_CC_COUNT || !m->f[f - 1] || !m->f[f - 1]->exit.set)
        return false;
    const struct ss_exit *e = &m->f[f - 1]->exit;
    *t_ns = e->t_ns;
    *pkt = e->pkt;
    *una = e->una;
    *why = e->why;
    return true;
}

/* Could the classifier score any flavour?  Only with a decrease seen or TN_CC_MIN_FIT
 * window-clocked rounds fitted, which every flavour counts alike (the rounds are the flow's);
 * otherwise it says "too little evidence" and the deferred flavours need not run. */
static bool scorable(const struct tn_cc_model *m, unsigned nbetas)
{
    return nbetas > 0 || m->nknees > 0 || m->f[TN_CC_RENO - 1]->noerr >= TN_CC_MIN_FIT;
}

/* The flavour whose replay is the window estimate.  The named flavour's: every flavour's own
 * replay follows its sender's window where the classifier can name it (tests/ns2/grade.sh:
 * each flavour's replay against ns-2's traced cwnd_ on its own runs, 0.1-3% median), where
 * before only the replays checked against the kernel (tn_cc_ops.checked) were, and a Scalable
 * sender named scalable (confidence 0.92) got BBR's window, 81% off.  Otherwise (unknown, or an
 * unchecked flavour named below TN_CC_SURE) the
 * checked flavour that scored best where a decrease was seen, or CUBIC's, the default of
 * Linux; but not a model-based one (BBR) where the recoveries cut the flight and no ProbeRTT
 * dip was seen: that is the classifier's own rule (a cut rules BBR out, TN_CC_NO_CUT; Cardwell
 * et al. 2016, bbr_set_cwnd keeps the window at a loss), and its window is not the sender's. */
enum tn_cc_flavor tn_cc_pick_estimate(const struct tn_tcp_infer *inf, bool decrease_seen, bool dips)
{
    /* a flavour not checked against the kernel is the estimate only when named with a
     * confidence the classifier stands by (TN_CC_SURE): below it a verdict may be wrong (issue
     * 11), and a wrong flavour's replay (Vegas at 0.24 for a CUBIC flow without a loss at the
     * parking lot's receiver: 24% off where CUBIC's is 15%) is worse than a checked one's */
    if (inf->flavor > TN_CC_UNKNOWN && inf->flavor < TN_CC_COUNT &&
        (is_live(flavour_ops[inf->flavor - 1]) || inf->flavor_confidence >= TN_CC_SURE))
        return inf->flavor;
    int best = TN_CC_CUBIC - 1;
    if (!decrease_seen)
        return (enum tn_cc_flavor)(best + 1);
    bool cut = inf->beta_n > 0 && inf->beta >= 0 && inf->beta < TN_CC_NO_CUT;
    double low = -1;
    for (int i = 0; i < NFLAV; i++) {
        const struct tn_cc_ops *ops = flavour_ops[i];
        if (!is_live(ops) || inf->cc_score[i + 1] < 0 || (ops->cong_control && cut && !dips))
            continue;
        if (low < 0 || inf->cc_score[i + 1] < low) {
            low = inf->cc_score[i + 1];
            best = i;
        }
    }
    return (enum tn_cc_flavor)(best + 1);
}

/* No flavour named and no knee seen, but the flight after a recovery measured: with PRR
 * (Linux 3.2 on, RFC 6937) a recovery ends at cwnd = ssthresh (tcp_end_cwnd_reduction), so
 * that flight over the flight before is the sender's decrease, and the checked loss-based
 * flavour whose own decrease is nearest is the estimate, instead of CUBIC's by default (a Reno
 * sender without SACK whose second loss came before a knee, 60 ms RTT: "flight after
 * recovery 0.50 x before", CUBIC's replay 41% above the kernel's window for 4 s).  Not for a
 * trace without options (ns-2's Linux 2.6.22 moderates the window at a recovery's end). */
static void estimate_by_cut(struct tn_cc_model *m, const struct tn_tcp_infer *inf)
{
    if (inf->beta_n == 0 || inf->beta < 0 || inf->beta >= TN_CC_NO_CUT || m->f[0]->sk.linux_2_6_22)
        return;
    double w = m->flight_max > 0 ? m->flight_max : m->round_hist[SS_ROUNDS - 1], best_off = -1;
    for (int i = 0; i < NFLAV; i++) {
        const struct flavour_run *r = m->f[i];
        if (!r || !is_live(r->ops) || r->ops->cong_control)
            continue;
        double own = own_decrease(r, w);
        if (own > 0 && (best_off < 0 || fabs(own - inf->beta) < best_off)) {
            best_off = fabs(own - inf->beta);
            m->estimate = i;
        }
    }
}

void tn_cc_finish(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d,
                  struct tn_cc_model *m, struct tn_tcp_infer *inf, double *betas, const bool *betas_ss,
                  unsigned nbetas)
{
    if (scorable(m, nbetas))
        undefer(m);
    struct tn_cc_fit fits[NFLAV];
    unsigned n = NFLAV;
    for (int i = 0; i < NFLAV; i++) {
        struct flavour_run *r = m->f[i];
        if (!r) {   /* deferred and not needed: nothing to score */
            fits[i] = (struct tn_cc_fit){.ops = flavour_ops[i], .err_med = -1, .flight_med = -1,
                                         .beta_pred = -1, .err = NULL};
            continue;
        }
        /* the per-round errors in their order (median() reorders r->oerr); none for a
         * sender too short to have a window-clocked round, most of them */
        double *ordered = NULL;
        if (r->noerr) {
            ordered = tn_xmalloc(r->noerr * sizeof *ordered);
            memcpy(ordered, r->oerr, r->noerr * sizeof *ordered);
        }
        fits[i] = (struct tn_cc_fit){
            .ops = r->ops,
            .nerr = (unsigned)r->noerr,
            .err = ordered,
            .err_med = median(r->oerr, r->noerr),
            .flight_med = median(r->flights, r->nfl),
            .betas = r->beta,
            .nslots = (unsigned)r->nbeta,
            .nbeta_pred = valid_count(r->beta, r->nbeta),
            .beta_pred = valid_median(r->beta, r->nbeta),
        };
    }
    struct tn_cc_obs obs = {
        .betas = betas,
        .betas_ss = betas_ss,
        .linux_2_6_22 = m->f[0]->sk.linux_2_6_22,
        .nbetas = nbetas,
        .rounds = m->round,
        .min_rtt_ms = m->min_rtt_ms,
        .srtt_ms = m->srtt_ms,
        .probe_rtt_dips = m->dips,
        .queue_falls = m->q_falls,
        .queue_rises = m->q_rises,
        .fall_sizes = m->q_fall_sizes,
        .flight_max = m->flight_max,
        .min_srtt_ms = m->min_srtt_ms,
        .knees = m->knees,
        .knee_win = m->knee_win,
        .nknees = (unsigned)m->nknees,
    };
    tn_cc_classify(fits, n, &obs, inf);
    for (unsigned i = 0; i < n; i++)
        free((void *)fits[i].err);
    /* the named flavour's pacing rate and inflight cap (BBR's model) */
    int named = inf->flavor != TN_CC_UNKNOWN ? inf->flavor - 1 : TN_CC_CUBIC - 1;
    const struct flavour_run *chosen = m->f[named];
    inf->pacing_bps = chosen->sk.pacing_bps;
    inf->inflight_cap_bytes = chosen->sk.cwnd * m->mss;
    inf->model_bw_bps = inf->model_min_rtt_ms = 0;
    if (chosen->ops->get_info)
        chosen->ops->get_info(&chosen->sk, &inf->model_bw_bps, &inf->model_min_rtt_ms);
    bool knee_seen = valid_count(m->knees, m->nknees) > 0;
    m->estimate = tn_cc_pick_estimate(inf, knee_seen, m->dips > 0) - 1;
    if (!knee_seen && inf->flavor == TN_CC_UNKNOWN)
        estimate_by_cut(m, inf);
    if (!m->f[m->estimate])   /* (deferred: the classifier named nothing it could not score) */
        m->estimate = TN_CC_CUBIC - 1;
    int best = m->estimate;
    if (!ctx->cfg->record_series)   /* the models recorded no windows (tn_cc_record) */
        return;
    for (int i = 0; i < NFLAV; i++) {
        struct flavour_run *r = m->f[i];
        if (!r)   /* deferred and never needed: no series (tn_cc_record) */
            continue;
        if (!r->cw) {
            r->cw = tn_xcalloc(2, sizeof *r->cw);
            r->ss = r->cw + 1;
        }
        step_close(r->cw);
        step_close(r->ss);
        struct tn_series *fs = tn_conn_series(c, d, (enum tn_series_kind)(TN_SER_CWND_RENO + i));
        if (i == best)
            copy_series(fs, &r->cw->s);
        else
            move_series(fs, &r->cw->s);
    }
    move_series(tn_conn_series(c, d, TN_SER_CWND_EST), &m->f[best]->cw->s);
    move_series(tn_conn_series(c, d, TN_SER_SSTHRESH_EST), &m->f[best]->ss->s);
}

