/* analysis_tcp.c - per-direction TCP counters: sequence space, retransmissions, out-of-order
 * segments, duplicate ACKs, windows (RFC 9293 §3.4; window scaling RFC 7323 §2). */
#include <string.h>

#include "analysis_int.h"
#include "seq.h"

/* A gap [lo, hi) shown by packet p (the segment just above it). */
static void gap_add(struct tn_dir_priv *dp, int64_t lo, int64_t hi, const struct tn_pkt *p, int64_t t)
{
    tn_ranges_put(&dp->gaps, (struct tn_gap){lo, hi, t, p->tcp.opt.ts_val, p->tcp.opt.has_ts});
}

static void on_syn(struct tn_conn *c, struct tn_dir_stats *ds, const struct tn_pkt *p)
{
    ds->syn++;
    if (!(p->tcp.flags & TN_TCP_ACK))
        c->handshake_seen = true;
    else
        c->synack_seen = true;
    if (ds->syn_seen) {
        /* a count of its own (syn - 1 is not: under --from/--to the first SYN may lie outside) */
        ds->syn_again++;
        if (p->tcp.seq == ds->isn)   /* the same SYN again: its sequence number is taken */
            ds->rexmit_pkts++;
        return;
    }
    ds->syn_seen = true;
    ds->isn = p->tcp.seq;
    ds->isn_set = true;
    ds->hi_rel = ds->lo_rel = 1;
    const struct tn_tcp_opts *o = &p->tcp.opt;
    ds->mss_seen = o->has_mss;
    ds->mss = o->mss;
    ds->ws_seen = o->has_ws;
    ds->ws = o->ws > 14 ? 14 : o->ws;   /* RFC 7323 §2.3: larger values are treated as 14 */
    ds->sack_ok = o->sack_ok;
    ds->ts_seen = o->has_ts;
}

/* The IPv4 identification as a count of the packets a sender sent.  Linux gives each connected
 * socket its own counter, stepped once per segment sent with DF (ip_select_ident_segs,
 * include/net/ip.h), so a step of k between two packets seen here means k - 1 packets of this
 * direction were sent and not seen: lost before the monitor, or missed by the capture.  Trusted
 * only where the IDs are seen to count (three quarters of the steps are 1, after 8 packets);
 * random IDs, a host-wide counter shared with other traffic, and IPv6 (no ID) never qualify,
 * nor the first packets of a connection (a first data segment lost is not told from new data). */
#define TN_IPID_MIN_PAIRS 8

static void ipid_track(struct tn_dir_priv *dp, const struct tn_pkt *p, int64_t t)
{
    dp->ipid_unseen = 0;
    if (dp->ipid_set && p->ipver == 4) {
        uint16_t step = (uint16_t)(p->ip_id - dp->ipid_last);
        /* (before this step) three in four steps were 1, over enough packets that a host-wide
         * counter, stepped by the host's other connections, has shown itself (the old telnet
         * captures of the corpus: a few steps of 1, then a jump over a pause) */
        bool counts = dp->ipid_pairs >= TN_IPID_MIN_PAIRS &&
                      4 * (uint64_t)dp->ipid_ones >= 3 * (uint64_t)dp->ipid_pairs;
        if (counts && step > 1 && step < 0x8000)   /* a step back is reordering */
            dp->ipid_unseen = step - 1u;
        dp->ipid_pairs++;
        dp->ipid_ones += step == 1;
    }
    dp->ipid_last = p->ip_id;
    dp->ipid_set = true;
    dp->prev_pkt_ns = dp->last_pkt_ns;   /* the packet before this one, for tail_resent */
    dp->prev_pkt_tsval = dp->last_pkt_tsval;
    dp->prev_pkt_has_ts = dp->last_pkt_has_ts;
    dp->last_pkt_ns = t;
    dp->last_pkt_tsval = p->tcp.opt.ts_val;
    dp->last_pkt_has_ts = p->tcp.opt.has_ts;
}

/* A segment at the top of the sequence space after packets of this direction went unseen, with
 * no data from the peer since the last segment (nothing the sender had to ACK): the sender
 * sends in sequence order, so the unseen packet began where this one begins -- this segment is
 * its retransmission, the retransmission of a lost tail (a tail loss probe, RFC 8985 §7, or a
 * timeout), which without the IDs would pass for new data.  A lost tail shows the sender's
 * way too: the receiver had acknowledged all it got, and the sender stayed silent for the
 * probe timeout, PTO = 2 SRTT (RFC 8985 §7.2) or longer, here at least twice the least RTT
 * seen (the handshake's before any sample).  Both are asked, so that a host-wide ID counter
 * stepped by another connection's packet does not make new data a retransmission. */
static bool tail_resent(const struct tn_conn_priv *cp, enum tn_dir d, int64_t start, int64_t t)
{
    const struct tn_dir_priv *dp = &cp->dp[d];
    const struct tn_dir_stats *ds = &cp->pub.d[d];
    if (start != ds->hi_rel || !dp->ipid_unseen || cp->dp[!d].sent_bytes != dp->peer_bytes_at_data)
        return false;
    const struct tn_sender *s = dp->snd;
    if (s && s->sb.una_set && s->sb.una < ds->hi_rel)
        return false;   /* something seen was still unacknowledged */
    double rtt = s && s->rtt.min_ms > 0 ? s->rtt.min_ms : cp->pub.hs_rtt_ms;
    return rtt > 0 && (double)(t - dp->prev_pkt_ns) / 1e6 >= 2 * rtt;
}

/* A segment at the top of the sequence space, below the recovery point of the episode under
 * way: that point is the sender's snd_nxt when the episode began, raised by the packets its IP
 * IDs said went unseen before it (start_episode), so the segment was sent before the episode
 * and is seen now for the first time -- its first copy was lost before the monitor, and this is
 * its retransmission (RFC 6675 §5: new data in a recovery lies above the point).  A lost tail
 * resent in answer to a partial ACK shows no silence: tail_resent cannot see it (an
 * application-limited CUBIC sender's two last segments of a burst, at its receiver).  As many
 * segments as the IDs counted unseen, no more (the point assumes full segments); not on the
 * sender's own link, where nothing is lost before the monitor; and only from a sender whose
 * timestamps show it sent this after the episode's first retransmission, at least a round trip
 * after it (the news of a loss reaches it no sooner): a host whose one ID counter its other
 * connections step (old captures without timestamps, corpus) would otherwise turn new data
 * into retransmissions. */
static bool resent_below_point(const struct tn_conn_priv *cp, enum tn_dir d, const struct tn_pkt *p,
                               int64_t start, int64_t end, int64_t t)
{
    const struct tn_sender *s = cp->dp[d].snd;
    if (!s || s->ep.now == TN_EP_NONE || !s->ep.tails_left || start != cp->pub.d[d].hi_rel ||
        end > s->ep.recovery_point || tn_ep_ttl_unrouted(p))
        return false;
    double rtt = s->rtt.min_ms > 0 ? s->rtt.min_ms : cp->pub.hs_rtt_ms;
    return s->ep.start_has_ts && p->tcp.opt.has_ts && tn_seq_gt(p->tcp.opt.ts_val, s->ep.start_tsval) && rtt > 0 &&
           (double)(t - s->ep.start_ns) / 1e6 >= rtt;
}

/* The sequence space data covered: from the lowest byte, or within --from/--to from the highest
 * sent before the window. */
static uint64_t unique_bytes(const struct tn_dir_stats *ds, const struct tn_dir_priv *dp)
{
    int64_t lo = dp->window_cut && dp->window_hi > ds->lo_rel ? dp->window_hi : ds->lo_rel;
    return (uint64_t)(ds->hi_rel - lo);
}

/* Counters of one data segment; fills si with how it relates to the data seen before. */
static void on_data(struct tn_conn_priv *cp, enum tn_dir d, const struct tn_pkt *p, int64_t t,
                    struct tn_seginfo *si)
{
    struct tn_dir_stats *ds = &cp->pub.d[d];
    const struct tn_dir_stats *rs = &cp->pub.d[!d];
    struct tn_dir_priv *dp = &cp->dp[d];
    uint32_t len = p->payload_len;

    ds->data_pkts++;
    ds->data_bytes += len;
    dp->sent_bytes += len;
    if (len < ds->seg_min)
        ds->seg_min = len;
    if (len > ds->seg_max)
        ds->seg_max = len;
    if (len > dp->seg_max_all)
        dp->seg_max_all = len;
    if (p->payload_caplen < len)
        ds->trunc_pkts++;
    if (rs->mss_seen && len > rs->mss)
        ds->super_segs++;

    int64_t start = tn_rel_seq(ds, p->tcp.seq) + ((p->tcp.flags & TN_TCP_SYN) ? 1 : 0);
    int64_t end = start + len;
    memset(si, 0, sizeof *si);
    si->start = start;
    si->end = end;
    si->cls = TN_SEG_NEW;
    /* a byte sent again while the receiver advertises a zero window probes the window (RFC 9293
     * §3.8.6.1); tcptrace does not count probes as retransmissions either */
    struct tn_dir_priv *pdp = &cp->dp[d];
    if (len <= 1 && ds->data_seen && start < ds->hi_rel && rs->ack_set && rs->last_win_raw == 0 &&
        !p->tcp.no_window) {
        ds->win_probes++;
        si->cls = TN_SEG_PROBE;
        pdp->probe_rel = start;
        pdp->probe_pending = true;
        return;
    }
    /* the probed byte sent for real once the window opens: its earlier copies were probes
     * the receiver could not take, so this is no retransmission */
    if (pdp->probe_pending && start == pdp->probe_rel) {
        pdp->probe_pending = false;
        if (end <= ds->hi_rel) {
            si->cls = TN_SEG_PROBE;
            return;
        }
        ds->hi_rel = end;
        ds->unique_bytes = unique_bytes(ds, dp);
        return;
    }
    bool silent_tail = tail_resent(cp, d, start, t);
    bool in_episode_tail = !silent_tail && resent_below_point(cp, d, p, start, end, t);
    if (silent_tail || in_episode_tail) {
        ds->ooo_pkts++;
        si->cls = TN_SEG_FILL;
        si->gap = (struct tn_gap){start, end, dp->prev_pkt_ns, dp->prev_pkt_tsval, dp->prev_pkt_has_ts};
        if (in_episode_tail) {   /* its first copy went before the episode's first retransmission */
            struct tn_episodes *ep = &dp->snd->ep;
            ep->tails_left--;
            si->gap = (struct tn_gap){start, end, ep->start_ns, ep->start_tsval, ep->start_has_ts};
        }
        si->tail = true;
        ds->data_seen = true;
        ds->hi_rel = end;
    } else if (!ds->data_seen) {
        ds->data_seen = true;
        if (start > ds->hi_rel && ds->syn_seen) {   /* data right after the SYN was missed */
            gap_add(dp, ds->hi_rel, start, p, t);
            si->made_gap = true;
        }
        ds->lo_rel = ds->syn_seen ? ds->lo_rel : start;
        ds->hi_rel = end;
    } else if (start >= ds->hi_rel) {
        if (start > ds->hi_rel) {
            gap_add(dp, ds->hi_rel, start, p, t);
            si->made_gap = true;
        }
        ds->hi_rel = end;
    } else {
        int64_t seen_end = end < ds->hi_rel ? end : ds->hi_rel;
        const struct tn_gap *g = start >= ds->lo_rel ? tn_ranges_holding(&dp->gaps, start, seen_end) : NULL;
        if (g) {
            ds->ooo_pkts++;
            si->cls = TN_SEG_FILL;
            si->gap = *g;
        } else {
            ds->rexmit_pkts++;
            ds->rexmit_bytes += len;
            si->cls = TN_SEG_REXMIT;
        }
        tn_ranges_cut(&dp->gaps, start, seen_end);
        if (end > ds->hi_rel)
            ds->hi_rel = end;
        if (start < ds->lo_rel)
            ds->lo_rel = start;
    }
    ds->unique_bytes = unique_bytes(ds, dp);
}

static void note_data(struct tn_conn_priv *cp, enum tn_dir d)
{
    cp->dp[d].peer_bytes_at_data = cp->dp[!d].sent_bytes;
}

/* Advertised window, scaled when both SYNs carried the option (never in a SYN itself). */
static uint32_t on_window(struct tn_dir_stats *ds, const struct tn_dir_stats *rs, const struct tn_pkt *p)
{
    bool scaled = ds->ws_seen && rs->ws_seen && !(p->tcp.flags & TN_TCP_SYN);
    uint32_t win = scaled ? (uint32_t)p->tcp.win << ds->ws : p->tcp.win;
    if (win < ds->win_min)
        ds->win_min = win;
    if (win > ds->win_max)
        ds->win_max = win;
    ds->win_sum += win;
    ds->win_n++;
    return win;
}

/* Counters of an ACK; returns the ACK's position in the peer's sequence space. */
static int64_t on_ack(struct tn_conn_priv *cp, enum tn_dir d, const struct tn_pkt *p, bool pure)
{
    struct tn_dir_stats *ds = &cp->pub.d[d];
    struct tn_dir_stats *rs = &cp->pub.d[!d];
    uint32_t ack = p->tcp.ack;
    uint16_t raw = p->tcp.win;

    if (!rs->isn_set) {   /* the peer has sent nothing yet: ACK numbers it chose itself */
        rs->isn = ack - 1;
        rs->isn_set = true;
        rs->hi_rel = rs->lo_rel = 1;
    }
    bool outstanding = rs->data_seen && tn_rel_seq(rs, ack) < rs->hi_rel;
    if (pure && ds->ack_set && ack == ds->last_ack_raw && raw == ds->last_win_raw && outstanding) {
        ds->dupacks++;
        if (++ds->dup_run == 3)
            ds->triple_dupacks++;
    } else if (!ds->ack_set || ack != ds->last_ack_raw) {
        ds->dup_run = 0;
    }
    if (!ds->ack_set || tn_seq_geq(ack, ds->last_ack_raw)) {
        ds->last_ack_raw = ack;
        ds->last_win_raw = raw;
    }
    ds->ack_set = true;
    return tn_rel_seq(rs, ack);
}

/* Packet record for figures and packets.csv. */
static void record_packet(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                          const struct tn_pkt *p, int64_t t, const struct tn_seginfo *si, uint32_t win)
{
    struct tn_pktrec *r = tn_rec_packet(ctx, &cp->pub);
    if (!r)
        return;
    const struct tn_dir_stats *ds = &cp->pub.d[d], *rs = &cp->pub.d[!d];
    r->t_ns = t;
    r->num = p->num;
    r->dir = (uint8_t)d;
    r->flags = p->tcp.flags;
    r->seq = (uint64_t)(si ? si->start : tn_rel_seq(ds, p->tcp.seq));
    r->ack = (p->tcp.flags & TN_TCP_ACK) && rs->isn_set ? (uint64_t)tn_rel_seq(rs, p->tcp.ack) : 0;
    r->len = p->payload_len;
    r->win = win;
    r->has_ts = p->tcp.opt.has_ts;
    r->ts_val = p->tcp.opt.ts_val;
    r->ts_ecr = p->tcp.opt.ts_ecr;
    r->ip_id = p->ip_id;
    r->rexmit = si ? si->cause : 0;
    r->nsack = rs->isn_set ? p->tcp.opt.nsack : 0;
    for (unsigned i = 0; i < r->nsack; i++) {
        r->sack[i].left = (uint64_t)tn_rel_seq(rs, p->tcp.opt.sack[i].left);
        r->sack[i].right = (uint64_t)tn_rel_seq(rs, p->tcp.opt.sack[i].right);
    }
}

bool tn_tcp_conn_closed(const struct tn_conn_priv *cp)
{
    const struct tn_conn *c = &cp->pub;
    if (!c->closed)
        return false;
    for (int d = 0; d < 2; d++) {
        const struct tn_dir_stats *rs = &c->d[!d];
        if (!cp->dp[d].fin_seen || !rs->ack_set || tn_rel_seq(&c->d[d], rs->last_ack_raw) <= cp->dp[d].fin_rel)
            return false;
    }
    return true;
}

/* The counters of one packet, then its inference (tn_infer_pkt, which also handles a packet
 * after the inference finished), then its record. */
void tn_tcp_conn_pkt(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                     const struct tn_pkt *p)
{
    struct tn_conn *c = &cp->pub;
    struct tn_dir_stats *ds = &c->d[d];
    uint8_t fl = p->tcp.flags;
    struct tn_tcp_seen pk = {.t_ns = tn_time_ns(p->ts)};
    int64_t t = pk.t_ns;

    if (fl & TN_TCP_SYN)
        on_syn(c, ds, p);
    if (!ds->isn_set) {       /* connection picked up mid-stream: data starts at relative 1 */
        ds->isn = p->tcp.seq - 1;
        ds->isn_set = true;
        ds->hi_rel = ds->lo_rel = 1;
    }
    bool fin_again = false;
    if (fl & TN_TCP_FIN) {
        ds->fin++;
        struct tn_dir_priv *dp = &cp->dp[d];
        pk.fin_rel = tn_rel_seq(ds, p->tcp.seq) + ((fl & TN_TCP_SYN) ? 1 : 0) + p->payload_len;
        /* the FIN's sequence byte was sent before: by an earlier FIN, or it lies below what
         * the direction already sent (a FIN on the SYN's byte, say) */
        fin_again = (dp->fin_seen && pk.fin_rel == dp->fin_rel) || pk.fin_rel < ds->hi_rel;
        if (!dp->fin_seen) {
            dp->fin_seen = true;
            dp->fin_rel = pk.fin_rel;
            dp->fin_ns = t;
        }
    }
    if (fl & TN_TCP_RST) {
        ds->rst++;
        c->reset = true;
        if (fl & TN_TCP_ACK) {
            cp->rst_ack = p->tcp.ack;
            cp->rst_dir = (int8_t)d;
        }
    }
    if (cp->dp[0].fin_seen && cp->dp[1].fin_seen)
        c->closed = true;
    if (p->tcp.no_options)
        ds->opts_unknown = true;
    pk.has_win = !(fl & TN_TCP_RST) && !p->tcp.no_window;   /* a RST's window means nothing */
    if (pk.has_win) {
        pk.win = on_window(ds, &c->d[!d], p);
        if (p->tcp.win == 0)
            ds->zero_wnd++;
    }

    bool pure = p->payload_len == 0 && !(fl & (TN_TCP_SYN | TN_TCP_FIN | TN_TCP_RST));
    if (pure && (fl & TN_TCP_ACK))
        ds->pure_acks++;
    bool inferring = !cp->inferred;   /* closed and quiet: the inference was finished */
    if (inferring)
        ipid_track(&cp->dp[d], p, t);
    pk.data = p->payload_len > 0;
    if (pk.data) {
        on_data(cp, d, p, t, &pk.si);
        if (inferring)
            note_data(cp, d);
    }
    /* a FIN sent again is a retransmission of its sequence byte (as tcptrace counts it), unless
     * the data it rides with is already counted as one */
    pk.fin_resent = fin_again && !(pk.data && pk.si.cls == TN_SEG_REXMIT);
    if (pk.fin_resent)
        ds->rexmit_pkts++;
    pk.ack = fl & TN_TCP_ACK;
    if (pk.ack)
        pk.ack_rel = on_ack(cp, d, p, pure);
    if (inferring)
        tn_tcp_counts_pkt(cp, d, p, t, pk.data && pk.si.cls == TN_SEG_REXMIT);
    tn_infer_pkt(ctx, cp, d, p, &pk);
    record_packet(ctx, cp, d, p, t, pk.data ? &pk.si : NULL, pk.win);
}

void tn_tcp_conn_finish(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp)
{
    if (cp->inferred)
        return;
    tn_infer_finish(ctx, cp);
    tn_infer_release(cp);
    cp->inferred = true;
}

bool tn_tcp_conn_is_reuse(const struct tn_conn_priv *cp, enum tn_dir d, const struct tn_pkt *p)
{
    const struct tn_conn *c = &cp->pub;
    bool pure_syn = (p->tcp.flags & (TN_TCP_SYN | TN_TCP_ACK)) == TN_TCP_SYN;
    if (!pure_syn || !(c->closed || c->reset))
        return false;
    /* a retransmitted SYN of the same attempt carries the same ISN */
    if (c->d[d].syn_seen && c->d[d].isn == p->tcp.seq)
        return false;
    /* the peer's RST answered exactly this SYN (captures sometimes order the answer first) */
    if (c->reset && cp->rst_dir == (int8_t)!d && cp->rst_ack == p->tcp.seq + 1)
        return false;
    return true;
}
