/* analysis_tcp_replay.c - a sender's ACKs handed to its window models once the sender has
 * reacted to them.  Away from the sender an ACK seen at the monitor reaches the sender half the
 * monitor <-> sender round trip later, and the data it releases passes the monitor a whole
 * round trip later: until then the flight the monitor sees was sent knowing the older ACKs
 * only.  Each resolved ACK gives the models its flight, the limiter accounting its share, and
 * after a fast recovery the multiplicative decrease. */
#include <math.h>
#include <stdlib.h>

#include "analysis_int.h"
#include "seq.h"

void tn_replay_free(struct tn_replay *r)
{
    free(r->pend);
    free(r->rs);
    free(r->betas);
    free(r->betas_ss);
}

int64_t tn_replay_known_pipe(const struct tn_replay *r, int64_t hi)
{
    if (!r->k_set)
        return 0;
    int64_t p = hi - r->k_una - r->k_adj;
    return p < 0 ? 0 : p;
}

/* Had the sender processed ACK pa when its data seen at monitor time t left it?  Where both
 * carry timestamps the echo says: a data segment's TSecr is the TSval of the last ACK the
 * sender processed (TS.Recent, RFC 7323 §4.3; Linux tcp_store_ts_recent on every ACK of a
 * one-way transfer), so the ACKs of earlier ticks of the receiver's clock and the first ACK of
 * the echoed tick had been processed, and those of later ticks had not.  The rest of the echoed
 * tick (on a loopback a tick holds hundreds of ACKs), and ACKs without timestamps, are told by
 * the time: seen a reaction time h before t (h is a smoothed echo time: it lags a queue that
 * grows within a round, a slow start into a bottleneck, where the echo does not). */
static bool processed(const struct tn_replay *r, const struct tn_pending_ack *pa, int64_t t, int64_t h)
{
    if (pa->t_ns > t)
        return false;
    if (h > 0 && pa->has_ts && r->ecr_set && (pa->tsval != r->ecr || pa->tick_first))
        return !tn_seq_gt(pa->tsval, r->ecr);
    return pa->t_ns + h <= t;
}

void tn_replay_echo(struct tn_replay *r, const struct tn_pkt *p)
{
    if (!p->tcp.opt.has_ts || (r->ecr_set && !tn_seq_gt(p->tcp.opt.ts_ecr, r->ecr)))
        return;
    r->ecr = p->tcp.opt.ts_ecr;
    r->ecr_set = true;
}

/* A sender sends while its pipe is below its window, the pipe of the ACKs it has processed
 * (Linux tcp_write_xmit after tcp_ack on the ACK that released it).  The ACKs not yet handed
 * to the models count too: an ACK is handed over only when the next one's window opens, and
 * the sends it released came before that; measured against the ACK before it, each send's
 * flight was that ACK's advance too large, one to two segments on every ACK (reno-smallq's
 * sender: a flight of 11 at the kernel's window of 9, so the replay's window stood two
 * segments above it). */
int64_t tn_replay_send_pipe(const struct tn_conn_priv *cp, enum tn_dir sd, int64_t hi, int64_t t)
{
    const struct tn_replay *r = &cp->dp[sd].snd->rp;
    int64_t h = tn_replay_reaction_ns(cp, sd);
    const struct tn_pending_ack *last = NULL;
    for (unsigned i = 0; i < r->pend_n; i++) {
        const struct tn_pending_ack *pa = &r->pend[(r->pend_head + i) % r->pend_cap];
        if (!processed(r, pa, t, h))
            break;
        last = pa;
    }
    if (!last)
        return tn_replay_known_pipe(r, hi);
    int64_t p = hi - last->una - last->adj;
    return p < 0 ? 0 : p;
}

void tn_replay_sent(struct tn_replay *r, int64_t flight, bool new_data, int64_t len, int64_t resent)
{
    r->resent += resent;
    r->sent += len;
    if (flight > r->flight_max)
        r->flight_max = flight;
    if (new_data && flight > r->sent_flight_max)
        r->sent_flight_max = flight;
}

void tn_replay_resent_seen(struct tn_replay *r, int64_t t, uint32_t ecr, int64_t bytes)
{
    if (r->rs_n == r->rs_cap &&
        !tn_ring_grow((void **)&r->rs, &r->rs_cap, &r->rs_head, r->rs_n, sizeof *r->rs, TN_RESENT_KEPT)) {
        r->rs_head = (r->rs_head + 1) % r->rs_cap;   /* that many on their way: the oldest goes */
        r->rs_n--;
    }
    r->rs[(r->rs_head + r->rs_n++) % r->rs_cap] = (struct tn_resent_seen){t, bytes, ecr};
}

/* Retransmissions the sender had in flight when it processed ACK pa that the monitor saw only
 * after pa: sent before the sender processed pa (their TSecr echoes an earlier tick of the
 * receiver's clock), so on their way when pa came, uncovered by it (Linux retrans_out counts
 * them in tcp_packets_in_flight, which PRR's window is made of: tcp_cwnd_reduction).  The
 * scoreboard at pa counts only those seen before it. */
static int64_t resent_unseen_at(struct tn_replay *r, const struct tn_pending_ack *pa)
{
    int64_t bytes = 0;
    while (r->rs_n && r->rs[r->rs_head].t_ns <= pa->t_ns) {   /* the ACKs after pa come later */
        r->rs_head = (r->rs_head + 1) % r->rs_cap;
        r->rs_n--;
    }
    if (!pa->has_ts)
        return 0;
    for (unsigned i = 0; i < r->rs_n; i++) {
        const struct tn_resent_seen *e = &r->rs[(r->rs_head + i) % r->rs_cap];
        if (tn_seq_lt(e->ecr, pa->tsval))
            bytes += e->bytes;
    }
    return bytes;
}

/* What held the sender back between the previous ACK and this one: the receiver's window when
 * the flight filled it, the application when the flight stayed well below the congestion
 * window, else the congestion window -- or a bottleneck link when the RTT is inflated by a
 * queue (> 1.5 x the minimum) while the window is full. */
static void account_limiter(struct tn_sender *s, const struct tn_cc_ack *a, int64_t t)
{
    struct tn_replay *r = &s->rp;
    int64_t dt = r->prev_ack_ns ? t - r->prev_ack_ns : 0;
    r->prev_ack_ns = t;
    if (dt <= 0 || a->in_episode)
        return;
    double cwnd = tn_cc_cwnd_bytes(s->models), mss = s->mss;
    enum tn_limiter l;
    if (a->rwnd_limited)
        l = TN_LIM_RWND;
    else if (a->flight_max + 3 * mss < cwnd && a->flight_max < 0.8 * cwnd)
        l = TN_LIM_APP;
    else if (s->rtt.init && s->rtt.min_ms > 0 && s->rtt.srtt_ms > 1.5 * s->rtt.min_ms)
        l = TN_LIM_BOTTLENECK;
    else
        l = TN_LIM_CWND;
    r->limiter_ns[l] += dt;
}

void tn_replay_limiters(const struct tn_replay *r, struct tn_tcp_infer *inf)
{
    int64_t total = 0;
    for (int l = 1; l < TN_LIM_COUNT; l++)
        total += r->limiter_ns[l];
    int best = 0;
    for (int l = 1; l < TN_LIM_COUNT && total > 0; l++) {
        inf->limiter_share[l] = (double)r->limiter_ns[l] / (double)total;
        if (!best || r->limiter_ns[l] > r->limiter_ns[best])
            best = l;
    }
    inf->limiter = (enum tn_limiter)best;
}

/* Echo times next to a sender are tens of microseconds; above this a queue sits between. */
#define QUEUE_BEHIND_MS 2.0

/* Round trip from the monitor to the sender and back, in ns: how long after an ACK passes the
 * monitor the data it releases passes it (0 next to the sender). */
int64_t tn_replay_reaction_ns(const struct tn_conn_priv *cp, enum tn_dir sd)
{
    /* Next to the sender it reacts at once: echo times there are the sender's own few
     * microseconds.  Unless the echoes say otherwise: a monitor after a router's queue (say on
     * the bottleneck's egress) looks near the sender in the handshake, yet sees the data an
     * ACK releases only once it has crossed that queue.  The least of the recent echo times is
     * an ACK that released data at once, so it is that queue's delay; only when even it is
     * late does a queue sit between (next to a sender one late echo is a stalled sender). */
    const struct tn_sender *s = cp->dp[sd].snd;
    bool echoes = s && s->rtt.half_init;
    enum tn_vantage near_sender = sd == TN_A2B ? TN_VP_NEAR_A : TN_VP_NEAR_B;
    if (cp->pub.vantage == near_sender)
        return echoes && s->rtt.half_low > QUEUE_BEHIND_MS ? (int64_t)(s->rtt.half_low * 1e6) : 0;
    return (int64_t)(tn_rtt_sender_half_ms(cp, sd) * 1e6);
}

/* From the monitor to the sender, in ns: when the sender processes an ACK the monitor saw.
 * Half the least echo time (the handshake's without echoes): the paths' own delays, taken
 * alike both ways.  The rest of the reaction time is a queue on the data's way, not the ACKs'
 * (the bottleneck queues the data of a one-way transfer; its ACKs cross it empty): the data an
 * ACK releases waits in it, the ACK does not.  Half the smoothed echo time put the sender's
 * processing half that queue late: on dumbbell-cubic-rtt's receiver (min RTT 10 ms, srtt 69 ms
 * in the first recovery) the replay's PRR began 30 ms after the kernel's (tcp_probe). */
static int64_t to_sender_ns(const struct tn_conn_priv *cp, enum tn_dir sd)
{
    int64_t h = tn_replay_reaction_ns(cp, sd);
    const struct tn_sender *s = cp->dp[sd].snd;
    if (h > 0 && s->rtt.half_init && s->rtt.half_min_ms * 1e6 < (double)h)
        h = (int64_t)(s->rtt.half_min_ms * 1e6);
    return h / 2;
}

/* The most a flight after a fast recovery can exceed the flight before it when the window
 * held both: a loss-based sender leaves the recovery at ssthresh, below the window it had
 * (RFC 5681 §3.2, RFC 6937); BBR restores the window it had (bbr_save_cwnd, bbr_undo_cwnd)
 * and paces at most 5/4 of its bandwidth where it may have paced 3/4 before (tcp_bbr.c
 * bbr_pacing_gain).  Beyond that the flight before was not the window but the application's
 * (a CUBIC sender at 4 Mbit/s over 10 lost at the tail of a burst, 24 segments under a window
 * of 179, and sent 84 after: "flight after recovery 4.02 x before", named bbr at 0.85): that
 * recovery's decrease is not measured. */
#define BETA_RISE_MAX (5.0 / 3.0)

/* The ACK's reaction window is over: the models see it with the flight of the window before. */
static void resolve(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd,
                    const struct tn_pending_ack *pa)
{
    struct tn_conn *c = &cp->pub;
    struct tn_sender *s = cp->dp[sd].snd;
    struct tn_replay *r = &s->rp;
    int64_t hi = c->d[sd].hi_rel;
    int64_t flight_max = r->flight_max, sent_flight_max = r->sent_flight_max;
    r->k_una = pa->una;
    r->k_adj = pa->adj - resent_unseen_at(r, pa);
    r->k_set = true;
    int64_t flight = tn_replay_known_pipe(r, hi);
    r->flight_max = flight;
    r->sent_flight_max = 0;
    int64_t resent = r->resent, sent = r->sent;
    r->resent = r->sent = 0;
    int64_t at = pa->t_ns + to_sender_ns(cp, sd);
    if (pa->ends)
        tn_cc_on_recovery_end(s->models, at, pa->ends == TN_EP_RTO);
    /* A sender keeps what it has in flight within the window the receiver offers (RFC 9293
     * §3.8.6.2.1): more in flight than the window unscaled allows says that it is scaled, by a
     * factor in the SYNs not seen (RFC 7323 §2.3); from then on the window is unknown, not a
     * limit (a mid-flow capture of a scaled window read it as 64 KB at most: "limited by the
     * receiver window 100%", no round window-clocked, no flavour) */
    if (s->rwnd_scale_unknown && s->rwnd && (double)flight_max > (double)s->rwnd + s->mss)
        s->rwnd_scaled = true;
    struct tn_cc_ack ca = {
        .t_ns = at,
        .seen_ns = pa->t_ns,
        .pkt = ctx->pkt ? ctx->pkt->num : 0,
        .acked = pa->acked,
        .sacked = pa->sacked,
        .snd_nxt = hi,
        .delivered = pa->delivered,
        .rtt_ms = pa->rtt_ms,
        .flight_max = (double)flight_max,
        .sent_flight_max = (double)sent_flight_max,
        .flight_now = (double)flight,
        .resent = resent,
        .sent = sent,
        .legacy_recovery = c->d[sd].opts_unknown,
        .in_episode = pa->in_episode,
        .episode_ended = pa->episode_ended,
        .rwnd_limited = s->rwnd && !s->rwnd_scaled && (double)flight_max + s->mss > (double)s->rwnd,
        .all_seen = pa->una > s->first_una,
    };
    tn_cc_on_ack(s->models, &ca);
    const char *hs = tn_cc_hystart_exit(s->models);
    if (hs)
        tn_ss_replay_exit(ctx, c, sd, &s->ss, at, pa->una, hs);
    if (r->beta_pending && !pa->in_episode && pa->t_ns >= r->beta_after_ns && sent_flight_max > 0) {
        if (!r->betas) {
            r->betas = tn_xcalloc(TN_BETA_MAX, sizeof *r->betas);
            r->betas_ss = tn_xcalloc(TN_BETA_MAX, sizeof *r->betas_ss);
        }
        double beta = (double)sent_flight_max / s->mss / r->beta_before;
        if (beta <= BETA_RISE_MAX) {
            if (r->nbetas < TN_BETA_MAX) {
                r->betas_ss[r->nbetas] = r->beta_ss;
                r->betas[r->nbetas++] = beta;
            }
            tn_cc_on_cut(s->models, beta);
        }
        r->beta_pending = false;
    }
    account_limiter(s, &ca, at);
    tn_rec_series(ctx, c, sd, TN_SER_INFLIGHT, at, (double)flight);
    tn_cc_record(ctx, c, sd, s->models, at);
}

static struct tn_pending_ack pop(struct tn_replay *r)
{
    struct tn_pending_ack pa = r->pend[r->pend_head];
    r->pend_head = (r->pend_head + 1) % r->pend_cap;
    r->pend_n--;
    return pa;
}

void tn_replay_advance(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd, int64_t t)
{
    struct tn_replay *r = &cp->dp[sd].snd->rp;
    int64_t h = tn_replay_reaction_ns(cp, sd);
    while (r->pend_n) {
        const struct tn_pending_ack *next =
            r->pend_n > 1 ? &r->pend[(r->pend_head + 1) % r->pend_cap] : NULL;
        /* ACK k is done when the window of ACK k+1 opens; the last one waits for the end */
        if (t != INT64_MAX && (!next || !processed(r, next, t, h)))
            break;
        struct tn_pending_ack pa = pop(r);
        resolve(ctx, cp, sd, &pa);
    }
}

void tn_replay_processed(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd, int64_t t)
{
    struct tn_replay *r = &cp->dp[sd].snd->rp;
    int64_t h = tn_replay_reaction_ns(cp, sd);
    while (r->pend_n && processed(r, &r->pend[r->pend_head], t, h)) {
        struct tn_pending_ack pa = pop(r);
        resolve(ctx, cp, sd, &pa);
    }
}

void tn_replay_push(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd,
                    struct tn_pending_ack *pa)
{
    struct tn_replay *r = &cp->dp[sd].snd->rp;
    pa->ends = r->ends_pending;
    r->ends_pending = 0;
    pa->tick_first = pa->has_ts && (!r->push_ts_set || pa->tsval != r->push_tsval);
    r->push_tsval = pa->tsval;
    r->push_ts_set = pa->has_ts;
    if (r->pend_n == r->pend_cap &&
        !tn_ring_grow((void **)&r->pend, &r->pend_cap, &r->pend_head, r->pend_n, sizeof *r->pend,
                      TN_PENDING_MAX)) {   /* that many ACKs in one round trip: hand the oldest over */
        struct tn_pending_ack old = pop(r);
        resolve(ctx, cp, sd, &old);
    }
    r->pend[(r->pend_head + r->pend_n) % r->pend_cap] = *pa;
    r->pend_n++;
}

void tn_replay_episode_ended(struct tn_replay *r, enum tn_episode ep, int64_t t)
{
    if (ep == TN_EP_RECOVERY || ep == TN_EP_RTO)
        r->ends_pending = (uint8_t)ep;
    /* the multiplicative decrease tells the flavour: 0.5 Reno, 0.7 CUBIC (measured on
     * windows of 8 segments or more, where one segment does not blur it) */
    r->beta_pending = ep == TN_EP_RECOVERY && r->beta_before >= 8;
    /* "after" is the flight the first ACK from here on releases: ACKs seen before it may still
     * wait for the sender's reaction (away from the sender the dupacks of the whole recovery
     * do, when the retransmission that shows the loss is ACKed at once) */
    r->beta_after_ns = t;
}

/* The ACKs up to the one that ended the last episode are handed over now; ended here, by a
 * timeout, it ends at once. */
void tn_replay_episode_begins(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                              enum tn_episode ep, double flight_segs, int64_t t)
{
    struct tn_sender *s = cp->dp[d].snd;
    struct tn_replay *r = &s->rp;
    if (ep == TN_EP_RECOVERY)
        r->beta_before = flight_segs;
    /* the sender began the episode on the latest ACK it had processed when it sent the
     * retransmission (the third duplicate ACK, a SACK): those before it reach the models
     * before the loss, that one after it (Linux tcp_ack: tcp_fastretrans_alert enters the
     * recovery before tcp_cong_control reads the ACK) */
    tn_replay_advance(ctx, cp, d, t);
    /* ... and every ACK after that one, seen before the retransmission showed the recovery to
     * the monitor, the sender processed in it: its holes below the highest SACK are lost
     * (RFC 6675 IsLost; Linux marks them on entering the recovery) */
    for (unsigned i = 0; ep == TN_EP_RECOVERY && i < r->pend_n; i++) {
        struct tn_pending_ack *pa = &r->pend[(r->pend_head + i) % r->pend_cap];
        if (!pa->in_episode && !pa->ends) {
            pa->adj = pa->adj_recovering;
            pa->in_episode = true;
        }
    }
    bool ends = false;
    for (unsigned i = 0; i < r->pend_n && !ends; i++)
        ends = r->pend[(r->pend_head + i) % r->pend_cap].ends != 0;
    while (ends && r->pend_n) {
        struct tn_pending_ack pa = pop(r);
        resolve(ctx, cp, d, &pa);
        ends = !pa.ends;
    }
    if (r->ends_pending) {
        tn_cc_on_recovery_end(s->models, t, r->ends_pending == TN_EP_RTO);
        r->ends_pending = 0;
    }
}
