/* analysis_tcp_infer.c - TCP inference of one packet (tn_infer_pkt, after the counters of
 * analysis_tcp.c): the sender state's lifetime, the handshake's timeouts, ACKs (RTT, SACK,
 * episodes' ends), the advertised window, throughput intervals, and the end of a connection.
 * Each concern has its file and its part of struct tn_sender: analysis_tcp_rtt.c (RTT),
 * analysis_tcp_sack.c (scoreboard, pipe), analysis_tcp_episode.c (retransmission causes,
 * episodes), analysis_tcp_replay.c (ACKs to the window models), analysis_tcp_slowstart.c. */
#include <math.h>
#include <stdlib.h>

#include "analysis_int.h"
#include "seq.h"

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
        struct tn_sender *s = tn_xcalloc(1, sizeof *s);
        s->mss = dp->snd_mss;
        s->models = tn_cc_new(s->mss);
        const struct tn_conn *c = &cp->pub;
        if (!c->d[d].syn_seen && !c->d[d].opts_unknown)   /* ns-2 traces begin with the agent */
            tn_cc_start_unseen(s->models);
        tn_rtt_init(&s->rtt);
        tn_ss_init(&s->ss);
        dp->snd = s;
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
        struct tn_sender *s = cp->dp[d].snd;
        if (!s)
            continue;
        tn_sack_free(&s->sb);
        tn_cc_free(s->models);
        tn_rtt_free(&s->rtt);
        tn_replay_free(&s->rp);
        free(s);
        cp->dp[d].snd = NULL;
    }
}

/* ---- the handshake ---- */

/* A SYN or SYN-ACK sent again with the same ISN: its retransmission timer (1 s initially)
 * ran out.  Counted as a timeout retransmission with a timeout episode that the peer's answer
 * ends. */
static void syn_rexmit(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                       const struct tn_pkt *p, int64_t t, int64_t prev_ns)
{
    struct tn_conn *c = &cp->pub;
    c->inf[d].rexmit[TN_EV_REXMIT_RTO - TN_EV_REXMIT_FAST]++;
    tn_cc_on_syn_timeout(sender_of(cp, d)->models);
    tn_rec_event(ctx, c, d, TN_EV_REXMIT_RTO, p, 0, 0, "timeout: %s resent after %.0f ms",
                 (p->tcp.flags & TN_TCP_ACK) ? "SYN-ACK" : "SYN", tn_ms_between(t, prev_ns));
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

/* The handshake's round trips give the vantage point (tn_conn_set_handshake). */
static void infer_handshake(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                            const struct tn_pkt *p, int64_t t)
{
    struct tn_conn *c = &cp->pub;
    uint8_t fl = p->tcp.flags;
    if ((fl & TN_TCP_ACK) && !(fl & TN_TCP_RST))
        syn_rto_end(ctx, cp, d, p);
    if ((fl & (TN_TCP_SYN | TN_TCP_ACK)) == TN_TCP_SYN && d == TN_A2B) {
        if (cp->hs_syn_ns && p->tcp.seq == c->d[d].isn)   /* (a SYN before this one) */
            syn_rexmit(ctx, cp, d, p, t, cp->hs_syn_ns);
        cp->hs_syn_ns = t;
        if (!c->hs_syn_first_ns)
            c->hs_syn_first_ns = t;
        return;
    }
    if ((fl & (TN_TCP_SYN | TN_TCP_ACK)) == (TN_TCP_SYN | TN_TCP_ACK) && d == TN_B2A) {
        if (cp->hs_synack_ns && p->tcp.seq == c->d[d].isn)
            syn_rexmit(ctx, cp, d, p, t, cp->hs_synack_ns);
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

/* ---- data ---- */

static void infer_data(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                       const struct tn_pkt *p, int64_t t, struct tn_seginfo *si)
{
    struct tn_sender *s = sender_of(cp, d);
    tn_replay_echo(&s->rp, p);   /* before the idle check: it hands the processed ACKs over */
    interval_flush(ctx, &cp->pub, d, s, t);
    s->interval_bytes += p->payload_len;
    switch (si->cls) {
    case TN_SEG_NEW:
        /* (next to the sender the round trip to it is nil, and an edge within a segment of a
         * cwnd-limited send is no evidence: lab snd2 read 67160 B in flight over a 65535 window) */
        if (!p->tcp.opt.has_ts && cp->pub.vantage != (d == TN_A2B ? TN_VP_NEAR_A : TN_VP_NEAR_B))
            tn_rtt_edge_send(&s->rtt, si->end, t, s->mss);
        tn_ep_idle_check(ctx, cp, d, p, t, si->start);
        tn_rtt_sent(&s->rtt, si->start, si->end, t);
        break;
    case TN_SEG_REXMIT:
        tn_ep_rexmit(ctx, cp, d, p, t, si, "");
        break;
    case TN_SEG_FILL:
        tn_ep_fill(ctx, cp, d, p, t, si);
        break;
    case TN_SEG_PROBE:
        tn_rec_event(ctx, &cp->pub, d, TN_EV_WINDOW_PROBE, p, (uint64_t)si->start, p->payload_len,
                     "byte resent into a zero window");
        break;
    }
    if (!s->sb.una_set) {   /* no ACK seen yet: the first data marks the left edge */
        s->sb.una = si->start < cp->pub.d[d].lo_rel ? si->start : cp->pub.d[d].lo_rel;
        s->sb.una_set = true;
        s->first_una = s->sb.una;
    }
    s->last_send_ns = t;
    s->last_activity_pkt = p->num;
    if (!s->first_send_ns)
        s->first_send_ns = t;
    tn_replay_advance(ctx, cp, d, t);
    int64_t flight = tn_replay_send_pipe(cp, d, cp->pub.d[d].hi_rel, t);
    bool resent = si->cls == TN_SEG_REXMIT || si->cls == TN_SEG_FILL;
    if (resent && p->tcp.opt.has_ts && tn_replay_reaction_ns(cp, d) > 0)
        tn_replay_resent_seen(&s->rp, t, p->tcp.opt.ts_ecr, si->end - si->start);
    tn_replay_sent(&s->rp, flight, si->cls == TN_SEG_NEW, si->end - si->start, resent ? si->end - si->start : 0);
    if ((double)flight > cp->pub.inf[d].max_inflight)
        cp->pub.inf[d].max_inflight = (double)flight;
}

/* A FIN sent again at the same sequence number: a retransmission like data (cause, episode),
 * and tcptrace -r's retransmission time of the FIN. */
static void infer_fin_rexmit(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                             const struct tn_pkt *p, int64_t t, int64_t fin_rel)
{
    struct tn_conn *c = &cp->pub;
    struct tn_dir_priv *dp = &cp->dp[d];
    if (dp->fin_seen && fin_rel == dp->fin_rel) {
        tn_stat_add(&c->inf[d].retr_ms, tn_ms_between(t, dp->fin_ns));
        dp->fin_ns = t;
        if (++dp->fin_resent > c->inf[d].max_retrans)
            c->inf[d].max_retrans = dp->fin_resent;
    }
    struct tn_sender *s = sender_of(cp, d);
    struct tn_seginfo si = {.start = fin_rel, .end = fin_rel + 1, .cls = TN_SEG_REXMIT};
    interval_flush(ctx, c, d, s, t);
    tn_ep_rexmit(ctx, cp, d, p, t, &si, "FIN again; ");
}

/* ---- ACKs (p goes d -> !d and acknowledges the data of sender !d) ---- */

/* A capture that began mid-flow: the first ACK after the sender's data was seen says what
 * the receiver held already (its cumulative ACK and its SACK blocks, RFC 2018 §4); holes below
 * that it never saw reached the receiver before the capture began. */
static void note_held_at_start(struct tn_conn_priv *cp, enum tn_dir d, const struct tn_pkt *p, int64_t ack_rel)
{
    struct tn_dir_priv *sp = &cp->dp[!d];
    const struct tn_dir_stats *ss = &cp->pub.d[!d];
    if (sp->held_at_start_set || !ss->data_seen || ss->syn_seen || ss->opts_unknown)
        return;
    int64_t held = ack_rel;
    for (unsigned i = 0; i < p->tcp.opt.nsack; i++) {
        int64_t lo = tn_rel_seq(ss, p->tcp.opt.sack[i].left), hi = tn_rel_seq(ss, p->tcp.opt.sack[i].right);
        if (hi > lo && hi - lo <= (int64_t)1 << 30 && hi > held)
            held = hi;
    }
    sp->held_at_start = held;
    sp->held_at_start_set = true;
}

/* Gaps the receiver has acknowledged were filled without us seeing the data: the capture
 * missed it (kernel drops, a snap length that cut the headers, another path), or, in a capture
 * begun mid-flow, the receiver had it before (note_held_at_start): not a capture gap (the
 * receiver-side cut of cubic-owd50 reported 63 "holes the capture missed", every second
 * segment under the recovery under way when it began). */
static void acked_gaps(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                       const struct tn_pkt *p, int64_t ack_rel)
{
    struct tn_rangeset *gaps = &cp->dp[!d].gaps;
    note_held_at_start(cp, d, p, ack_rel);
    if (cp->dp[!d].held_at_start_set)
        tn_ranges_prune_below(gaps, ack_rel < cp->dp[!d].held_at_start ? ack_rel : cp->dp[!d].held_at_start, NULL);
    int64_t bytes, lowest = gaps->n ? gaps->v[0].lo : 0;
    unsigned k = tn_ranges_prune_below(gaps, ack_rel, &bytes);
    if (k) {
        cp->pub.inf[!d].capture_gaps += k;
        cp->pub.inf[!d].capture_gap_bytes += (uint64_t)bytes;
        tn_rec_event(ctx, &cp->pub, d, TN_EV_CAPTURE_GAP, p, (uint64_t)lowest, (uint32_t)bytes,
                     "%u hole%s (%lld B) acknowledged but never seen here: missed by the capture", k,
                     k == 1 ? "" : "s", (long long)bytes);
    }
}

/* An ACK that advanced the cumulative ACK of sender sd by acked bytes from `from`: RTT, spurious
 * retransmissions by ACK timing, tail loss probes, the receiver's ACK policy, episodes' ends. */
static double on_advance(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                         const struct tn_pkt *p, int64_t t, int64_t from, int64_t acked)
{
    enum tn_dir sd = (enum tn_dir)!d;
    struct tn_conn *c = &cp->pub;
    struct tn_sender *s = cp->dp[sd].snd;
    struct tn_scoreboard *b = &s->sb;
    struct tn_episodes *ep = &s->ep;
    struct tn_tcp_infer *inf = &c->inf[sd];
    int64_t ack_rel = b->una;
    double rtt = -1;
    int64_t seg_len = 0;
    struct tn_ack_cover cover;
    bool sacked_between = tn_sack_bytes_above(b, from) > tn_sack_bytes_above(b, ack_rel);
    double to_receiver = tn_rtt_acked(&s->rtt, from, ack_rel, t, sacked_between, &seg_len, &cover);
    /* the monitor -> sender -> monitor part: this segment's echo, or as known before
     * (tn_rtt_sender_half_known; a capture begun mid-flow: a smoothed RTT of 0 and an RTO of
     * its 200 ms floor read a recovery under way at the cut as a timeout) */
    bool half_known = cover.echo_ms >= 0 || tn_rtt_sender_half_known(cp, sd);
    if (to_receiver >= 0 && half_known) {
        if (s->rtt.min_ack_ms < 0 || to_receiver < s->rtt.min_ack_ms)
            s->rtt.min_ack_ms = to_receiver;
        /* the sender's RTT: monitor -> receiver -> monitor, plus monitor -> sender -> monitor */
        rtt = to_receiver + (cover.echo_ms >= 0 ? cover.echo_ms : tn_rtt_sender_half_ms(cp, sd));
        tn_stat_add(&inf->rtt_ms, rtt);
        /* full-sized: within the 40 option bytes (RFC 9293 §3.1) of the receiver's MSS */
        const struct tn_dir_stats *rcv = &c->d[d];
        if (rcv->mss_seen ? seg_len + 40 >= rcv->mss : seg_len >= cp->dp[sd].seg_max_all)
            tn_stat_add(&inf->rtt_full_ms, rtt);
        tn_rtt_sample(&s->rtt, rtt);
        tn_rec_series(ctx, c, sd, TN_SER_RTT_MS, t, rtt);
    }
    /* an ACK for retransmitted data sooner than the monitor<->receiver round trip answered
     * the original: the receiver (side d) is hs_half_ms[d] away, else min data->ACK time */
    double rt = c->hs_half_ms[d] > 0 ? c->hs_half_ms[d] : s->rtt.min_ack_ms;
    /* (only meaningful with a path to time: next to the receiver every ACK is quick) */
    if (ep->last_rexmit_ns && ack_rel >= ep->last_rexmit_end && rt >= 1.0 &&
        tn_ms_between(t, ep->last_rexmit_ns) < 0.5 * rt) {
        inf->rexmit[TN_EV_REXMIT_SPURIOUS - TN_EV_REXMIT_FAST]++;
        tn_rec_event(ctx, c, d, TN_EV_REXMIT_SPURIOUS, p, (uint64_t)ep->last_rexmit_end, 0,
                     "ACK %.3f ms after the retransmission < half the %.3f ms round trip to the receiver",
                     tn_ms_between(t, ep->last_rexmit_ns), rt);
        ep->last_rexmit_ns = 0;
    }
    if (ep->last_rexmit_ns && ack_rel >= ep->last_rexmit_end)
        ep->last_rexmit_ns = 0;
    /* an ACK beyond the probe's snd_nxt: the probe repaired a loss (tcp_process_tlp_ack);
     * one that only reaches it may still be answered by a D-SACK */
    if (ep->tlp_end && ack_rel > ep->tlp_end) {
        if (!ep->tlp_dsack && ep->now == TN_EP_NONE) {
            tn_cc_on_cwr(s->models);
            tn_ss_window_cut(ctx, c, sd, &s->ss, p, t, b->una,
                             "loss repaired by a tail loss probe (window reduced, CWR)");
        }
        ep->tlp_end = 0;
    }
    tn_ranges_prune_below(&b->sacked, b->una, NULL);
    if (ep->now != TN_EP_NONE)
        cover.in_order = false;   /* in recovery the receiver ACKs each segment at once */
    tn_ackpol_ack(ctx, cp, sd, p, t, acked, &cover);
    if (b->resent.n && acked > 0)   /* the copies below the cumulative ACK arrived */
        tn_ranges_cut(&b->resent, b->resent.v[0].lo, b->una);
    b->dupacks = 0;
    /* Linux tcp_remove_reno_sacks: the first segment acknowledged is the retransmitted
     * head, not a duplicate-ACKed one; outside recovery an advancing ACK clears them, unless
     * the sender may keep SACKed segments beyond a recovery (tn_ep_end) */
    if (ep->now == TN_EP_NONE && !b->sack_unknown)
        b->reno_sacked = 0;
    else if (b->sack_unknown && b->una >= b->reno_hi)
        b->reno_sacked = 0;   /* past all the data sent when the last dupack came */
    else
        b->reno_sacked = tn_fmax(0, b->reno_sacked - tn_fmax(0, (double)acked / s->mss - 1));
    if (ep->now != TN_EP_NONE && ack_rel >= ep->recovery_point) {
        bool recovery = ep->now == TN_EP_RECOVERY;
        int64_t since = ep->start_ns;
        tn_ep_end(ctx, cp, sd, d, p, t, "ACK covers the recovery point");
        if (recovery && b->sack && tn_sack_resent_lost_above(b, ack_rel, since))
            tn_ep_recovery_again(ctx, cp, sd, p, t);
    }
    return rtt;
}

/* A duplicate ACK of sender sd's data: the hole it asks for, Reno's count of segments left. */
static void on_dupack(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                      const struct tn_pkt *p, int64_t ack_rel)
{
    enum tn_dir sd = (enum tn_dir)!d;
    struct tn_conn *c = &cp->pub;
    struct tn_sender *s = cp->dp[sd].snd;
    struct tn_scoreboard *b = &s->sb;
    b->dupacks = c->d[d].dup_run;
    if (s->ep.tlp_end && ack_rel == s->ep.tlp_end && !p->tcp.opt.nsack)
        s->ep.tlp_end = 0;   /* a pure duplicate at the probe's snd_nxt: both copies arrived */
    if (b->dupacks >= 2 && b->asked_lo != b->una) {   /* the hole the receiver asks for */
        b->asked_lo = b->una;
        b->asked_hi = c->d[sd].hi_rel;
    }
    double outstanding = (double)(c->d[sd].hi_rel - b->una) / s->mss;
    if (!b->sack && b->reno_sacked + 1 < outstanding) {
        b->reno_sacked += 1;
        b->reno_hi = c->d[sd].hi_rel;
    }
    tn_rec_event(ctx, c, d, TN_EV_DUPACK, p, (uint64_t)ack_rel, 0, "dupack #%u%s", b->dupacks,
                 p->tcp.opt.nsack ? " with sack" : "");
}

static void infer_ack(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                      const struct tn_pkt *p, int64_t t, int64_t ack_rel)
{
    enum tn_dir sd = (enum tn_dir)!d;   /* the sender whose data this ACK acknowledges */
    struct tn_conn *c = &cp->pub;
    if (!c->d[sd].data_seen)
        return;
    struct tn_sender *s = sender_of(cp, sd);
    struct tn_scoreboard *b = &s->sb;
    interval_flush(ctx, c, sd, s, t);
    s->last_ack_ns = t;
    s->last_activity_pkt = p->num;
    /* SACK is negotiated in the SYNs (RFC 2018 §3); a capture that did not see both has it
     * from the first block the receiver sends, which it may only where SACK was permitted
     * (cubic-bdp-owd40 cut mid-flow: its recoveries' pipe counted by dupacks, a flight of 605
     * segments where the kernel's window was 302) */
    b->blocks_seen |= p->tcp.opt.nsack > 0;
    bool was_sack = b->sack;
    b->sack = (c->d[0].sack_ok && c->d[1].sack_ok) ||
              (!(c->d[0].syn_seen && c->d[1].syn_seen) && b->blocks_seen);
    if (b->sack && !was_sack)
        b->reno_sacked = 0;   /* the blocks count from here on */
    b->sack_unknown = c->d[0].opts_unknown || c->d[1].opts_unknown;
    int64_t newly_sacked = 0, sacked_sent_ns = -1;
    if (p->tcp.opt.nsack) {
        struct tn_dsack ds;
        newly_sacked = tn_sack_blocks(ctx, cp, sd, p, ack_rel, &ds, &sacked_sent_ns);
        if (ds.spurious && s->ep.tlp_end && ds.hi >= s->ep.tlp_end && ds.lo < s->ep.tlp_end)
            s->ep.tlp_dsack = true;
    }

    tn_replay_advance(ctx, cp, sd, t);
    int64_t acked = 0;
    double rtt = -1;
    bool was_in_episode = s->ep.now != TN_EP_NONE;
    if (!b->una_set || ack_rel > b->una) {
        acked = b->una_set ? ack_rel - b->una : 0;
        int64_t from = b->una_set ? b->una : ack_rel;
        b->una = ack_rel;
        b->una_set = true;
        s->last_progress_ns = t;
        s->interval_good += (uint64_t)acked;
        rtt = on_advance(ctx, cp, d, p, t, from, acked);
    } else if (s->ack_hi_set && ack_rel > s->ack_hi) {
        /* new data acknowledged below the first segment seen (the capture began mid-flow):
         * no sample, but the sender restarts its retransmission timer all the same (RFC 6298
         * §5.3); a recovery under way at the cut otherwise read as a timeout */
        s->last_progress_ns = t;
    } else if (c->d[d].dup_run > b->dupacks) {
        on_dupack(ctx, cp, d, p, ack_rel);
    }
    if (!s->ack_hi_set || ack_rel > s->ack_hi) {
        s->ack_hi = ack_rel;
        s->ack_hi_set = true;
    }

    /* the congestion control's sample (Linux ca_rtt_us): the cumulative one, else the time
     * since the latest segment this ACK newly SACKed was sent (tcp_clean_rtx_queue: last_sackt),
     * so delay-based rules (HyStart, Vegas, BBR's min RTT) see the queue during a recovery too */
    double ca_rtt = rtt;
    if (ca_rtt < 0 && sacked_sent_ns >= 0 && tn_rtt_sender_half_known(cp, sd))
        ca_rtt = tn_ms_between(t, sacked_sent_ns) + tn_rtt_sender_half_ms(cp, sd);
    int64_t hi = c->d[sd].hi_rel;
    bool recovering = s->ep.now != TN_EP_NONE;
    int64_t adj = hi - b->una - tn_sack_pipe(b, hi, s->mss, recovering);
    /* the recovery's count differs only with SACKed data to mark holes lost below */
    bool differs = !recovering && b->sack && b->sacked.n;
    tn_replay_push(ctx, cp, sd, &(struct tn_pending_ack){
        .t_ns = t,
        .acked = acked,
        .sacked = newly_sacked,
        .rtt_ms = ca_rtt,
        .una = b->una,
        /* without SACK each duplicate ACK is a segment delivered (Linux tcp_add_reno_sack),
         * and the ACK that advances delivers the rest (tcp_remove_reno_sacks) */
        .delivered = b->una + (b->sack ? tn_sack_bytes_above(b, b->una) : (int64_t)(b->reno_sacked * s->mss)),
        .adj = adj,
        .adj_recovering = differs ? hi - b->una - tn_sack_pipe(b, hi, s->mss, true) : adj,
        .in_episode = recovering,
        .episode_ended = was_in_episode && !recovering,
        .has_ts = p->tcp.opt.has_ts,
        .tsval = p->tcp.opt.ts_val,
    });
    tn_replay_advance(ctx, cp, sd, t);
}

/* Window advertised by direction d: the limit for sender !d. */
static void infer_window(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                         const struct tn_pkt *p, int64_t t, uint32_t win)
{
    struct tn_conn *c = &cp->pub;
    enum tn_dir sd = (enum tn_dir)!d;
    if (p->tcp.flags & TN_TCP_SYN) {   /* a lone SYN allocates no sender state */
        fix_sender_mss(cp, sd);
        return;
    }
    struct tn_sender *s = sender_of(cp, sd);
    if (win != s->rwnd || !s->rwnd_seen)
        tn_rec_series(ctx, c, sd, TN_SER_RWND, t, (double)win);
    s->rwnd_seen = true;
    /* RFC 7323 §2.2: the scale is in the SYNs; without both, the window is win << 0..14 */
    s->rwnd_scale_unknown = !(c->d[d].syn_seen && c->d[sd].syn_seen);
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

/* A packet after the inference finished (closed both ways, then quiet).  Nothing is left to
 * trigger a fast retransmission once both FINs are acknowledged, so a segment sent again now
 * was resent by the retransmission timer (RFC 6298 §5). */
static void infer_closed(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                         const struct tn_pkt *p, struct tn_tcp_seen *pk)
{
    struct tn_conn *c = &cp->pub;
    if ((pk->data && pk->si.cls == TN_SEG_REXMIT) || pk->fin_resent) {
        c->inf[d].rexmit[TN_EV_REXMIT_RTO - TN_EV_REXMIT_FAST]++;
        if (pk->data)
            pk->si.cause = (uint8_t)(1 + TN_EV_REXMIT_RTO);
        tn_rec_event(ctx, c, d, TN_EV_REXMIT_RTO, p, (uint64_t)(pk->data ? pk->si.start : cp->dp[d].fin_rel),
                     pk->data ? (uint32_t)(pk->si.end - pk->si.start) : 0,
                     "timeout: resent after the connection closed");
    }
    if (pk->ack)
        acked_gaps(ctx, cp, d, p, pk->ack_rel);
}

void tn_infer_pkt(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                  const struct tn_pkt *p, struct tn_tcp_seen *pk)
{
    if (cp->inferred) {
        infer_closed(ctx, cp, d, p, pk);
        return;
    }
    int64_t t = pk->t_ns;
    infer_handshake(ctx, cp, d, p, t);
    if (p->tcp.opt.has_ts) {
        sender_of(cp, d);
        /* data sent with nothing in flight went out when the application wrote, not when the
         * ACK it echoes arrived: its echo spans the sender's pause, not the path */
        tn_rtt_ts(cp, d, p, t, pk->data && tn_ep_sent_idle(cp, d, t, pk->si.start));
    }
    if (pk->data)
        infer_data(ctx, cp, d, p, t, &pk->si);
    if (pk->fin_resent)
        infer_fin_rexmit(ctx, cp, d, p, t, pk->fin_rel);
    if (pk->ack) {
        acked_gaps(ctx, cp, d, p, pk->ack_rel);
        infer_ack(ctx, cp, d, p, t, pk->ack_rel);
    }
    if (pk->has_win)
        infer_window(ctx, cp, d, p, t, pk->win);
    if (pk->ack && pk->has_win && !p->tcp.opt.has_ts && !(p->tcp.flags & TN_TCP_SYN) &&
        cp->pub.d[!d].data_seen)   /* no echoes: the window edges time the sender (tn_rtt_edge_send) */
        tn_rtt_edge_ack(&sender_of(cp, (enum tn_dir)!d)->rtt, t, pk->ack_rel + (int64_t)pk->win);
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
        tn_replay_advance(ctx, cp, (enum tn_dir)d, INT64_MAX);
        tn_ackpol_finish(ctx, cp, (enum tn_dir)d);
        tn_cc_finish(ctx, c, (enum tn_dir)d, s->models, &c->inf[d], s->rp.betas, s->rp.betas_ss, s->rp.nbetas);
        tn_ss_finish(c, (enum tn_dir)d, &s->ss, s->models);
        c->inf[d].seg_size = s->mss;
        tn_replay_limiters(&s->rp, &c->inf[d]);
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
