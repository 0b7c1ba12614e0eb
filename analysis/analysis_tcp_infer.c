/* analysis_tcp_infer.c - TCP inference: vantage point, RTT samples, retransmission causes,
 * recovery/timeout/zero-window/idle episodes, bytes in flight (issue 4).
 * RTT: Karn's rule (RFC 6298 §3), TSval/TSecr echo (RFC 7323 §4); pipe: RFC 6675 §4. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"
#include "seq.h"

#define NS_PER_MS 1000000.0

static double ms_between(int64_t later, int64_t earlier)
{
    return (double)(later - earlier) / NS_PER_MS;
}

static double sender_half_ms(const struct tn_conn_priv *cp, enum tn_dir d);

/* The segment size sender d's window is counted in, fixed when the sender first becomes known
 * (its state is allocated later, at its first use). */
static void fix_sender_mss(struct tn_conn_priv *cp, enum tn_dir d)
{
    struct tn_dir_priv *dp = &cp->dp[d];
    if (dp->snd_mss)
        return;
    const struct tn_dir_stats *rs = &cp->pub.d[!d];
    const struct tn_dir_stats *ds = &cp->pub.d[d];
    /* Linux counts cwnd in segments of mss_cache: the MSS minus the timestamp option */
    uint32_t mss = rs->mss_seen && rs->mss ? rs->mss : 1460;
    if (ds->ts_seen && rs->ts_seen && mss > 12)
        mss -= 12;
    dp->snd_mss = mss;
}

static struct tn_sender *sender_of(struct tn_conn_priv *cp, enum tn_dir d)
{
    struct tn_dir_priv *dp = &cp->dp[d];
    if (!dp->snd) {
        fix_sender_mss(cp, d);
        dp->snd = tn_xcalloc(1, sizeof *dp->snd);
        uint32_t mss = dp->snd_mss;
        dp->snd->mss = mss;
        dp->snd->models = tn_cc_new(mss);
        dp->snd->min_rtt_ms = -1;
        dp->snd->min_ack_ms = -1;
        dp->snd->hystart_event = -1;
    }
    return dp->snd;
}

void tn_tcp_conn_free(struct tn_conn_priv *cp)
{
    for (int d = 0; d < 2; d++) {
        tn_ranges_free(&cp->dp[d].gaps);
    }
    tn_infer_release(cp);
}

void tn_infer_release(struct tn_conn_priv *cp)
{
    for (int d = 0; d < 2; d++) {
        if (cp->dp[d].snd) {
            tn_ranges_free(&cp->dp[d].snd->sacked);
            tn_cc_free(cp->dp[d].snd->models);
            free(cp->dp[d].snd->segs);
            free(cp->dp[d].snd->pend);
            free(cp->dp[d].snd->ts);
            free(cp->dp[d].snd->rexmits);
            free(cp->dp[d].snd->betas);
            free(cp->dp[d].snd);
            cp->dp[d].snd = NULL;
        }
    }
}

/* Retransmission timeout the sender would use: RFC 6298 §2 srtt + 4 rttvar, where Linux
 * keeps the variance term at least tcp_rto_min (200 ms): srtt + max(4 rttvar, 200 ms). */
static double rto_est_ms(const struct tn_sender *s)
{
    if (!s->rtt_init)
        return 1000.0;
    double var = 4 * s->rttvar_ms;
    return s->srtt_ms + (var < 200.0 ? 200.0 : var);
}

/* ---- vantage point from the handshake ---- */

/* A SYN or SYN-ACK sent again with the same ISN: its retransmission timer (1 s initially)
 * ran out.  Counted as a timeout retransmission with a timeout episode that the peer's answer
 * ends. */
static void syn_rexmit(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                       const struct tn_pkt *p, int64_t prev_ns)
{
    struct tn_conn *c = &cp->pub;
    int64_t t = tn_time_ns(p->ts);
    c->inf[d].rexmit[TN_EV_REXMIT_RTO - TN_EV_REXMIT_FAST]++;
    tn_cc_on_syn_timeout(sender_of(cp, d)->models);
    tn_rec_event(ctx, c, d, TN_EV_REXMIT_RTO, p, 0, 0, "timeout: %s resent after %.0f ms",
                 (p->tcp.flags & TN_TCP_ACK) ? "SYN-ACK" : "SYN", ms_between(t, prev_ns));
    if (!cp->syn_rto_open[d]) {
        cp->syn_rto_open[d] = true;
        c->inf[d].episodes_rto++;
        tn_rec_event(ctx, c, d, TN_EV_RTO_START, p, 0, 0, "handshake timeout");
    }
}

static void syn_rto_end(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                        const struct tn_pkt *p)
{
    if (!cp->syn_rto_open[!d])
        return;
    cp->syn_rto_open[!d] = false;
    tn_rec_event(ctx, &cp->pub, d, TN_EV_RTO_END, p, 1, 0, "the peer answered the handshake");
}

void tn_infer_handshake(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                        const struct tn_pkt *p)
{
    struct tn_conn *c = &cp->pub;
    uint8_t fl = p->tcp.flags;
    int64_t t = tn_time_ns(p->ts);
    if ((fl & TN_TCP_ACK) && !(fl & TN_TCP_RST))
        syn_rto_end(ctx, cp, d, p);
    if ((fl & (TN_TCP_SYN | TN_TCP_ACK)) == TN_TCP_SYN && d == TN_A2B) {
        if (cp->hs_syn_ns && c->d[d].syn > 1 && p->tcp.seq == c->d[d].isn)
            syn_rexmit(ctx, cp, d, p, cp->hs_syn_ns);
        cp->hs_syn_ns = t;
        return;
    }
    if ((fl & (TN_TCP_SYN | TN_TCP_ACK)) == (TN_TCP_SYN | TN_TCP_ACK) && d == TN_B2A) {
        if (cp->hs_synack_ns && c->d[d].syn > 1 && p->tcp.seq == c->d[d].isn)
            syn_rexmit(ctx, cp, d, p, cp->hs_synack_ns);
        cp->hs_synack_ns = t;
        return;
    }
    if (d == TN_A2B && (fl & TN_TCP_ACK) && !(fl & TN_TCP_SYN))
        tn_conn_set_handshake(cp, t);
}

/* ---- per-interval throughput and goodput ---- */

static void interval_flush(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d,
                           struct tn_sender *s, int64_t t)
{
    int64_t iv = ctx->cfg->interval_ns;
    if (!s->last_interval_end)
        s->last_interval_end = (t / iv + 1) * iv;
    while (t >= s->last_interval_end) {
        double secs = (double)iv / 1e9;
        tn_rec_series(ctx, c, d, TN_SER_THROUGHPUT, s->last_interval_end,
                      (double)s->interval_bytes * 8 / secs);
        tn_rec_series(ctx, c, d, TN_SER_GOODPUT, s->last_interval_end,
                      (double)s->interval_good * 8 / secs);
        s->interval_bytes = s->interval_good = 0;
        s->last_interval_end += iv;
        /* a long silence (or a clock jump in the trace): one zero where traffic resumes
         * rather than a point per interval in between */
        if (t - s->last_interval_end > 2 * iv)
            s->last_interval_end = t / iv * iv;
    }
}

/* ---- the segment ring (RTT) ---- */

static void seg_push(struct tn_sender *s, int64_t start, int64_t end, int64_t t)
{
    if (s->seg_n == s->seg_cap &&
        !tn_ring_grow((void **)&s->segs, &s->seg_cap, &s->seg_head, s->seg_n, sizeof *s->segs,
                      TN_SEG_RING_MAX)) {   /* full: forget the oldest */
        s->seg_head = (s->seg_head + 1) % s->seg_cap;
        s->seg_n--;
    }
    unsigned i = (s->seg_head + s->seg_n) % s->seg_cap;
    s->segs[i] = (struct tn_seg){start, end, t, false, 0, t};
    s->seg_n++;
}

/* Mark the segments [start, end) overlaps as sent again at t; the time since the latest earlier
 * transmission of the first of them goes into inf's retransmission-time statistics, and the
 * most times one segment was resent into max_retrans (tcptrace -r's "retr time", "max # retrans"). */
static void seg_mark_rexmit(struct tn_sender *s, int64_t start, int64_t end, int64_t t,
                            struct tn_tcp_infer *inf)
{
    bool first = true;
    for (unsigned k = 0; k < s->seg_n; k++) {
        struct tn_seg *g = &s->segs[(s->seg_head + k) % s->seg_cap];
        if (g->end > start && g->start < end) {
            g->rexmit = true;
            if (first)
                tn_stat_add(&inf->retr_ms, ms_between(t, g->last_tx_ns));
            first = false;
            g->last_tx_ns = t;
            if (++g->resent > inf->max_retrans)
                inf->max_retrans = g->resent;
        }
    }
}

static void rtt_update(struct tn_sender *s, double r)
{
    if (!s->rtt_init) {
        s->srtt_ms = r;
        s->rttvar_ms = r / 2;
        s->rtt_init = true;
    } else {
        s->rttvar_ms = 0.75 * s->rttvar_ms + 0.25 * fabs(s->srtt_ms - r);
        s->srtt_ms = 0.875 * s->srtt_ms + 0.125 * r;
    }
    if (s->min_rtt_ms < 0 || r < s->min_rtt_ms)
        s->min_rtt_ms = r;
}

/* Pop the segments the ACK of [from, ack) covers; returns an RTT sample in ms, or -1 (none, or
 * ambiguous), and the length of the segment it times in *len.  Karn's rule (RFC 6298 §3): no
 * sample from an ACK that covers a retransmitted segment.  The same holds for data the monitor
 * did not see sent once, in order: a hole in the timed segments (a segment lost before the
 * monitor and filled by its retransmission, or one the capture missed), or data the receiver
 * had already SACKed.  Such an ACK was sent when the hole was filled, not when the timed
 * segment arrived; timing it against the segment (as in recovery, where it covers a window of
 * segments received out of order) would add up to a round trip.  Linux likewise takes no
 * sequence RTT sample when retransmitted data is acked (FLAG_RETRANS_DATA_ACKED in
 * tcp_clean_rtx_queue). */
static double seg_ack(struct tn_sender *s, int64_t from, int64_t ack, int64_t t, int64_t *len,
                      struct tn_ack_cover *cv)
{
    double sample = -1;
    *cv = (struct tn_ack_cover){0};
    bool ambiguous = tn_ranges_bytes_above(&s->sacked, from) > tn_ranges_bytes_above(&s->sacked, ack);
    int64_t expect = from;   /* next byte the timed segments should cover */
    while (s->seg_n) {
        struct tn_seg *g = &s->segs[s->seg_head];
        if (g->end > ack) {
            if (g->start > expect)
                ambiguous = true;
            expect = ack;
            break;
        }
        ambiguous |= g->rexmit || g->start > expect;
        if (g->end > expect)
            expect = g->end;
        sample = ms_between(t, g->t_ns);
        *len = g->end - g->start;
        cv->segs++;
        cv->last_ns = g->t_ns;
        s->seg_head = (s->seg_head + 1) % s->seg_cap;
        s->seg_n--;
    }
    if (expect < ack)
        ambiguous = true;   /* the ACK covers data above every timed segment */
    cv->in_order = !ambiguous;
    return ambiguous ? -1 : sample;
}

static void ts_push(struct tn_sender *s, uint32_t val, int64_t t)
{
    if (s->ts_n && s->ts[(s->ts_head + s->ts_n - 1) % s->ts_cap].val == val)
        return;   /* only the first segment carrying a TSval times it */
    if (s->ts_n == s->ts_cap &&
        !tn_ring_grow((void **)&s->ts, &s->ts_cap, &s->ts_head, s->ts_n, sizeof *s->ts, TN_TS_RING)) {
        s->ts_head = (s->ts_head + 1) % s->ts_cap;
        s->ts_n--;
    }
    s->ts[(s->ts_head + s->ts_n) % s->ts_cap] = (struct tn_tsent){val, t};
    s->ts_n++;
}

static double ts_echo(struct tn_sender *s, uint32_t ecr, int64_t t)
{
    while (s->ts_n) {
        struct tn_tsent *e = &s->ts[s->ts_head];
        if (tn_seq_gt(e->val, ecr))
            return -1;
        s->ts_head = (s->ts_head + 1) % s->ts_cap;
        s->ts_n--;
        if (e->val == ecr)
            return ms_between(t, e->t_ns);
    }
    return -1;
}

/* ---- SACK scoreboard ---- */

static int64_t sacked_bytes(const struct tn_sender *s, int64_t above)
{
    return tn_ranges_bytes_above(&s->sacked, above);
}

/* Bytes in flight as the sender sees them (RFC 6675 "pipe"): outstanding, minus SACKed, minus
 * what the scoreboard says is lost (holes below the highest SACK while recovering), plus
 * retransmissions not yet acknowledged. */
static int64_t pipe_bytes(const struct tn_sender *s, int64_t hi)
{
    if (!s->una_set || hi <= s->una)
        return 0;
    int64_t out = hi - s->una;
    if (!s->sack) {
        /* Without SACK each duplicate ACK says one segment left the network (RFC 6582, Linux
         * tcp_add_reno_sack); the retransmitted head was marked lost, so the two cancel. */
        int64_t p = out - (int64_t)(s->reno_sacked * s->mss);
        return p < 0 ? 0 : p;
    }
    int64_t sacked = sacked_bytes(s, s->una);
    int64_t lost = 0;
    if (s->episode != TN_EP_NONE && s->sacked.n) {
        int64_t top = tn_ranges_highest(&s->sacked);
        lost = (top - s->una) - (sacked - sacked_bytes(s, top));
        if (lost < 0)
            lost = 0;
    }
    int64_t p = out - sacked - lost + s->rexmit_out;
    return p < 0 ? 0 : p;
}

/* ---- episodes ---- */

/* End sender d's episode; pd is the direction of the packet that ends it. */
static void end_episode(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                        enum tn_dir pd, const struct tn_pkt *p, const char *why)
{
    struct tn_sender *s = cp->dp[d].snd;
    enum tn_event_kind k = s->episode == TN_EP_RTO ? TN_EV_RTO_END : TN_EV_RECOVERY_END;
    tn_rec_event(ctx, &cp->pub, pd, k, p, (uint64_t)s->recovery_point, 0,
                 "%s after %.1f ms; recovery point %lld", why,
                 ms_between(tn_time_ns(p->ts), s->episode_start_ns), (long long)s->recovery_point);
    /* the models end it when the sender processes the ACK that ended it (resolve_pending):
     * away from the sender the ACKs before it, still on their way, were sent in the episode */
    if (s->episode == TN_EP_RECOVERY || s->episode == TN_EP_RTO)
        s->ends_pending = (uint8_t)s->episode;
    /* the multiplicative decrease tells the flavour: 0.5 Reno, 0.7 CUBIC (measured on
     * windows of 8 segments or more, where one segment does not blur it) */
    s->beta_pending = s->episode == TN_EP_RECOVERY && s->beta_before >= 8;
    /* "after" is the flight the first ACK from here on releases: ACKs seen before it may still
     * wait for the sender's reaction (away from the sender the dupacks of the whole recovery
     * do, when the retransmission that shows the loss is ACKed at once) */
    s->beta_after_ns = tn_time_ns(p->ts);
    s->episode = TN_EP_NONE;
    s->rexmit_out = 0;
    s->reno_sacked = 0;
}

/* The sender's window was cut (a loss, or a loss repaired by a probe): slow start is over.
 * The first such moment is kept in case a HyStart exit recorded earlier has to be taken back
 * (tn_infer_finish); the event is recorded once, with the data direction d. */
static void slowstart_over(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d,
                           struct tn_sender *s, const struct tn_pkt *p, int64_t t, const char *why)
{
    if (!s->first_loss.t_ns) {
        s->first_loss = (struct tn_event){.t_ns = t, .pkt = p->num, .seq = (uint64_t)s->una,
                                          .kind = TN_EV_SLOWSTART_END, .dir = (uint8_t)d};
        snprintf(s->first_loss.detail, sizeof s->first_loss.detail, "%s", why);
    }
    struct tn_tcp_infer *inf = &c->inf[d];
    if (!inf->slowstart_ended) {
        inf->slowstart_ended = true;
        inf->slowstart_end_ns = t;
        tn_rec_event(ctx, c, d, TN_EV_SLOWSTART_END, p, (uint64_t)s->una, 0, "%s", s->first_loss.detail);
    }
}

static void resolve_pending(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd,
                            struct tn_sender *s, const struct tn_pending_ack *pa);

/* A new episode begins: the end of the last one reaches the models first (the ACKs up to the
 * one that ended it are handed over now; ended here, by a timeout, it ends at once). */
static void end_episode_in_models(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                                  struct tn_sender *s, int64_t t)
{
    bool ends = false;
    for (unsigned i = 0; i < s->pend_n && !ends; i++)
        ends = s->pend[(s->pend_head + i) % s->pend_cap].ends != 0;
    while (ends && s->pend_n) {
        struct tn_pending_ack pa = s->pend[s->pend_head];
        s->pend_head = (s->pend_head + 1) % s->pend_cap;
        s->pend_n--;
        resolve_pending(ctx, cp, d, s, &pa);
        ends = !pa.ends;
    }
    if (s->ends_pending) {
        tn_cc_on_recovery_end(s->models, t, s->ends_pending == TN_EP_RTO);
        s->ends_pending = 0;
    }
}

static void start_episode(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                          const struct tn_pkt *p, enum tn_episode ep, const char *why)
{
    struct tn_conn *c = &cp->pub;
    struct tn_sender *s = cp->dp[d].snd;
    struct tn_tcp_infer *inf = &c->inf[d];
    int64_t t = tn_time_ns(p->ts);
    if (s->episode == ep)
        return;
    if (s->episode != TN_EP_NONE)
        end_episode(ctx, cp, d, d, p, "interrupted by a timeout");
    double flight = (double)s->flight_max;
    s->episode = ep;
    s->episode_start_ns = t;
    s->recovery_point = c->d[d].hi_rel;
    s->rexmit_out = 0;
    if (ep == TN_EP_RECOVERY) {
        inf->episodes_recovery++;
        s->beta_before = flight / s->mss;
    }
    else
        inf->episodes_rto++;
    tn_rec_event(ctx, c, d, ep == TN_EP_RTO ? TN_EV_RTO_START : TN_EV_RECOVERY_START, p,
                 (uint64_t)s->una, 0, "%s; recovery point %lld; flight %.0f B", why,
                 (long long)s->recovery_point, flight);
    char why_ss[64];
    snprintf(why_ss, sizeof why_ss, "loss: %s at flight %.0f B",
             ep == TN_EP_RTO ? "timeout" : "fast retransmit", flight);
    slowstart_over(ctx, c, d, s, p, t, why_ss);
    end_episode_in_models(ctx, cp, d, s, t);
    tn_cc_on_loss(s->models, t, ep == TN_EP_RTO, flight);
}

/* ---- retransmission causes ---- */

static enum tn_event_kind rexmit_cause(const struct tn_conn_priv *cp, enum tn_dir d,
                                       const struct tn_sender *s, int64_t start, int64_t t,
                                       char *why, size_t len)
{
    double rto = rto_est_ms(s);
    /* the retransmission timer runs from the last ACK that advanced and from the last
     * retransmission of the head (Linux rearms it there); dupacks and new data do not */
    int64_t timer_since = s->last_head_rexmit_ns > s->last_progress_ns ? s->last_head_rexmit_ns
                                                                       : s->last_progress_ns;
    if (!timer_since)
        timer_since = s->first_send_ns;
    double waited = timer_since ? ms_between(t, timer_since) : 0;
    int64_t last_activity = s->last_send_ns > s->last_progress_ns ? s->last_send_ns : s->last_progress_ns;
    double quiet = last_activity ? ms_between(t, last_activity) : 0;
    int64_t sacked_above = sacked_bytes(s, start);
    (void)cp;
    (void)d;
    if (waited >= 0.8 * rto && waited >= 150.0) {
        snprintf(why, len, "timeout: %.0f ms since the timer was armed, rto_est %.0f ms", waited, rto);
        return TN_EV_REXMIT_RTO;
    }
    if (start == s->last_head_rexmit_start && s->last_head_rexmit_ns && !s->sack) {
        snprintf(why, len, "timeout: head %lld resent again after %.0f ms", (long long)start, waited);
        return TN_EV_REXMIT_RTO;
    }
    if (s->episode == TN_EP_RTO) {
        snprintf(why, len, "slow start after timeout (go-back-N)");
        return TN_EV_REXMIT_RTO;
    }
    if (s->dupacks >= 3) {
        snprintf(why, len, "%u dupacks; sacked above %lld B", s->dupacks, (long long)sacked_above);
        return TN_EV_REXMIT_FAST;
    }
    if (sacked_above > 0) {
        snprintf(why, len, "sack evidence: %lld B sacked above, %u dupacks", (long long)sacked_above,
                 s->dupacks);
        return TN_EV_REXMIT_FAST;
    }
    if (s->episode == TN_EP_RECOVERY) {
        snprintf(why, len, "partial ack in recovery (NewReno)");
        return TN_EV_REXMIT_FAST;
    }
    if (s->rtt_init && quiet >= 1.5 * s->srtt_ms) {
        snprintf(why, len, "tail loss probe? %.0f ms silent < rto_est %.0f ms", quiet, rto);
        return TN_EV_REXMIT_OTHER;
    }
    snprintf(why, len, "%u dupacks, no sack, %.0f ms silent", s->dupacks, quiet);
    return TN_EV_REXMIT_OTHER;
}

static void on_rexmit(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                      const struct tn_pkt *p, struct tn_seginfo *si, const char *prefix)
{
    struct tn_sender *s = cp->dp[d].snd;
    struct tn_tcp_infer *inf = &cp->pub.inf[d];
    int64_t t = tn_time_ns(p->ts);
    char why[64];
    enum tn_event_kind k = rexmit_cause(cp, d, s, si->start, t, why, sizeof why);
    si->cause = (uint8_t)(1 + k);
    inf->rexmit[k - TN_EV_REXMIT_FAST]++;
    if (si->start <= s->una) {   /* the head of the retransmission queue */
        s->last_head_rexmit_ns = t;
        s->last_head_rexmit_start = si->start;
    }
    seg_mark_rexmit(s, si->start, si->end, t, inf);
    if (!s->rexmits)
        s->rexmits = tn_xcalloc(TN_REXMIT_RING, sizeof *s->rexmits);
    s->rexmits[s->rexmit_next++ % TN_REXMIT_RING] = (struct tn_gap){.lo = si->start, .hi = si->end, .t_ns = t};
    s->last_rexmit_end = si->end;
    s->last_rexmit_ns = t;
    tn_rec_event(ctx, &cp->pub, d, k, p, (uint64_t)si->start, (uint32_t)(si->end - si->start),
                 "%s%s", prefix, why);
    if (k == TN_EV_REXMIT_OTHER && s->episode == TN_EP_NONE) {
        s->tlp_end = cp->pub.d[d].hi_rel;   /* Linux's tlp_high_seq: snd_nxt at the probe */
        s->tlp_dsack = false;
    }
    if (k == TN_EV_REXMIT_RTO)
        start_episode(ctx, cp, d, p, TN_EP_RTO, "retransmission timeout");
    else if (k == TN_EV_REXMIT_FAST)
        start_episode(ctx, cp, d, p, TN_EP_RECOVERY, "fast retransmit");
    if (s->episode != TN_EP_NONE && si->end > s->una)
        s->rexmit_out += si->end - si->start;
}

void tn_infer_fin_rexmit(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                         const struct tn_pkt *p, int64_t fin_rel)
{
    struct tn_sender *s = sender_of(cp, d);
    struct tn_seginfo si = {.start = fin_rel, .end = fin_rel + 1, .cls = TN_SEG_REXMIT};
    interval_flush(ctx, &cp->pub, d, s, tn_time_ns(p->ts));
    on_rexmit(ctx, cp, d, p, &si, "FIN again; ");
}

/* The packet crossed no router on its way here: its TTL (hop limit) is still one that senders
 * start with (RFC 791 §3.2: every router decrements it; Linux and the BSDs start at 64, IPDEFTTL
 * / sysctl ip_default_ttl, Windows at 128, network equipment at 255; RFC 1700).  A monitor that
 * sees it so sits on the sender's own link, where no queue drops a packet before it.  (Not for
 * a simulator's packets, whose TTL is made up.) */
static bool ttl_unrouted(const struct tn_pkt *p)
{
    return !p->tcp.no_options && p->ipver && (p->ttl == 64 || p->ttl == 128 || p->ttl == 255);
}

/* A segment that filled a gap: sent later than the segment above the gap (loss before the
 * monitor, then a retransmission) or sent earlier and overtaken (reordering)? */
static void on_fill(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                    const struct tn_pkt *p, struct tn_seginfo *si)
{
    const struct tn_conn *c = &cp->pub;
    const struct tn_sender *s = cp->dp[d].snd;
    double waited = ms_between(tn_time_ns(p->ts), si->gap.t_ns);
    bool later;
    char rule[48];
    if (si->gap.has_ts && p->tcp.opt.has_ts) {
        later = tn_seq_gt(p->tcp.opt.ts_val, si->gap.tsval);
        snprintf(rule, sizeof rule, "TSval %u %s %u", p->tcp.opt.ts_val, later ? ">" : "<=",
                 si->gap.tsval);
    } else if (s && s->asked_hi > s->asked_lo && si->start >= s->asked_lo && si->start < s->asked_hi) {
        /* the receiver had already asked for it again and again: sent in answer, not overtaken */
        later = true;
        snprintf(rule, sizeof rule, "after dupacks asking for %lld", (long long)s->asked_lo);
    } else {
        /* a retransmission needs the news of the hole to reach the sender and the new copy to
         * come back: at least the monitor <-> sender round trip after the hole showed */
        double ref = sender_half_ms(cp, d);
        if (ref <= 0.05)
            ref = c->hs_rtt_ms > 0 ? c->hs_rtt_ms : (s->rtt_init ? s->srtt_ms : 10.0);
        later = waited >= 0.5 * ref;
        snprintf(rule, sizeof rule, "%.1f ms %s half the sender round trip %.1f ms", waited,
                 later ? ">=" : "<", ref);
    }
    if (!later) {
        tn_rec_event(ctx, &cp->pub, d, TN_EV_OOO, p, (uint64_t)si->start,
                     (uint32_t)(si->end - si->start), "reordering: %s; filled after %.1f ms", rule,
                     waited);
        return;
    }
    if (ttl_unrouted(p)) {
        /* no router lies before the monitor, so nothing could drop the first copy there: it was
         * sent and the capture missed it; this one is a retransmission all the same */
        cp->pub.inf[d].capture_gaps++;
        cp->pub.inf[d].capture_gap_bytes += (uint64_t)(si->gap.hi - si->gap.lo);
        tn_rec_event(ctx, &cp->pub, d, TN_EV_CAPTURE_GAP, p, (uint64_t)si->gap.lo,
                     (uint32_t)(si->gap.hi - si->gap.lo),
                     "hole %lld-%lld next to the sender: the capture missed its first copy; %s",
                     (long long)si->gap.lo, (long long)si->gap.hi, rule);
        on_rexmit(ctx, cp, d, p, si, "first copy not captured; ");
        return;
    }
    cp->pub.inf[d].loss_upstream++;
    tn_rec_event(ctx, &cp->pub, d, TN_EV_LOSS_UPSTREAM, p, (uint64_t)si->gap.lo,
                 (uint32_t)(si->gap.hi - si->gap.lo), "%s %lld-%lld %s after %.1f ms; %s",
                 si->tail ? "tail" : "hole", (long long)si->gap.lo, (long long)si->gap.hi,
                 si->tail ? "resent (IP IDs: packets sent unseen before it)" : "filled", waited, rule);
    on_rexmit(ctx, cp, d, p, si, si->tail ? "lost tail; " : "lost upstream; ");
}

static void check_idle(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                       const struct tn_pkt *p, struct tn_sender *s, int64_t t)
{
    const struct tn_dir_stats *ds = &cp->pub.d[d];
    if (!s->last_send_ns || !s->una_set || s->una < ds->hi_rel)
        return;   /* something was outstanding: not idle */
    int64_t since = s->last_send_ns > s->last_ack_ns ? s->last_send_ns : s->last_ack_ns;
    double idle = ms_between(t, since);
    double thresh = rto_est_ms(s);
    /* the sender restarts its window when the time since its last send (Linux lsndtime)
     * exceeds its RTO, and tells its flavour it transmits again (CA_EVENT_TX_START) */
    tn_cc_on_idle(s->models, t, ms_between(t, s->last_send_ns), thresh);
    if (idle < thresh)
        return;
    cp->pub.inf[d].episodes_idle++;
    size_t before = cp->pub.nevents;
    tn_rec_event(ctx, &cp->pub, d, TN_EV_IDLE_START, p, (uint64_t)s->una, 0,
                 "nothing outstanding, nothing sent");
    if (cp->pub.nevents > before)
        cp->pub.events[before].t_ns = since;   /* the idle period began at the last activity */
    tn_rec_event(ctx, &cp->pub, d, TN_EV_IDLE_END, p, (uint64_t)s->una, 0,
                 "sender idle %.0f ms with nothing outstanding (> rto_est %.0f ms)", idle, thresh);
}

/* ---- handing ACKs to the window models when the sender has reacted ---- */

/* The pipe as the sender sees it: the scoreboard of the last ACK it has processed. */
static int64_t known_pipe(const struct tn_sender *s, int64_t hi)
{
    if (!s->k_set)
        return 0;
    int64_t p = hi - s->k_una - s->k_adj;
    return p < 0 ? 0 : p;
}

static void account_limiter(const struct tn_conn *c, struct tn_sender *s, const struct tn_cc_ack *a,
                            int64_t t);

/* Echo times next to a sender are tens of microseconds; above this a queue sits between. */
#define QUEUE_BEHIND_MS 2.0

/* Round trip from the monitor to the sender and back, in ns: how long after an ACK passes the
 * monitor the data it releases passes it (0 next to the sender). */
static int64_t reaction_ns(const struct tn_conn_priv *cp, enum tn_dir sd)
{
    /* Next to the sender it reacts at once: echo times there are the sender's own few
     * microseconds.  Unless the echoes say otherwise: a monitor after a router's queue (say on
     * the bottleneck's egress) looks near the sender in the handshake, yet sees the data an
     * ACK releases only once it has crossed that queue.  The least of the recent echo times is
     * an ACK that released data at once, so it is that queue's delay; only when even it is
     * late does a queue sit between (next to a sender one late echo is a stalled sender). */
    const struct tn_sender *s = cp->dp[sd].snd;
    bool echoes = s && s->half_init;
    enum tn_vantage near_sender = sd == TN_A2B ? TN_VP_NEAR_A : TN_VP_NEAR_B;
    if (cp->pub.vantage == near_sender)
        return echoes && s->half_low > QUEUE_BEHIND_MS ? (int64_t)(s->half_low * 1e6) : 0;
    return (int64_t)(sender_half_ms(cp, sd) * 1e6);
}

/* The ACK's reaction window is over: the models see it with the flight of the window before. */
static void resolve_pending(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd,
                            struct tn_sender *s, const struct tn_pending_ack *pa)
{
    struct tn_conn *c = &cp->pub;
    int64_t hi = c->d[sd].hi_rel;
    int64_t flight_max = s->flight_max, sent_flight_max = s->sent_flight_max;
    s->k_una = pa->una;
    s->k_adj = pa->adj;
    s->k_set = true;
    int64_t flight = known_pipe(s, hi);
    s->flight_max = flight;
    s->sent_flight_max = 0;
    /* the sender processed it half the monitor <-> sender round trip after the monitor saw it */
    int64_t at = pa->t_ns + reaction_ns(cp, sd) / 2;
    if (pa->ends)
        tn_cc_on_recovery_end(s->models, at, pa->ends == TN_EP_RTO);
    struct tn_cc_ack ca = {
        .t_ns = at,
        .pkt = ctx->pkt ? ctx->pkt->num : 0,
        .acked = pa->acked,
        .sacked = pa->sacked,
        .snd_nxt = hi,
        .delivered = pa->delivered,
        .rtt_ms = pa->rtt_ms,
        .flight_max = (double)flight_max,
        .sent_flight_max = (double)sent_flight_max,
        .flight_now = (double)flight,
        .in_episode = pa->in_episode,
        .episode_ended = pa->episode_ended,
        .rwnd_limited = s->rwnd && (double)flight_max + s->mss > (double)s->rwnd,
    };
    tn_cc_on_ack(s->models, &ca);
    const char *hs = tn_cc_hystart_exit(s->models);
    struct tn_tcp_infer *inf = &c->inf[sd];
    if (hs && !inf->slowstart_ended) {
        /* kept only if the sender turns out to run a flavour that left there (tn_infer_finish) */
        inf->slowstart_ended = true;
        inf->slowstart_end_ns = at;
        s->early_exit = true;
        size_t before = c->nevents;
        if (ctx->pkt)   /* none at the end of the input: tn_infer_finish settles it */
            tn_rec_event(ctx, c, sd, TN_EV_SLOWSTART_END, ctx->pkt, (uint64_t)pa->una, 0, "%s", hs);
        if (c->nevents > before) {
            c->events[before].t_ns = at;
            s->hystart_event = (long)before;
        }
    }
    if (s->beta_pending && !pa->in_episode && pa->t_ns >= s->beta_after_ns && sent_flight_max > 0) {
        if (!s->betas)
            s->betas = tn_xcalloc(TN_BETA_MAX, sizeof *s->betas);
        if (s->nbetas < TN_BETA_MAX)
            s->betas[s->nbetas++] = (double)sent_flight_max / s->mss / s->beta_before;
        s->beta_pending = false;
    }
    account_limiter(c, s, &ca, at);
    tn_rec_series(ctx, c, sd, TN_SER_INFLIGHT, at, (double)flight);
    tn_cc_record(ctx, c, sd, s->models, at);
}

/* Resolve every ACK whose reaction window has begun to close by time t (the next ACK's data
 * can be arriving), or all of them when t is INT64_MAX. */
static void advance_pending(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd,
                            struct tn_sender *s, int64_t t)
{
    int64_t h = reaction_ns(cp, sd);
    while (s->pend_n) {
        const struct tn_pending_ack *next =
            s->pend_n > 1 ? &s->pend[(s->pend_head + 1) % s->pend_cap] : NULL;
        /* ACK k is done when the window of ACK k+1 opens; the last one waits for the end */
        if (t != INT64_MAX && (!next || next->t_ns + h > t))
            break;
        struct tn_pending_ack pa = s->pend[s->pend_head];
        s->pend_head = (s->pend_head + 1) % s->pend_cap;
        s->pend_n--;
        resolve_pending(ctx, cp, sd, s, &pa);
    }
}

static void push_pending(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd,
                         struct tn_sender *s, const struct tn_pending_ack *pa)
{
    if (s->pend_n == s->pend_cap &&
        !tn_ring_grow((void **)&s->pend, &s->pend_cap, &s->pend_head, s->pend_n, sizeof *s->pend,
                      TN_PENDING_MAX)) {   /* that many ACKs in one round trip: hand the oldest over */
        struct tn_pending_ack old = s->pend[s->pend_head];
        s->pend_head = (s->pend_head + 1) % s->pend_cap;
        s->pend_n--;
        resolve_pending(ctx, cp, sd, s, &old);
    }
    s->pend[(s->pend_head + s->pend_n) % s->pend_cap] = *pa;
    s->pend_n++;
}

void tn_infer_data(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                   const struct tn_pkt *p, struct tn_seginfo *si)
{
    struct tn_sender *s = sender_of(cp, d);
    int64_t t = tn_time_ns(p->ts);
    interval_flush(ctx, &cp->pub, d, s, t);
    s->interval_bytes += p->payload_len;
    switch (si->cls) {
    case TN_SEG_NEW:
        check_idle(ctx, cp, d, p, s, t);
        seg_push(s, si->start, si->end, t);
        break;
    case TN_SEG_REXMIT:
        on_rexmit(ctx, cp, d, p, si, "");
        break;
    case TN_SEG_FILL:
        on_fill(ctx, cp, d, p, si);
        break;
    case TN_SEG_PROBE:
        tn_rec_event(ctx, &cp->pub, d, TN_EV_WINDOW_PROBE, p, (uint64_t)si->start, p->payload_len,
                     "byte resent into a zero window");
        break;
    }
    if (!s->una_set) {   /* no ACK seen yet: the first data marks the left edge */
        s->una = si->start < cp->pub.d[d].lo_rel ? si->start : cp->pub.d[d].lo_rel;
        s->una_set = true;
    }
    s->last_send_ns = t;
    if (!s->first_send_ns)
        s->first_send_ns = t;
    advance_pending(ctx, cp, d, s, t);
    int64_t flight = known_pipe(s, cp->pub.d[d].hi_rel);
    if (flight > s->flight_max)
        s->flight_max = flight;
    if (si->cls == TN_SEG_NEW && flight > s->sent_flight_max)
        s->sent_flight_max = flight;
    if ((double)flight > cp->pub.inf[d].max_inflight)
        cp->pub.inf[d].max_inflight = (double)flight;
}

/* ---- ACKs (p goes d -> !d and acknowledges the data of sender !d) ---- */

/* Was [lo, hi) (or part of it) retransmitted recently? */
static bool was_rexmitted(const struct tn_sender *s, int64_t lo, int64_t hi)
{
    for (unsigned i = 0; s->rexmits && i < TN_REXMIT_RING; i++) {
        const struct tn_gap *g = &s->rexmits[i];
        if (g->hi > g->lo && g->lo < hi && lo < g->hi)
            return true;
    }
    return false;
}

static void dsack_check(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd,
                        const struct tn_pkt *p, int64_t ack, int64_t lo, int64_t hi, int64_t lo2,
                        int64_t hi2, bool second)
{
    struct tn_sender *s = cp->dp[sd].snd;
    /* RFC 2883: the first block reports a duplicate when it lies below the packet's own
     * cumulative ACK or inside the second block */
    bool dup = hi <= ack || (second && lo >= lo2 && hi <= hi2);
    if (!dup)
        return;
    if (!was_rexmitted(s, lo, hi)) {   /* duplicated by the network, or resent unseen */
        tn_rec_event(ctx, &cp->pub, (enum tn_dir)!sd, TN_EV_DUP_DELIVERY, p, (uint64_t)lo, (uint32_t)(hi - lo),
                     "D-SACK %lld-%lld for data never seen resent: duplicated in the network",
                     (long long)lo, (long long)hi);
        return;
    }
    cp->pub.inf[sd].rexmit[TN_EV_REXMIT_SPURIOUS - TN_EV_REXMIT_FAST]++;
    if (s->tlp_end && hi >= s->tlp_end && lo < s->tlp_end)
        s->tlp_dsack = true;
    tn_rec_event(ctx, &cp->pub, (enum tn_dir)!sd, TN_EV_REXMIT_SPURIOUS, p, (uint64_t)lo,
                 (uint32_t)(hi - lo), "D-SACK %lld-%lld: the retransmission was not needed",
                 (long long)lo, (long long)hi);
}

static void on_sack(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd,
                    const struct tn_pkt *p, int64_t ack, int64_t *newly)
{
    struct tn_sender *s = cp->dp[sd].snd;
    const struct tn_dir_stats *ss = &cp->pub.d[sd];
    const struct tn_tcp_opts *o = &p->tcp.opt;
    *newly = 0;
    for (unsigned i = 0; i < o->nsack; i++) {
        int64_t lo = tn_rel_seq(ss, o->sack[i].left), hi = tn_rel_seq(ss, o->sack[i].right);
        if (hi <= lo || hi - lo > (int64_t)1 << 30)
            continue;   /* nonsense block */
        if (i == 0) {
            int64_t lo2 = 0, hi2 = 0;
            if (o->nsack > 1) {
                lo2 = tn_rel_seq(ss, o->sack[1].left);
                hi2 = tn_rel_seq(ss, o->sack[1].right);
            }
            dsack_check(ctx, cp, sd, p, ack, lo, hi, lo2, hi2, o->nsack > 1);
        }
        if (hi > s->una)
            *newly += tn_ranges_merge(&s->sacked, lo > s->una ? lo : s->una, hi);
    }
}

/* Round trip between the monitor and the sender of direction d: from TSval/TSecr echoes
 * (the sender echoing an ACK's TSval in its next segment), else from the handshake, else 0
 * (a monitor next to the sender). */
static double sender_half_ms(const struct tn_conn_priv *cp, enum tn_dir d)
{
    const struct tn_sender *s = cp->dp[d].snd;
    if (s && s->half_init)
        return s->half_ms;
    return cp->pub.hs_half_ms[d] > 0 ? cp->pub.hs_half_ms[d] : 0;
}

/* Every segment with timestamps: its TSval is timed; its TSecr, echoing the peer's TSval,
 * gives the round trip monitor -> this side -> monitor (RFC 7323 §4). */
void tn_infer_ts(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                 const struct tn_pkt *p)
{
    (void)ctx;
    if (!p->tcp.opt.has_ts)
        return;
    int64_t t = tn_time_ns(p->ts);
    struct tn_sender *s = sender_of(cp, d);
    ts_push(s, p->tcp.opt.ts_val, t);
    struct tn_sender *peer = cp->dp[!d].snd;
    if (!peer || !p->tcp.opt.ts_ecr || (p->tcp.flags & TN_TCP_SYN))
        return;
    double r = ts_echo(peer, p->tcp.opt.ts_ecr, t);
    if (r < 0)
        return;
    if (!s->half_init || r < s->half_min_ms)
        s->half_min_ms = r;
    /* an echo delayed by the application (nothing to send) is no path delay: clip a sample
     * to twice the current estimate (queues may grow it, but not in one step) */
    double v = s->half_init ? fmin(r, fmax(2 * s->half_ms, 4 * s->half_min_ms) + 1.0) : r;
    s->half_ms = s->half_init ? 0.875 * s->half_ms + 0.125 * v : v;
    s->half_init = true;
    /* the least of the last 8: what the path takes when the sender answers at once */
    s->half_recent[s->half_n++ % TN_HALF_RECENT] = r;
    unsigned m = s->half_n < TN_HALF_RECENT ? s->half_n : TN_HALF_RECENT;
    s->half_low = r;
    for (unsigned i = 0; i < m; i++)
        s->half_low = fmin(s->half_low, s->half_recent[i]);
    /* the peer's data: its receiver (this side) just echoed it; a full TS round trip */
    if (cp->pub.d[!d].data_seen)
        tn_stat_add(&cp->pub.inf[!d].rtt_ts_ms, r + sender_half_ms(cp, (enum tn_dir)!d));
}

/* What held the sender back between the previous ACK and this one: the receiver's window when
 * the flight filled it, the application when the flight stayed well below the congestion
 * window, else the congestion window -- or a bottleneck link when the RTT is inflated by a
 * queue (> 1.5 x the minimum) while the window is full. */
static void account_limiter(const struct tn_conn *c, struct tn_sender *s, const struct tn_cc_ack *a,
                            int64_t t)
{
    int64_t dt = s->prev_ack_ns ? t - s->prev_ack_ns : 0;
    s->prev_ack_ns = t;
    if (dt <= 0 || a->in_episode)
        return;
    double cwnd = tn_cc_cwnd_bytes(s->models), mss = s->mss;
    enum tn_limiter l;
    if (a->rwnd_limited)
        l = TN_LIM_RWND;
    else if (a->flight_max + 3 * mss < cwnd && a->flight_max < 0.8 * cwnd)
        l = TN_LIM_APP;
    else if (s->rtt_init && s->min_rtt_ms > 0 && s->srtt_ms > 1.5 * s->min_rtt_ms)
        l = TN_LIM_BOTTLENECK;
    else
        l = TN_LIM_CWND;
    (void)c;
    s->limiter_ns[l] += dt;
}

void tn_infer_ack(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                  const struct tn_pkt *p, int64_t ack_rel)
{
    enum tn_dir sd = (enum tn_dir)!d;   /* the sender whose data this ACK acknowledges */
    struct tn_conn *c = &cp->pub;
    if (!c->d[sd].data_seen)
        return;
    struct tn_sender *s = sender_of(cp, sd);
    struct tn_tcp_infer *inf = &c->inf[sd];
    int64_t t = tn_time_ns(p->ts);
    interval_flush(ctx, c, sd, s, t);
    s->last_ack_ns = t;
    s->sack = c->d[0].sack_ok && c->d[1].sack_ok;
    int64_t newly_sacked = 0;
    if (p->tcp.opt.nsack)
        on_sack(ctx, cp, sd, p, ack_rel, &newly_sacked);

    advance_pending(ctx, cp, sd, s, t);
    int64_t acked = 0;
    double rtt = -1;
    bool was_in_episode = s->episode != TN_EP_NONE;
    if (!s->una_set || ack_rel > s->una) {
        acked = s->una_set ? ack_rel - s->una : 0;
        int64_t from = s->una_set ? s->una : ack_rel;
        s->una = ack_rel;
        s->una_set = true;
        s->last_progress_ns = t;
        s->interval_good += (uint64_t)acked;
        int64_t seg_len = 0;
        struct tn_ack_cover cover;
        double to_receiver = seg_ack(s, from, ack_rel, t, &seg_len, &cover);
        if (to_receiver >= 0) {
            if (s->min_ack_ms < 0 || to_receiver < s->min_ack_ms)
                s->min_ack_ms = to_receiver;
            /* the sender's RTT: monitor -> receiver -> monitor, plus monitor -> sender -> monitor */
            rtt = to_receiver + sender_half_ms(cp, sd);
            tn_stat_add(&inf->rtt_ms, rtt);
            /* full-sized: within the 40 option bytes (RFC 9293 §3.1) of the receiver's MSS */
            const struct tn_dir_stats *rcv = &c->d[d];
            if (rcv->mss_seen ? seg_len + 40 >= rcv->mss : seg_len >= c->d[sd].seg_max)
                tn_stat_add(&inf->rtt_full_ms, rtt);
            rtt_update(s, rtt);
            tn_rec_series(ctx, c, sd, TN_SER_RTT_MS, t, rtt);
        }
        /* an ACK for retransmitted data sooner than the monitor<->receiver round trip answered
         * the original: the receiver (side d) is hs_half_ms[d] away, else min data->ACK time */
        double rt = c->hs_half_ms[d] > 0 ? c->hs_half_ms[d] : s->min_ack_ms;
        /* (only meaningful with a path to time: next to the receiver every ACK is quick) */
        if (s->last_rexmit_ns && ack_rel >= s->last_rexmit_end && rt >= 1.0 &&
            ms_between(t, s->last_rexmit_ns) < 0.5 * rt) {
            inf->rexmit[TN_EV_REXMIT_SPURIOUS - TN_EV_REXMIT_FAST]++;
            tn_rec_event(ctx, c, d, TN_EV_REXMIT_SPURIOUS, p, (uint64_t)s->last_rexmit_end, 0,
                         "ACK %.3f ms after the retransmission < half the %.3f ms round trip to the receiver",
                         ms_between(t, s->last_rexmit_ns), rt);
            s->last_rexmit_ns = 0;
        }
        if (s->last_rexmit_ns && ack_rel >= s->last_rexmit_end)
            s->last_rexmit_ns = 0;
        /* an ACK beyond the probe's snd_nxt: the probe repaired a loss (tcp_process_tlp_ack);
         * one that only reaches it may still be answered by a D-SACK */
        if (s->tlp_end && ack_rel > s->tlp_end) {
            if (!s->tlp_dsack && s->episode == TN_EP_NONE) {
                tn_cc_on_cwr(s->models);
                slowstart_over(ctx, c, sd, s, p, t, "loss repaired by a tail loss probe (window reduced, CWR)");
            }
            s->tlp_end = 0;
        }
        tn_ranges_prune_below(&s->sacked, s->una, NULL);
        if (s->episode != TN_EP_NONE)
            cover.in_order = false;   /* in recovery the receiver ACKs each segment at once */
        tn_ackpol_ack(ctx, cp, sd, p, acked, &cover);
        if (s->rexmit_out > 0 && acked > 0)
            s->rexmit_out = s->rexmit_out > acked ? s->rexmit_out - acked : 0;
        s->dupacks = 0;
        /* Linux tcp_remove_reno_sacks: the first segment acknowledged is the retransmitted
         * head, not a duplicate-ACKed one; outside recovery an advancing ACK clears them */
        if (s->episode == TN_EP_NONE)
            s->reno_sacked = 0;
        else
            s->reno_sacked = fmax(0, s->reno_sacked - fmax(0, (double)acked / s->mss - 1));
        if (s->episode != TN_EP_NONE && ack_rel >= s->recovery_point)
            end_episode(ctx, cp, sd, d, p, "ACK covers the recovery point");
    } else if (c->d[d].dup_run > s->dupacks) {
        s->dupacks = c->d[d].dup_run;
        if (s->tlp_end && ack_rel == s->tlp_end && !p->tcp.opt.nsack)
            s->tlp_end = 0;   /* a pure duplicate at the probe's snd_nxt: both copies arrived */
        if (s->dupacks >= 2 && s->asked_lo != s->una) {   /* the hole the receiver asks for */
            s->asked_lo = s->una;
            s->asked_hi = c->d[sd].hi_rel;
        }
        double outstanding = (double)(c->d[sd].hi_rel - s->una) / s->mss;
        if (!s->sack && s->reno_sacked + 1 < outstanding)
            s->reno_sacked += 1;
        tn_rec_event(ctx, c, d, TN_EV_DUPACK, p, (uint64_t)ack_rel, 0, "dupack #%u%s", s->dupacks,
                     p->tcp.opt.nsack ? " with sack" : "");
    }

    int64_t hi = c->d[sd].hi_rel;
    push_pending(ctx, cp, sd, s, &(struct tn_pending_ack){
        .t_ns = t,
        .acked = acked,
        .sacked = newly_sacked,
        .rtt_ms = rtt,
        .una = s->una,
        .delivered = s->una + sacked_bytes(s, s->una),
        .adj = hi - s->una - pipe_bytes(s, hi),
        .in_episode = s->episode != TN_EP_NONE,
        .episode_ended = was_in_episode && s->episode == TN_EP_NONE,
        .ends = s->ends_pending,
    });
    s->ends_pending = 0;
    advance_pending(ctx, cp, sd, s, t);
}

/* Window advertised by direction d: the limit for sender !d. */
void tn_infer_window(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                     const struct tn_pkt *p, uint32_t win)
{
    struct tn_conn *c = &cp->pub;
    enum tn_dir sd = (enum tn_dir)!d;
    if (p->tcp.flags & TN_TCP_SYN) {   /* a lone SYN allocates no sender state */
        fix_sender_mss(cp, sd);
        return;
    }
    struct tn_sender *s = sender_of(cp, sd);
    if (win != s->rwnd || !s->rwnd_seen)
        tn_rec_series(ctx, c, sd, TN_SER_RWND, tn_time_ns(p->ts), (double)win);
    s->rwnd_seen = true;
    if (win == 0 && !s->zero_window) {
        s->zero_window = true;
        c->inf[sd].episodes_zero_window++;
        tn_rec_event(ctx, c, d, TN_EV_ZERO_WINDOW, p, 0, 0, "receiver window 0");
    } else if (win > 0 && s->zero_window) {
        s->zero_window = false;
        tn_rec_event(ctx, c, d, TN_EV_WINDOW_OPEN, p, 0, 0, "receiver window reopens to %u B", win);
    }
    s->rwnd = win;
}

/* Slow start ended without a loss in some flavour's replay (HyStart, BBR's Startup, ...):
 * keep it only if the flavour named is that one, else the first loss ends slow start, if any. */
static void early_exit_of_flavour(struct tn_conn *c, enum tn_dir d, struct tn_sender *s)
{
    struct tn_tcp_infer *inf = &c->inf[d];
    int64_t t, una;
    uint64_t pkt;
    const char *why;
    struct tn_event e = s->first_loss;
    if (tn_cc_ss_exit_of(s->models, inf->flavor, &t, &pkt, &una, &why) &&
        (!s->first_loss.t_ns || t <= s->first_loss.t_ns)) {
        e = (struct tn_event){.t_ns = t, .pkt = pkt, .seq = (uint64_t)una, .kind = TN_EV_SLOWSTART_END,
                              .dir = (uint8_t)d};
        snprintf(e.detail, sizeof e.detail, "%s", why);
    }
    inf->slowstart_ended = e.t_ns != 0;
    inf->slowstart_end_ns = e.t_ns;
    if (s->hystart_event >= 0) {
        c->events[s->hystart_event] = e;
        if (!e.t_ns)
            c->events[s->hystart_event].kind = TN_EV_COUNT;   /* dropped below */
    }
}

static int cmp_event(const void *x, const void *y)
{
    const struct tn_event *a = x, *b = y;
    if (a->t_ns != b->t_ns)
        return a->t_ns < b->t_ns ? -1 : 1;
    return a->pkt < b->pkt ? -1 : a->pkt > b->pkt;
}

void tn_infer_finish(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp)
{
    struct tn_conn *c = &cp->pub;
    const struct tn_pkt *last = ctx->pkt;
    ctx->pkt = NULL;   /* the last packet read may be gone: ACKs resolved now have none */
    for (int d = 0; d < 2; d++) {
        struct tn_sender *s = cp->dp[d].snd;
        if (!s || !c->d[d].data_seen)
            continue;
        advance_pending(ctx, cp, (enum tn_dir)d, s, INT64_MAX);
        tn_ackpol_finish(ctx, cp, (enum tn_dir)d);
        tn_cc_finish(ctx, c, (enum tn_dir)d, s->models, &c->inf[d], s->betas, s->nbetas);
        if (s->hystart_event >= 0 || s->early_exit)
            early_exit_of_flavour(c, (enum tn_dir)d, s);
        c->inf[d].seg_size = s->mss;
        int64_t total = 0;
        for (int l = 1; l < TN_LIM_COUNT; l++)
            total += s->limiter_ns[l];
        int best = 0;
        for (int l = 1; l < TN_LIM_COUNT && total > 0; l++) {
            c->inf[d].limiter_share[l] = (double)s->limiter_ns[l] / (double)total;
            if (!best || s->limiter_ns[l] > s->limiter_ns[best])
                best = l;
        }
        c->inf[d].limiter = (enum tn_limiter)best;
    }
    size_t kept = 0;
    for (size_t k = 0; k < c->nevents; k++)
        if (c->events[k].kind != TN_EV_COUNT)
            c->events[kept++] = c->events[k];
    c->nevents = kept;
    if (c->nevents > 1)
        qsort(c->events, c->nevents, sizeof *c->events, cmp_event);
    ctx->pkt = last;
}
