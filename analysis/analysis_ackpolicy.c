/* analysis_ackpolicy.c - the receiver's ACK policy, per data direction: data segments per ACK,
 * the delayed-ACK timer, quick-ACK phases (issue 11 item 5).
 * RFC 1122 §4.2.3.2 / RFC 5681 §4.2: a receiver may delay an ACK, by less than 500 ms, and
 * should ACK at least every second full-sized segment.  Linux (net/ipv4/tcp_input.c,
 * __tcp_ack_snd_check) ACKs at once when more than one full segment (rcv_mss) is unacknowledged,
 * in quick-ACK mode (tcp_in_quickack_mode: the first segments of a connection, after a hole),
 * or with out-of-order data; otherwise the delayed-ACK timer sends it, after icsk_ack.ato,
 * between TCP_DELACK_MIN (HZ/25, 40 ms) and TCP_DELACK_MAX (HZ/5, 200 ms) (include/net/tcp.h,
 * tcp_send_delayed_ack). */
#include "analysis_int.h"

/* An ACK of one segment sent this long after it was released by the timer: Linux never arms it
 * for less than TCP_DELACK_MIN (40 ms), and a jiffy timer may fire up to one jiffy early (10 ms
 * at HZ = 100).  An immediate ACK leaves within the receiver's processing time (microseconds). */
#define TN_DELACK_SEEN_MS (40.0 - 10.0)

/* Linux's longest delayed-ACK timeout (TCP_DELACK_MAX, HZ/5): prompt ACKs farther apart than
 * this are separate quick-ACK phases (Linux re-enters the mode after an idle, tcp_incr_quickack
 * in tcp_event_data_recv), not one. */
#define TN_DELACK_MAX_MS 200.0

/* RFC 1122 §4.2.3.2: "the delay MUST be less than 0.5 seconds". */
#define TN_DELACK_RFC_MAX_MS 500.0

double tn_ackpol_ratio(const struct tn_ackpolicy *a)
{
    return a->acks ? (double)a->segs / (double)a->acks : 0;
}

double tn_ackpol_delack_ms(const struct tn_ackpolicy *a)
{
    return a->delays_known && a->delayed ? a->delack_max_ms : -1;
}

static void quick_end(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir rd, struct tn_sender *s)
{
    struct tn_ackpolicy *ap = &c->inf[!rd].ackpol;
    /* one prompt ACK alone can be a coincidence (an ACK on the receiver's own data); two in a row
     * of single segments, with no hole open, is the quick-ACK mode */
    if (s->qa.run >= 2) {
        ap->quick_phases++;
        ap->quick_acks += s->qa.run;
        struct tn_pkt first = {.ts = s->qa.first_ts, .num = s->qa.first_num};   /* the phase's first ACK */
        tn_rec_event(ctx, c, rd, TN_EV_QUICKACK, &first, (uint64_t)s->qa.seq, 0,
                     "quick-ACK phase: %u segments acked one by one, each at once (%.1f ms)",
                     s->qa.run, (double)(s->qa.last_ns - tn_time_ns(s->qa.first_ts)) / 1e6);
    }
    s->qa.run = 0;
}

void tn_ackpol_ack(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd,
                   const struct tn_pkt *p, int64_t t, int64_t acked, const struct tn_ack_cover *cv)
{
    struct tn_conn *c = &cp->pub;
    struct tn_sender *s = cp->dp[sd].snd;
    struct tn_ackpolicy *ap = &c->inf[sd].ackpol;
    enum tn_dir rd = (enum tn_dir)!sd;   /* the receiver, which sends the ACK */
    if (!cv->in_order || cv->segs == 0) {
        quick_end(ctx, c, rd, s);
        return;
    }
    ap->acks++;
    ap->segs += cv->segs;
    ap->per_ack[cv->segs < TN_ACKPOL_BINS ? cv->segs - 1 : TN_ACKPOL_BINS - 1]++;
    /* how long the receiver held the ACK is seen only next to it; elsewhere the path's
     * queueing adds to it (segments per ACK are seen anywhere) */
    ap->delays_known = c->vantage == (rd == TN_A2B ? TN_VP_NEAR_A : TN_VP_NEAR_B);
    if (!ap->delays_known || acked > (int64_t)s->mss) {
        quick_end(ctx, c, rd, s);
        return;
    }
    double delay = (double)(t - cv->last_ns) / 1e6 - (s->rtt.min_ack_ms > 0 ? s->rtt.min_ack_ms : 0);
    if (delay >= TN_DELACK_SEEN_MS) {
        quick_end(ctx, c, rd, s);
        if (!ap->delayed || delay < ap->delack_min_ms)
            ap->delack_min_ms = delay;
        if (!ap->delayed || delay > ap->delack_max_ms)
            ap->delack_max_ms = delay;
        ap->delayed++;
        tn_rec_event(ctx, c, rd, TN_EV_DELAYED_ACK, p, (uint64_t)s->sb.una, 0,
                     "ACK of one segment %.1f ms after it: the delayed-ACK timer%s", delay,
                     delay >= TN_DELACK_RFC_MAX_MS ? " (over RFC 1122's 500 ms)" : "");
        return;
    }
    if (s->qa.run && (double)(t - s->qa.last_ns) / 1e6 > TN_DELACK_MAX_MS)
        quick_end(ctx, c, rd, s);
    if (!s->qa.run) {
        s->qa.first_ts = p->ts;
        s->qa.first_num = p->num;
        s->qa.seq = s->sb.una;
    }
    s->qa.last_ns = t;
    s->qa.run++;
}

void tn_ackpol_finish(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd)
{
    struct tn_sender *s = cp->dp[sd].snd;
    if (s)
        quick_end(ctx, &cp->pub, (enum tn_dir)!sd, s);
}
