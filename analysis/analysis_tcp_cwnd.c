/* analysis_tcp_cwnd.c - congestion-window estimates: the sender's state machine replayed from
 * the ACKs seen, for Reno/NewReno (RFC 5681, RFC 6582) and CUBIC (RFC 9438, as Linux implements
 * it: beta 717/1024, C 0.4, fast convergence, TCP-friendly region, HyStart), with proportional
 * rate reduction during recovery (RFC 6937).  Windows are kept in segments, like Linux. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"

#define IW 10.0                     /* initial window, segments (RFC 6928, Linux default) */
#define CUBIC_BETA (717.0 / 1024.0)
#define CUBIC_C 0.4
#define HYSTART_LOW_WINDOW 16.0
#define HYSTART_MIN_SAMPLES 8
#define HYSTART_ACK_DELAY_MS 1.0
#define NFLAVOR 2
#define SS_ROUNDS 4                 /* rounds of slow growth that mean slow start is over */
#define SS_GROWTH 1.25              /* slow start at least doubles the flight per round (1.5 with
                                     * delayed ACKs counted per ACK); below this it is not */

struct flavor_state {
    double cwnd, ssthresh, cwnd_cnt;
    bool in_recovery;
    double prior_cwnd, recover_fs, prr_delivered;
    /* CUBIC */
    double last_max, origin, K, tcp_cwnd, ack_cnt;
    int64_t epoch_start;
    /* fit against the observed flight */
    double *err;
    size_t nerr, cap_err;
    struct tn_series cw, ss;
};

struct tn_cc_model {
    double mss;
    double min_rtt_ms;
    /* HyStart (CUBIC) */
    bool hs_round_open;
    int64_t hs_end_seq, hs_round_start, hs_last_ack;
    double hs_curr_rtt;
    int hs_samples;
    bool hs_found;
    bool hs_exit_now;          /* the CUBIC replay left slow start on this ACK */
    char hs_why[80];
    /* the largest flight of each of the last rounds, to see a slow start that ended unseen */
    double round_flight, round_hist[SS_ROUNDS];
    double round_pipe_min;     /* the smallest pipe after an ACK in this round */
    bool round_rwnd;           /* the receiver's window bounded the flight in this round */
    unsigned rounds_clean;     /* consecutive finished rounds the window clocked: not bounded
                                * by the receiver, and the pipe never fell below half its top
                                * (an application that pauses drains it) */
    struct flavor_state f[NFLAVOR];   /* [0] Reno, [1] CUBIC */
};

enum { F_RENO = 0, F_CUBIC = 1 };

struct tn_cc_model *tn_cc_new(uint32_t mss)
{
    struct tn_cc_model *m = tn_xcalloc(1, sizeof *m);
    m->mss = mss ? mss : 1448;
    m->min_rtt_ms = -1;
    for (int i = 0; i < NFLAVOR; i++) {
        m->f[i].cwnd = IW;
        m->f[i].ssthresh = INFINITY;
    }
    return m;
}

void tn_cc_free(struct tn_cc_model *m)
{
    if (!m)
        return;
    for (int i = 0; i < NFLAVOR; i++) {
        free(m->f[i].err);
        free(m->f[i].cw.pts);
        free(m->f[i].ss.pts);
    }
    free(m);
}

/* Slow start (RFC 5681 §3.1, Linux tcp_slow_start): returns the segments left for CA. */
static double slow_start(struct flavor_state *f, double segs)
{
    double room = f->ssthresh - f->cwnd;
    double used = segs < room ? segs : room;
    f->cwnd += used;
    return segs - used;
}

/* Linux tcp_cong_avoid_ai: one segment per w segments acknowledged. */
static void cong_avoid_ai(struct flavor_state *f, double w, double segs)
{
    if (w < 1)
        w = 1;
    if (f->cwnd_cnt >= w) {   /* credits accumulated at a higher w: apply them gently */
        f->cwnd_cnt = 0;
        f->cwnd += 1;
    }
    f->cwnd_cnt += segs;
    if (f->cwnd_cnt >= w) {
        double delta = floor(f->cwnd_cnt / w);
        f->cwnd_cnt -= delta * w;
        f->cwnd += delta;
    }
}

static void reno_ack(struct flavor_state *f, double segs)
{
    if (f->cwnd < f->ssthresh) {
        segs = slow_start(f, segs);
        if (segs <= 0)
            return;
    }
    cong_avoid_ai(f, f->cwnd, segs);
}

/* Linux bictcp_update: the cubic target and the TCP-friendly estimate give the count of
 * segments to acknowledge per one-segment increase. */
static double cubic_cnt(struct tn_cc_model *m, struct flavor_state *f, int64_t t_ns, double segs)
{
    if (!f->epoch_start) {
        f->epoch_start = t_ns;
        f->ack_cnt = segs;
        f->tcp_cwnd = f->cwnd;
        if (f->last_max <= f->cwnd) {
            f->K = 0;
            f->origin = f->cwnd;
        } else {
            f->K = cbrt((f->last_max - f->cwnd) / CUBIC_C);
            f->origin = f->last_max;
        }
    } else {
        f->ack_cnt += segs;
    }
    double min_rtt_s = m->min_rtt_ms > 0 ? m->min_rtt_ms / 1000.0 : 0;
    double t = (double)(t_ns - f->epoch_start) / 1e9 + min_rtt_s;
    double target = f->origin + CUBIC_C * pow(t - f->K, 3);
    double cnt = target > f->cwnd ? f->cwnd / (target - f->cwnd) : 100 * f->cwnd;
    if (f->last_max == 0 && cnt > 20)
        cnt = 20;   /* Linux: grow at least 5% per RTT before the first loss */
    /* TCP-friendly region (RFC 9438 §4.3): the Reno-equivalent window grows by one segment per
     * cwnd * beta_scale / 8 segments acknowledged; Linux's beta_scale is
     * 8 * (1024 + 717) / 3 / (1024 - 717) = 15 (integer), i.e. about 0.53 segments per RTT */
    double delta = floor(f->cwnd) * 15 / 8;
    if (delta > 0) {
        while (f->ack_cnt > delta) {
            f->ack_cnt -= delta;
            f->tcp_cwnd += 1;
        }
    }
    if (f->tcp_cwnd > f->cwnd) {
        double c2 = f->cwnd / (f->tcp_cwnd - f->cwnd);
        if (c2 < cnt)
            cnt = c2;
    }
    return cnt < 2 ? 2 : cnt;   /* Linux keeps cnt >= 2: at most 1.5x per RTT */
}

static void cubic_ack(struct tn_cc_model *m, struct flavor_state *f, int64_t t_ns, double segs)
{
    if (f->cwnd < f->ssthresh) {
        segs = slow_start(f, segs);
        if (segs <= 0)
            return;
    }
    cong_avoid_ai(f, cubic_cnt(m, f, t_ns, segs), segs);
}

/* Rounds of one window (HyStart's, Linux hystart_update): a round ends when the ACKs pass the
 * highest sequence sent when it began.  Returns whether one just ended; keeps each round's
 * largest flight for slow_start_ended_unseen. */
static bool hystart_round(struct tn_cc_model *m, const struct tn_cc_ack *a, int64_t una)
{
    bool ended = false;
    if (!m->hs_end_seq || una >= m->hs_end_seq) {   /* a new round begins */
        ended = m->hs_end_seq != 0;
        if (ended) {
            memmove(m->round_hist, m->round_hist + 1, (SS_ROUNDS - 1) * sizeof *m->round_hist);
            m->round_hist[SS_ROUNDS - 1] = m->round_flight;
            bool clocked = !m->round_rwnd && m->round_pipe_min >= 0.5 * m->round_flight;
            m->rounds_clean = clocked ? m->rounds_clean + 1 : 0;
        }
        m->round_flight = 0;
        m->round_pipe_min = INFINITY;
        m->round_rwnd = false;
        m->hs_end_seq = a->snd_nxt;
        m->hs_round_start = m->hs_last_ack = a->t_ns;
        m->hs_curr_rtt = INFINITY;
        m->hs_samples = 0;
    }
    return ended;
}

static void hystart_check(struct tn_cc_model *m, struct flavor_state *f, const struct tn_cc_ack *a)
{
    if (m->hs_found || f->cwnd >= f->ssthresh || f->cwnd < HYSTART_LOW_WINDOW || m->min_rtt_ms <= 0)
        return;

    double delay_min = m->min_rtt_ms;
    /* ACK train: ACKs at most HYSTART_ACK_DELAY_MS apart since the round began, for longer than
     * half the minimum RTT (plus that delay).  Linux's spacing is min(1 ms, 4 GSO sizes at the
     * pacing rate): 1 ms below 2 Gbit/s; with 2 ms, ACKs clocked out of a 10 Mbit/s bottleneck
     * (1.2 ms apart) made a train of every round and the exit came 2-4 rounds early. */
    if ((double)(a->t_ns - m->hs_last_ack) / 1e6 <= HYSTART_ACK_DELAY_MS) {
        m->hs_last_ack = a->t_ns;
        double thresh = (delay_min + HYSTART_ACK_DELAY_MS) / 2;
        if ((double)(a->t_ns - m->hs_round_start) / 1e6 > thresh) {
            m->hs_found = true;
            snprintf(m->hs_why, sizeof m->hs_why, "HyStart: ACK train of %.1f ms > %.1f ms",
                     (double)(a->t_ns - m->hs_round_start) / 1e6, thresh);
        }
    }
    /* Delay: the round's smallest RTT sample, once more than HYSTART_MIN_SAMPLES were taken,
     * above the minimum by clamp(min/8, 4, 16) ms (Linux hystart_update, every ACK) */
    if (a->rtt_ms > 0) {
        if (a->rtt_ms < m->hs_curr_rtt)
            m->hs_curr_rtt = a->rtt_ms;
        if (m->hs_samples < HYSTART_MIN_SAMPLES) {
            m->hs_samples++;
        } else {
            double thresh = delay_min / 8;
            thresh = thresh < 4 ? 4 : thresh > 16 ? 16 : thresh;
            if (m->hs_curr_rtt > delay_min + thresh) {
                m->hs_found = true;
                snprintf(m->hs_why, sizeof m->hs_why, "HyStart: round RTT %.1f ms > min %.1f + %.1f ms",
                         m->hs_curr_rtt, delay_min, thresh);
            }
        }
    }
    if (m->hs_found) {
        f->ssthresh = f->cwnd;
        m->hs_exit_now = true;
    }
}

const char *tn_cc_hystart_exit(struct tn_cc_model *m)
{
    if (!m->hs_exit_now)
        return NULL;
    m->hs_exit_now = false;
    return m->hs_why[0] ? m->hs_why : NULL;
}

/* Proportional rate reduction (RFC 6937): during recovery the window follows the pipe, sending
 * ssthresh/recover_fs of what is delivered until the pipe falls to ssthresh. */
static void prr_ack(struct flavor_state *f, double delivered, double pipe)
{
    f->prr_delivered += delivered;
    double snd;
    if (pipe > f->ssthresh)
        snd = delivered * f->ssthresh / (f->recover_fs > 0 ? f->recover_fs : f->prior_cwnd);
    else
        snd = fmin(f->ssthresh - pipe, delivered + 1);
    double w = pipe + (snd > 0 ? snd : 0);
    f->cwnd = w < 1 ? 1 : w;
}

static void fit(struct flavor_state *f, double cwnd_segs, double flight_segs)
{
    tn_grow((void **)&f->err, &f->cap_err, f->nerr + 1, sizeof *f->err);
    f->err[f->nerr++] = fabs(cwnd_segs - flight_segs) / flight_segs;
}

/* A slow start that ended unseen: the replay is still in slow start, but the flight of the
 * last SS_ROUNDS rounds grew, and by less than SS_GROWTH a round, and stays below two thirds
 * of the window - a window-limited sender in slow start would double it.  The sender left slow
 * start on a loss the monitor could not see (the first segment lost before a receiver-side
 * monitor, repaired by a probe), or by an exit we do not replay: continue from the flight. */
static bool slow_start_ended_unseen(const struct tn_cc_model *m, const struct flavor_state *f)
{
    if (f->cwnd >= f->ssthresh || f->in_recovery || m->rounds_clean < SS_ROUNDS)
        return false;
    const double *h = m->round_hist;
    for (int i = 0; i < SS_ROUNDS; i++)
        if (h[i] < 4 || (i && h[i] > SS_GROWTH * h[i - 1]))
            return false;
    return h[SS_ROUNDS - 1] > h[0] && f->cwnd > 1.5 * h[SS_ROUNDS - 1];
}

void tn_cc_on_ack(struct tn_cc_model *m, const struct tn_cc_ack *a)
{
    double segs = (double)(a->acked + a->sacked) / m->mss;
    double flight = a->flight_max / m->mss, pipe = a->flight_now / m->mss;
    if (a->rtt_ms > 0 && (m->min_rtt_ms < 0 || a->rtt_ms < m->min_rtt_ms))
        m->min_rtt_ms = a->rtt_ms;
    bool round_ended = hystart_round(m, a, a->snd_nxt - (int64_t)a->flight_now);
    m->round_flight = fmax(m->round_flight, flight);
    m->round_pipe_min = fmin(m->round_pipe_min, pipe);
    m->round_rwnd |= a->rwnd_limited;
    for (int i = 0; i < NFLAVOR; i++) {
        struct flavor_state *f = &m->f[i];
        if (round_ended && slow_start_ended_unseen(m, f)) {
            f->cwnd = f->ssthresh = floor(m->round_hist[SS_ROUNDS - 1]);
            f->cwnd_cnt = 0;
            f->last_max = f->cwnd;   /* CUBIC grows on from here */
            f->epoch_start = 0;
            if (i == F_CUBIC && !m->hs_found) {
                m->hs_found = m->hs_exit_now = true;
                snprintf(m->hs_why, sizeof m->hs_why,
                         "flight grew less than %.0f%% a round for %d rounds", (SS_GROWTH - 1) * 100,
                         SS_ROUNDS);
            }
        }
        if (f->in_recovery) {
            prr_ack(f, segs, pipe);
            continue;
        }
        if (a->episode_ended)
            continue;   /* the flight before this ACK was shaped by the recovery */
        /* Linux grows the window only when it limits the sender (tcp_is_cwnd_limited) */
        bool cwnd_limited = !a->rwnd_limited &&
                            (f->cwnd < f->ssthresh ? f->cwnd < 2 * flight : flight >= f->cwnd - 3);
        if (cwnd_limited && flight >= 4)
            fit(f, f->cwnd, flight);
        double sent = a->sent_flight_max / m->mss;
        if (sent > f->cwnd + 0.5)
            f->cwnd = floor(sent);   /* it sent while the pipe was below its window */
        if (i == F_CUBIC && segs > 0)   /* Linux samples every ACK, limited or not */
            hystart_check(m, f, a);
        if (segs <= 0 || !cwnd_limited)
            continue;
        if (i == F_RENO)
            reno_ack(f, segs);
        else
            cubic_ack(m, f, a->t_ns, segs);
    }
}

double tn_cc_cwnd_bytes(const struct tn_cc_model *m)
{
    return fmin(m->f[F_RENO].cwnd, m->f[F_CUBIC].cwnd) * m->mss;
}

void tn_cc_on_loss(struct tn_cc_model *m, int64_t t_ns, bool timeout, double flight)
{
    (void)t_ns;
    double fl = flight / m->mss;
    for (int i = 0; i < NFLAVOR; i++) {
        struct flavor_state *f = &m->f[i];
        if (fl > f->cwnd && !f->in_recovery)
            f->cwnd = fl;
        bool already = f->in_recovery;
        if (!already) {   /* an RTO inside recovery keeps the ssthresh already set (Linux) */
            if (i == F_RENO) {
                f->ssthresh = fmax(floor(f->cwnd / 2), 2);   /* tcp_reno_ssthresh: cwnd >> 1 */
            } else {
                f->last_max = f->cwnd < f->last_max ? f->cwnd * (1 + CUBIC_BETA) / 2 : f->cwnd;
                f->ssthresh = fmax(floor(f->cwnd * CUBIC_BETA), 2);   /* (cwnd * 717) >> 10 */
                f->epoch_start = 0;
            }
            f->prior_cwnd = f->cwnd;
            f->recover_fs = fl > 0 ? fl : f->cwnd;
            f->prr_delivered = 0;
            f->cwnd_cnt = 0;   /* tcp_init_cwnd_reduction */
        }
        if (timeout) {
            f->cwnd = 1;
            f->cwnd_cnt = 0;
            f->in_recovery = false;
            f->epoch_start = 0;
        } else {
            f->in_recovery = true;
        }
    }
    m->hs_found = true;   /* HyStart only acts in the initial slow start */
}

/* A probe retransmission (TLP) repaired a loss: Linux reduces the window once, without a
 * recovery episode (CWR, tcp_process_tlp_ack): ssthresh from the window, cwnd = ssthresh. */
void tn_cc_on_cwr(struct tn_cc_model *m)
{
    for (int i = 0; i < NFLAVOR; i++) {
        struct flavor_state *f = &m->f[i];
        if (f->in_recovery)
            continue;
        if (i == F_RENO) {
            f->ssthresh = fmax(floor(f->cwnd / 2), 2);
        } else {
            f->last_max = f->cwnd < f->last_max ? f->cwnd * (1 + CUBIC_BETA) / 2 : f->cwnd;
            f->ssthresh = fmax(floor(f->cwnd * CUBIC_BETA), 2);
            f->epoch_start = 0;
        }
        f->cwnd = f->ssthresh;
        f->cwnd_cnt = 0;
    }
}

/* The handshake timed out: Linux enters Loss in SYN_SENT (ssthresh from the initial window)
 * and starts the transfer from one segment (RFC 6298 §5.7). */
void tn_cc_on_syn_timeout(struct tn_cc_model *m)
{
    for (int i = 0; i < NFLAVOR; i++) {
        struct flavor_state *f = &m->f[i];
        f->ssthresh = i == F_RENO ? fmax(floor(IW / 2), 2) : fmax(floor(IW * CUBIC_BETA), 2);
        f->last_max = i == F_CUBIC ? IW : 0;
        f->cwnd = 1;
        f->cwnd_cnt = 0;
    }
}

void tn_cc_on_recovery_end(struct tn_cc_model *m, int64_t t_ns, bool timeout)
{
    (void)t_ns;
    for (int i = 0; i < NFLAVOR; i++) {
        struct flavor_state *f = &m->f[i];
        if (f->in_recovery && !timeout && isfinite(f->ssthresh))
            f->cwnd = f->ssthresh;   /* Linux tcp_end_cwnd_reduction */
        f->in_recovery = false;
    }
}

/* Linux tcp_cwnd_restart: after an idle period the window halves per RTO, down to IW. */
void tn_cc_on_idle(struct tn_cc_model *m, int64_t t_ns, double idle_ms)
{
    (void)t_ns;
    double rto = m->min_rtt_ms > 0 ? fmax(200.0, 1.25 * m->min_rtt_ms) : 1000.0;
    for (int i = 0; i < NFLAVOR; i++) {
        struct flavor_state *f = &m->f[i];
        double restart = fmin(IW, f->cwnd);
        for (double d = idle_ms - rto; d > 0 && f->cwnd > restart; d -= rto)
            f->cwnd /= 2;
        if (f->cwnd < restart)
            f->cwnd = restart;
        f->epoch_start = 0;
    }
}

static void push(struct tn_series *s, int64_t t, double v)
{
    tn_grow((void **)&s->pts, &s->cap, s->n + 1, sizeof *s->pts);
    s->pts[s->n++] = (struct tn_point){t, v};
}

void tn_cc_record(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d,
                  struct tn_cc_model *m, int64_t t_ns)
{
    (void)c;
    (void)d;
    if (!ctx->cfg->record_series)
        return;
    for (int i = 0; i < NFLAVOR; i++) {
        push(&m->f[i].cw, t_ns, m->f[i].cwnd * m->mss);
        if (isfinite(m->f[i].ssthresh))
            push(&m->f[i].ss, t_ns, m->f[i].ssthresh * m->mss);
    }
}

static int cmp_dbl(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static double median_err(struct flavor_state *f)
{
    if (!f->nerr)
        return -1;
    qsort(f->err, f->nerr, sizeof *f->err, cmp_dbl);
    return f->err[f->nerr / 2];
}

void tn_cc_finish(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d,
                  struct tn_cc_model *m, struct tn_tcp_infer *inf, double *betas, unsigned nbetas)
{
    (void)ctx;
    double er = median_err(&m->f[F_RENO]), ec = median_err(&m->f[F_CUBIC]);
    inf->cwnd_err_reno = er;
    inf->cwnd_err_cubic = ec;
    int best = F_CUBIC;   /* the default of Linux, macOS and Windows when nothing tells */
    inf->flavor = TN_CC_UNKNOWN;
    inf->flavor_confidence = 0;
    inf->beta_n = nbetas;
    if (nbetas) {
        /* the decrease at a loss is the clearest signature: 0.5 for Reno, 0.7 for CUBIC */
        qsort(betas, nbetas, sizeof *betas, cmp_dbl);
        double b = betas[nbetas / 2];
        inf->beta = b;
        best = b < 0.6 ? F_RENO : F_CUBIC;
        inf->flavor = best == F_RENO ? TN_CC_RENO : TN_CC_CUBIC;
        inf->flavor_confidence = fmin(1, fabs(b - 0.6) / 0.1) * (1 - 1.0 / (nbetas + 1));
    } else if (er >= 0 && ec >= 0 && m->f[F_RENO].nerr >= 20) {
        best = er < ec ? F_RENO : F_CUBIC;
        double lo = fmin(er, ec), hi = fmax(er, ec);
        inf->flavor = best == F_RENO ? TN_CC_RENO : TN_CC_CUBIC;
        inf->flavor_confidence = hi > 0 ? 0.5 * (hi - lo) / hi : 0;   /* weaker evidence */
    }
    /* both flavours' windows stay available for comparison (cwnd_reno_bytes, cwnd_cubic_bytes) */
    for (int i = 0; i < NFLAVOR; i++) {
        struct tn_series *fs = &c->series[d][i == F_RENO ? TN_SER_CWND_RENO : TN_SER_CWND_CUBIC];
        free(fs->pts);
        memset(fs, 0, sizeof *fs);
        if (i == best)   /* moved into cwnd_est_bytes below: copy it */
            for (size_t k = 0; k < m->f[i].cw.n; k++) {
                tn_grow((void **)&fs->pts, &fs->cap, fs->n + 1, sizeof *fs->pts);
                fs->pts[fs->n++] = m->f[i].cw.pts[k];
            }
        else {
            *fs = m->f[i].cw;
            memset(&m->f[i].cw, 0, sizeof m->f[i].cw);
        }
    }
    struct tn_series *dst = &c->series[d][TN_SER_CWND_EST];
    free(dst->pts);
    *dst = m->f[best].cw;
    memset(&m->f[best].cw, 0, sizeof m->f[best].cw);
    dst = &c->series[d][TN_SER_SSTHRESH_EST];
    free(dst->pts);
    *dst = m->f[best].ss;
    memset(&m->f[best].ss, 0, sizeof m->f[best].ss);
}
