/* analysis_tcp_rtt.c - a sender's round-trip times: data -> ACK samples under Karn's rule
 * (RFC 6298 §3), TSval/TSecr echoes (RFC 7323 §4), the RFC 6298 estimator, and the round trip
 * between the monitor and each endpoint. */
#include <math.h>
#include <stdlib.h>

#include "analysis_int.h"
#include "seq.h"

void tn_rtt_init(struct tn_rtt *r)
{
    r->min_ms = -1;
    r->min_ack_ms = -1;
    r->seg_echo_ms = -1;
}

void tn_rtt_free(struct tn_rtt *r)
{
    free(r->edges);
    free(r->segs);
    free(r->ts);
}

/* RFC 6298 §2 srtt + 4 rttvar, where Linux keeps the variance term at least tcp_rto_min
 * (200 ms): srtt + max(4 rttvar, 200 ms); 1 s before the first sample (RFC 6298 §2.1). */
double tn_rtt_rto_ms(const struct tn_rtt *r)
{
    if (!r->init)
        return 1000.0;
    double var = 4 * r->rttvar_ms;
    return r->srtt_ms + (var < 200.0 ? 200.0 : var);
}

void tn_rtt_sent(struct tn_rtt *r, int64_t start, int64_t end, int64_t t)
{
    if (r->seg_n == r->seg_cap &&
        !tn_ring_grow((void **)&r->segs, &r->seg_cap, &r->seg_head, r->seg_n, sizeof *r->segs,
                      TN_SEG_RING_MAX)) {   /* full: forget the oldest */
        r->seg_head = (r->seg_head + 1) % r->seg_cap;
        r->seg_n--;
    }
    unsigned i = (r->seg_head + r->seg_n) % r->seg_cap;
    r->segs[i] = (struct tn_seg){start, end, t, false, false, 0, t, (float)r->seg_echo_ms};
    r->seg_n++;
}

/* Mark the segments [start, end) overlaps as sent again at t; the time since the latest earlier
 * transmission of the first of them goes into inf's retransmission-time statistics, and the
 * most times one segment was resent into max_retrans (tcptrace -r's "retr time", "max # retrans"). */
void tn_rtt_resent(struct tn_rtt *r, int64_t start, int64_t end, int64_t t, struct tn_tcp_infer *inf)
{
    bool first = true;
    for (unsigned k = 0; k < r->seg_n; k++) {
        struct tn_seg *g = &r->segs[(r->seg_head + k) % r->seg_cap];
        if (g->end > start && g->start < end) {
            g->rexmit = true;
            if (first)
                tn_stat_add(&inf->retr_ms, tn_ms_between(t, g->last_tx_ns));
            first = false;
            g->last_tx_ns = t;
            if (++g->resent > inf->max_retrans)
                inf->max_retrans = g->resent;
        }
    }
}

void tn_rtt_sample(struct tn_rtt *r, double ms)
{
    if (!r->init) {
        r->srtt_ms = ms;
        r->rttvar_ms = ms / 2;
        r->init = true;
    } else {
        r->rttvar_ms = 0.75 * r->rttvar_ms + 0.25 * fabs(r->srtt_ms - ms);
        r->srtt_ms = 0.875 * r->srtt_ms + 0.125 * ms;
    }
    if (r->min_ms < 0 || ms < r->min_ms)
        r->min_ms = ms;
}

int64_t tn_rtt_sacked(struct tn_rtt *r, int64_t lo, int64_t hi)
{
    /* the ring is in sequence order: the first segment ending past lo, by bisection */
    unsigned a = 0, b = r->seg_n;
    while (a < b) {
        unsigned mid = a + (b - a) / 2;
        if (r->segs[(r->seg_head + mid) % r->seg_cap].end <= lo)
            a = mid + 1;
        else
            b = mid;
    }
    int64_t last = -1;
    for (unsigned k = a; k < r->seg_n; k++) {
        struct tn_seg *g = &r->segs[(r->seg_head + k) % r->seg_cap];
        if (g->start >= hi)
            break;
        if (g->start < lo || g->end > hi || g->sacked)
            continue;   /* partly covered, or covered before */
        g->sacked = true;
        if (!g->rexmit && g->t_ns > last)
            last = g->t_ns;
    }
    return last;
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
double tn_rtt_acked(struct tn_rtt *r, int64_t from, int64_t ack, int64_t t, bool sacked_between,
                    int64_t *len, struct tn_ack_cover *cv)
{
    double sample = -1;
    *cv = (struct tn_ack_cover){.echo_ms = -1};
    bool ambiguous = sacked_between;
    int64_t expect = from;   /* next byte the timed segments should cover */
    while (r->seg_n) {
        struct tn_seg *g = &r->segs[r->seg_head];
        if (g->end > ack) {
            if (g->start > expect)
                ambiguous = true;
            expect = ack;
            break;
        }
        ambiguous |= g->rexmit || g->start > expect;
        if (g->end > expect)
            expect = g->end;
        sample = tn_ms_between(t, g->t_ns);
        *len = g->end - g->start;
        cv->segs++;
        cv->last_ns = g->t_ns;
        cv->echo_ms = g->echo_ms;
        r->seg_head = (r->seg_head + 1) % r->seg_cap;
        r->seg_n--;
    }
    if (expect < ack)
        ambiguous = true;   /* the ACK covers data above every timed segment */
    cv->in_order = !ambiguous;
    return ambiguous ? -1 : sample;
}

static void ts_push(struct tn_rtt *r, uint32_t val, int64_t t)
{
    if (r->ts_n && r->ts[(r->ts_head + r->ts_n - 1) % r->ts_cap].val == val)
        return;   /* only the first segment carrying a TSval times it */
    if (r->ts_n == r->ts_cap &&
        !tn_ring_grow((void **)&r->ts, &r->ts_cap, &r->ts_head, r->ts_n, sizeof *r->ts, TN_TS_RING)) {
        r->ts_head = (r->ts_head + 1) % r->ts_cap;
        r->ts_n--;
    }
    r->ts[(r->ts_head + r->ts_n) % r->ts_cap] = (struct tn_tsent){val, t};
    r->ts_n++;
}

static double ts_echo(struct tn_rtt *r, uint32_t ecr, int64_t t)
{
    while (r->ts_n) {
        struct tn_tsent *e = &r->ts[r->ts_head];
        if (tn_seq_gt(e->val, ecr))
            return -1;
        r->ts_head = (r->ts_head + 1) % r->ts_cap;
        r->ts_n--;
        if (e->val == ecr)
            return tn_ms_between(t, e->t_ns);
    }
    return -1;
}

/* An echo delayed by the application (nothing to send) is no path delay: a sample is clipped
 * to twice the current estimate (queues may grow it, but not in one step). */
static double echo_clipped(const struct tn_rtt *r, double ms)
{
    return r->half_init ? tn_fmin(ms, tn_fmax(2 * r->half_ms, 4 * r->half_min_ms) + 1.0) : ms;
}

/* A monitor -> this endpoint -> monitor round trip of ms. */
static void echo_sample(struct tn_rtt *r, double ms)
{
    if (!r->half_init || ms < r->half_min_ms)
        r->half_min_ms = ms;
    double v = echo_clipped(r, ms);
    r->half_ms = r->half_init ? 0.875 * r->half_ms + 0.125 * v : v;
    r->half_init = true;
    /* the least of the last 8: what the path takes when the sender answers at once */
    r->half_recent[r->half_n++ % TN_HALF_RECENT] = ms;
    unsigned m = r->half_n < TN_HALF_RECENT ? r->half_n : TN_HALF_RECENT;
    r->half_low = ms;
    for (unsigned i = 0; i < m; i++)
        r->half_low = tn_fmin(r->half_low, r->half_recent[i]);
}

void tn_rtt_edge_ack(struct tn_rtt *r, int64_t t, int64_t edge)
{
    if (r->edge_n && r->edges[(r->edge_head + r->edge_n - 1) % r->edge_cap].edge >= edge)
        return;   /* the window did not move: the first ACK that opened it to there counts */
    if (r->edge_n == r->edge_cap &&
        !tn_ring_grow((void **)&r->edges, &r->edge_cap, &r->edge_head, r->edge_n, sizeof *r->edges, TN_EDGES)) {
        r->edge_head = (r->edge_head + 1) % r->edge_cap;
        r->edge_n--;
    }
    r->edges[(r->edge_head + r->edge_n++) % r->edge_cap] = (struct tn_edge){t, edge};
}

/* Without timestamps the data an ACK released still names it where the receiver's window held
 * the sender: a segment that ends within a segment of an ACK's window edge, the first ACK that
 * let it go, could not leave before the sender processed that ACK, and a sender the window
 * holds sends it as soon as it did (RFC 9293 §3.8.6: the usable window; a sender sends whole
 * segments within the window, Linux tcp_snd_wnd_test); the time from that ACK to it is the monitor ->
 * sender -> monitor round trip, queue included, as a timestamp echo is (Jaiswal et al.,
 * "Inferring TCP connection characteristics through passive measurements", INFOCOM 2004).
 * The old receivers of the gateway study (no window scaling, no timestamps) hold their senders
 * so. */
void tn_rtt_edge_send(struct tn_rtt *r, int64_t end, int64_t t, uint32_t mss)
{
    while (r->edge_n) {
        const struct tn_edge *e = &r->edges[r->edge_head];
        if (e->edge < end) {   /* an older window */
            r->edge_head = (r->edge_head + 1) % r->edge_cap;
            r->edge_n--;
            continue;
        }
        if (e->edge - end >= (int64_t)mss)
            return;   /* the window held more: not what released it */
        r->edge_head = (r->edge_head + 1) % r->edge_cap;
        r->edge_n--;
        if (t >= e->t_ns)
            echo_sample(r, tn_ms_between(t, e->t_ns));
        return;
    }
}

/* Is the monitor -> sender -> monitor part known: from echoes, or the handshake (which also
 * tells a monitor next to the sender, or too short a path to tell)?  A capture begun mid-flow
 * knows neither until the sender has echoed an ACK; a trace without options is ns-2's, taken
 * at the sender.  Without it, the monitor -> receiver -> monitor part alone is no RTT (at a
 * receiver-side monitor a few microseconds). */
bool tn_rtt_sender_half_known(const struct tn_conn_priv *cp, enum tn_dir d)
{
    const struct tn_sender *s = cp->dp[d].snd;
    return (s && s->rtt.half_init) || cp->pub.handshake_seen || cp->pub.d[d].opts_unknown;
}

/* From TSval/TSecr echoes (the sender echoing an ACK's TSval in its next segment), else from
 * the handshake, else 0 (a monitor next to the sender). */
double tn_rtt_sender_half_ms(const struct tn_conn_priv *cp, enum tn_dir d)
{
    const struct tn_sender *s = cp->dp[d].snd;
    if (s && s->rtt.half_init)
        return s->rtt.half_ms;
    return cp->pub.hs_half_ms[d] > 0 ? cp->pub.hs_half_ms[d] : 0;
}

/* Every segment with timestamps: its TSval is timed; its TSecr, echoing the peer's TSval,
 * gives the round trip monitor -> this side -> monitor (RFC 7323 §4). */
void tn_rtt_ts(struct tn_conn_priv *cp, enum tn_dir d, const struct tn_pkt *p, int64_t t, bool after_idle)
{
    struct tn_rtt *r = &cp->dp[d].snd->rtt;
    r->seg_echo_ms = -1;
    ts_push(r, p->tcp.opt.ts_val, t);
    struct tn_sender *peer = cp->dp[!d].snd;
    if (!peer || !p->tcp.opt.ts_ecr || (p->tcp.flags & TN_TCP_SYN))
        return;
    double ms = ts_echo(&peer->rtt, p->tcp.opt.ts_ecr, t);
    if (after_idle)
        return;
    /* this segment's own echo, for the RTT sample of its ACK: the first segment that echoes
     * an ACK's tick left when the sender had that ACK (later ones echoing it may have waited
     * for the application), at most the clip of the estimate below */
    r->seg_echo_ms = ms >= 0 ? echo_clipped(r, ms) : -1;
    if (ms < 0)
        return;
    echo_sample(r, ms);
    /* the peer's data: its receiver (this side) just echoed it; a full TS round trip */
    if (cp->pub.d[!d].data_seen && tn_rtt_sender_half_known(cp, (enum tn_dir)!d))
        tn_stat_add(&cp->pub.inf[!d].rtt_ts_ms, ms + tn_rtt_sender_half_ms(cp, (enum tn_dir)!d));
}
