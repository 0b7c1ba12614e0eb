/* analysis_tcp_episode.c - a sender's retransmissions and their causes (timeout, fast
 * retransmit, tail loss probe; RFC 6298, RFC 5681 §3.2, RFC 6675, RFC 8985), segments that
 * filled a gap (reordering, a loss before the monitor, a capture miss), and the episodes:
 * fast recovery, timeout recovery, idle periods. */
#include <stdio.h>

#include "analysis_int.h"
#include "seq.h"

void tn_ep_end(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d, enum tn_dir pd,
               const struct tn_pkt *p, int64_t t, const char *why)
{
    struct tn_sender *s = cp->dp[d].snd;
    struct tn_episodes *ep = &s->ep;
    enum tn_event_kind k = ep->now == TN_EP_RTO ? TN_EV_RTO_END : TN_EV_RECOVERY_END;
    tn_rec_event(ctx, &cp->pub, pd, k, p, (uint64_t)ep->recovery_point, 0,
                 "%s after %.1f ms; recovery point %lld", why, tn_ms_between(t, ep->start_ns),
                 (long long)ep->recovery_point);
    /* the models end it when the sender processes the ACK that ended it: away from the sender
     * the ACKs before it, still on their way, were sent in the episode */
    tn_replay_episode_ended(&s->rp, ep->now, t);
    ep->now = TN_EP_NONE;
    tn_sack_resent_clear(&s->sb);
    /* Linux tcp_reset_reno_sack: a NewReno sender forgets its duplicate ACKs here.  A trace
     * without options (ns-2) does not say whether the sender had SACK, whose scoreboard keeps
     * the segments that reached the receiver until they are cumulatively ACKed (RFC 6675 §4,
     * Linux sacked_out); the duplicate ACKs counted them, so they are kept (tn_sack_pipe) */
    if (!s->sb.sack_unknown)
        s->sb.reno_sacked = 0;
}

/* A capture that began mid-flow (no SYN seen) shows the sender's state only after a round trip
 * in which it resent nothing: a recovery resends on every ACK or so (RFC 6675 §5, RFC 6937),
 * an open sender does not.  Before that, a loss's window and decrease are not measured: a
 * recovery under way when the capture began holds the flight below the window (cubic-bdp-owd40
 * from its fifth of the packets on: "flight after recovery 1.30 x before", named bbr 0.88). */
static bool state_seen(const struct tn_conn_priv *cp, enum tn_dir d, int64_t t)
{
    const struct tn_sender *s = cp->dp[d].snd;
    if (cp->pub.handshake_seen || cp->pub.d[d].opts_unknown)   /* ns-2 traces from the agent's start */
        return true;
    if (!s->first_send_ns || !s->rtt.init || s->rtt.min_ms <= 0)
        return false;
    int64_t quiet_since = s->ep.prev_rexmit_ns > s->first_send_ns ? s->ep.prev_rexmit_ns : s->first_send_ns;
    return tn_ms_between(t, quiet_since) >= s->rtt.min_ms;
}

static void start_episode(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                          const struct tn_pkt *p, int64_t t, enum tn_episode kind, const char *why)
{
    struct tn_conn *c = &cp->pub;
    struct tn_sender *s = cp->dp[d].snd;
    struct tn_episodes *ep = &s->ep;
    struct tn_tcp_infer *inf = &c->inf[d];
    if (ep->now == kind)
        return;
    if (ep->now != TN_EP_NONE)
        tn_ep_end(ctx, cp, d, d, p, t, "interrupted by a timeout");
    double flight = (double)s->rp.flight_max;
    ep->now = kind;
    ep->start_ns = t;
    ep->start_has_ts = false;   /* set by tn_ep_rexmit, whose packet is the sender's */
    /* the sender's snd_nxt when it began the episode (RFC 6582 "recover"): what it sent before
     * this retransmission passed the monitor first, unless lost before it, and then its IDs
     * counted them (ipid_unseen, analysis_tcp.c): new data above the highest seen.  Behind a
     * bottleneck that dropped the tail of a burst the point was that much low, and the
     * recovery ended early at the receiver, a second one beginning for the same sender's
     * (dumbbell-reno-cubic's Reno flow at its receiver: 7 recoveries, the kernel's 6).  An
     * ns-2 trace's packet IDs are the simulator's, shared by every flow: not a count. */
    int64_t unseen = c->d[d].opts_unknown ? 0 : (int64_t)cp->dp[d].ipid_unseen;
    ep->recovery_point = c->d[d].hi_rel + unseen * s->mss;
    ep->tails_left = (uint32_t)unseen;
    tn_sack_resent_clear(&s->sb);
    /* a timeout forgets what the duplicate ACKs counted, whether the sender had SACK or not
     * (RFC 2018 §8: after a retransmit timeout the sender SHOULD turn off all SACKed bits, the
     * receiver may have reneged; Linux tcp_enter_loss -> tcp_reset_reno_sack); where the trace
     * does not say (tn_ep_end keeps them past a recovery), so does the monitor's count: the
     * go-back-N after it resends data that had arrived, and each copy's duplicate ACK would
     * count it again */
    if (kind == TN_EP_RTO && s->sb.sack_unknown)
        s->sb.reno_sacked = 0;
    if (kind == TN_EP_RECOVERY)
        inf->episodes_recovery++;
    else
        inf->episodes_rto++;
    tn_rec_event(ctx, c, d, kind == TN_EP_RTO ? TN_EV_RTO_START : TN_EV_RECOVERY_START, p,
                 (uint64_t)s->sb.una, 0, "%s; recovery point %lld; flight %.0f B", why,
                 (long long)ep->recovery_point, flight);
    char why_ss[64];
    snprintf(why_ss, sizeof why_ss, "loss: %s at flight %.0f B",
             kind == TN_EP_RTO ? "timeout" : "fast retransmit", flight);
    tn_ss_window_cut(ctx, c, d, &s->ss, p, t, s->sb.una, why_ss);
    tn_replay_episode_begins(ctx, cp, d, kind, flight / s->mss, t);
    tn_cc_on_loss(s->models, t, kind == TN_EP_RTO, flight);
    s->rp.beta_ss = tn_cc_loss_ended_slow_start(s->models);
    if (!state_seen(cp, d, t)) {   /* the window before this loss is not known */
        s->rp.beta_before = 0;
        tn_cc_unmeasured_loss(s->models);
    }
}

void tn_ep_recovery_again(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                          const struct tn_pkt *p, int64_t t)
{
    start_episode(ctx, cp, d, p, t, TN_EP_RECOVERY,
                  "segments resent in the last recovery still lost at its end");
    tn_cc_unmeasured_loss(cp->dp[d].snd->models);
}

/* ---- retransmission causes ---- */

static enum tn_event_kind rexmit_cause(const struct tn_sender *s, int64_t start, int64_t t, double half_ms,
                                       char *why, size_t len)
{
    const struct tn_episodes *ep = &s->ep;
    const struct tn_scoreboard *b = &s->sb;
    double rto = tn_rtt_rto_ms(&s->rtt);
    /* the retransmission timer runs from the last ACK that advanced and from the last
     * retransmission of the head (Linux rearms it there); dupacks and new data do not.  Away
     * from the sender an ACK reaches it half the monitor <-> sender round trip (half_ms) after
     * the monitor saw it, and what it sends reaches the monitor the other half later: from an
     * ACK the sender waited that round trip less than the monitor saw (a receiver-side monitor
     * read a fast retransmit after a slow start's loss burst, 264 ms after the last ACK that
     * advanced, as a timeout of 285 ms) */
    bool from_ack = s->last_progress_ns >= ep->last_head_rexmit_ns && s->last_progress_ns;
    int64_t timer_since = from_ack ? s->last_progress_ns : ep->last_head_rexmit_ns;
    if (!timer_since)
        timer_since = s->first_send_ns;
    double waited = timer_since ? tn_ms_between(t, timer_since) - (from_ack ? half_ms : 0) : 0;
    int64_t last_activity = s->last_send_ns > s->last_progress_ns ? s->last_send_ns : s->last_progress_ns;
    double quiet = last_activity ? tn_ms_between(t, last_activity) : 0;
    int64_t sacked_above = tn_sack_bytes_above(b, start);
    if (waited >= 0.8 * rto && waited >= 150.0) {
        snprintf(why, len, "timeout: %.0f ms since the timer was armed, rto_est %.0f ms", waited, rto);
        return TN_EV_REXMIT_RTO;
    }
    if (start == ep->last_head_rexmit_start && ep->last_head_rexmit_ns && !b->sack) {
        snprintf(why, len, "timeout: head %lld resent again after %.0f ms", (long long)start, waited);
        return TN_EV_REXMIT_RTO;
    }
    if (ep->now == TN_EP_RTO) {
        snprintf(why, len, "slow start after timeout (go-back-N)");
        return TN_EV_REXMIT_RTO;
    }
    if (b->dupacks >= 3) {
        snprintf(why, len, "%u dupacks; sacked above %lld B", b->dupacks, (long long)sacked_above);
        return TN_EV_REXMIT_FAST;
    }
    if (sacked_above > 0) {
        snprintf(why, len, "sack evidence: %lld B sacked above, %u dupacks", (long long)sacked_above,
                 b->dupacks);
        return TN_EV_REXMIT_FAST;
    }
    if (ep->now == TN_EP_RECOVERY) {
        snprintf(why, len, "partial ack in recovery (NewReno)");
        return TN_EV_REXMIT_FAST;
    }
    if (s->rtt.init && quiet >= 1.5 * s->rtt.srtt_ms) {
        snprintf(why, len, "tail loss probe? %.0f ms silent < rto_est %.0f ms", quiet, rto);
        return TN_EV_REXMIT_OTHER;
    }
    snprintf(why, len, "%u dupacks, no sack, %.0f ms silent", b->dupacks, quiet);
    return TN_EV_REXMIT_OTHER;
}

void tn_ep_rexmit(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                  const struct tn_pkt *p, int64_t t, struct tn_seginfo *si, const char *prefix)
{
    struct tn_sender *s = cp->dp[d].snd;
    struct tn_episodes *ep = &s->ep;
    struct tn_tcp_infer *inf = &cp->pub.inf[d];
    char why[64];
    enum tn_event_kind k = rexmit_cause(s, si->start, t, tn_rtt_sender_half_ms(cp, d), why, sizeof why);
    si->cause = (uint8_t)(1 + k);
    inf->rexmit[k - TN_EV_REXMIT_FAST]++;
    if (si->start <= s->sb.una) {   /* the head of the retransmission queue */
        ep->last_head_rexmit_ns = t;
        ep->last_head_rexmit_start = si->start;
    }
    tn_rtt_resent(&s->rtt, si->start, si->end, t, inf);
    tn_sack_resent(&s->sb, si->start, si->end, t);
    ep->last_rexmit_end = si->end;
    ep->prev_rexmit_ns = ep->last_rexmit_ns;
    ep->last_rexmit_ns = t;
    tn_rec_event(ctx, &cp->pub, d, k, p, (uint64_t)si->start, (uint32_t)(si->end - si->start),
                 "%s%s", prefix, why);
    if (k == TN_EV_REXMIT_OTHER && ep->now == TN_EP_NONE) {
        ep->tlp_end = cp->pub.d[d].hi_rel;   /* Linux's tlp_high_seq: snd_nxt at the probe */
        ep->tlp_dsack = false;
    }
    enum tn_episode was = ep->now;
    if (k == TN_EV_REXMIT_RTO)
        start_episode(ctx, cp, d, p, t, TN_EP_RTO, "retransmission timeout");
    else if (k == TN_EV_REXMIT_FAST)
        start_episode(ctx, cp, d, p, t, TN_EP_RECOVERY, "fast retransmit");
    if (ep->now != was) {   /* begun by this retransmission: the sender's clock then */
        ep->start_tsval = p->tcp.opt.ts_val;
        ep->start_has_ts = p->tcp.opt.has_ts;
    }
    if (ep->now != TN_EP_NONE && si->end > s->sb.una)
        tn_ranges_merge(&s->sb.resent, si->start > s->sb.una ? si->start : s->sb.una, si->end);
}

/* The packet crossed no router on its way here: its TTL (hop limit) is still one that senders
 * start with (RFC 791 §3.2: every router decrements it; Linux and the BSDs start at 64, IPDEFTTL
 * / sysctl ip_default_ttl, Windows at 128, network equipment at 255; RFC 1700).  A monitor that
 * sees it so sits on the sender's own link, where no queue drops a packet before it.  (Not for
 * a simulator's packets, whose TTL is made up.) */
bool tn_ep_ttl_unrouted(const struct tn_pkt *p)
{
    return !p->tcp.no_options && p->ipver && (p->ttl == 64 || p->ttl == 128 || p->ttl == 255);
}

/* Sent later than the segment above the gap (loss before the monitor, then a retransmission)
 * or sent earlier and overtaken (reordering)? */
void tn_ep_fill(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                const struct tn_pkt *p, int64_t t, struct tn_seginfo *si)
{
    const struct tn_conn *c = &cp->pub;
    const struct tn_sender *s = cp->dp[d].snd;
    double waited = tn_ms_between(t, si->gap.t_ns);
    bool later;
    char rule[48];
    if (si->gap.has_ts && p->tcp.opt.has_ts) {
        later = tn_seq_gt(p->tcp.opt.ts_val, si->gap.tsval);
        snprintf(rule, sizeof rule, "TSval %u %s %u", p->tcp.opt.ts_val, later ? ">" : "<=",
                 si->gap.tsval);
    } else if (s && s->sb.asked_hi > s->sb.asked_lo && si->start >= s->sb.asked_lo &&
               si->start < s->sb.asked_hi) {
        /* the receiver had already asked for it again and again: sent in answer, not overtaken */
        later = true;
        snprintf(rule, sizeof rule, "after dupacks asking for %lld", (long long)s->sb.asked_lo);
    } else {
        /* a retransmission needs the news of the hole to reach the sender and the new copy to
         * come back: at least the monitor <-> sender round trip after the hole showed */
        double ref = tn_rtt_sender_half_ms(cp, d);
        if (ref <= 0.05)
            ref = c->hs_rtt_ms > 0 ? c->hs_rtt_ms : (s->rtt.init ? s->rtt.srtt_ms : 10.0);
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
    if (tn_ep_ttl_unrouted(p)) {
        /* no router lies before the monitor, so nothing could drop the first copy there: it was
         * sent and the capture missed it; this one is a retransmission all the same */
        cp->pub.inf[d].capture_gaps++;
        cp->pub.inf[d].capture_gap_bytes += (uint64_t)(si->gap.hi - si->gap.lo);
        tn_rec_event(ctx, &cp->pub, d, TN_EV_CAPTURE_GAP, p, (uint64_t)si->gap.lo,
                     (uint32_t)(si->gap.hi - si->gap.lo),
                     "hole %lld-%lld next to the sender: the capture missed its first copy; %s",
                     (long long)si->gap.lo, (long long)si->gap.hi, rule);
        tn_ep_rexmit(ctx, cp, d, p, t, si, "first copy not captured; ");
        return;
    }
    cp->pub.inf[d].loss_upstream++;
    tn_rec_event(ctx, &cp->pub, d, TN_EV_LOSS_UPSTREAM, p, (uint64_t)si->gap.lo,
                 (uint32_t)(si->gap.hi - si->gap.lo), "%s %lld-%lld %s after %.1f ms; %s",
                 si->tail ? "tail" : "hole", (long long)si->gap.lo, (long long)si->gap.hi,
                 si->tail ? "resent (IP IDs: packets sent unseen before it)" : "filled", waited, rule);
    tn_ep_rexmit(ctx, cp, d, p, t, si, si->tail ? "lost tail; " : "lost upstream; ");
}

bool tn_ep_sent_idle(const struct tn_conn_priv *cp, enum tn_dir d, int64_t t, int64_t start)
{
    const struct tn_sender *s = cp->dp[d].snd;
    /* (the highest sequence seen already counts this segment: what was outstanding before
     * it is what lies below its start) */
    if (!s || !s->last_send_ns || !s->sb.una_set || s->sb.una < start)
        return false;   /* something was outstanding: not idle */
    /* Linux tells the flavour it transmits again (CA_EVENT_TX_START) when it sends with
     * nothing in flight (tcp_event_data_sent: tcp_packets_in_flight(tp) == 0), that is after it
     * processed the ACK that covered all it had sent.  Away from the sender that ACK passed the
     * monitor (at last_progress_ns) a monitor -> sender -> monitor round trip before any data
     * sent after it can pass the monitor: a segment sooner was sent with that ACK still on its
     * way (a receiver-side monitor sees "nothing outstanding" between almost every two
     * segments, gaps the sender never had). */
    return t - s->last_progress_ns >= tn_replay_reaction_ns(cp, d);
}

void tn_ep_idle_check(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                      const struct tn_pkt *p, int64_t t, int64_t start)
{
    struct tn_sender *s = cp->dp[d].snd;
    if (!tn_ep_sent_idle(cp, d, t, start))
        return;
    int64_t since = s->last_send_ns > s->last_ack_ns ? s->last_send_ns : s->last_ack_ns;
    double idle = tn_ms_between(t, since);
    double thresh = tn_rtt_rto_ms(&s->rtt);
    /* the sender restarts its window when the time since its last send (Linux lsndtime)
     * exceeds its RTO, and tells its flavour it transmits again (CA_EVENT_TX_START).  The
     * ACKs that drained the flight reached it before it went idle: the models get those it
     * has reacted to first (it restarts at this send, after them: tcp_write_xmit ->
     * tcp_slow_start_after_idle_check), not after the restart as slow-start ACKs; after
     * an idle period all of them, the last too (the one that ended a recovery ends it before
     * the restart; between two ACKs of a flight it would lose the sends it released) */
    if (idle >= thresh) {
        tn_replay_processed(ctx, cp, d, t);
        /* the flight after a restart (tcp_cwnd_restart) is no measure of the decrease at a
         * loss before it */
        s->rp.beta_pending = false;
    } else {
        tn_replay_advance(ctx, cp, d, t);
    }
    s->ep.tx_starts++;
    tn_cc_on_idle(s->models, t, tn_ms_between(t, s->last_send_ns), thresh);
    if (idle < thresh)
        return;
    cp->pub.inf[d].episodes_idle++;
    size_t before = cp->pub.nevents;
    tn_rec_event(ctx, &cp->pub, d, TN_EV_IDLE_START, p, (uint64_t)s->sb.una, 0,
                 "nothing outstanding, nothing sent");
    if (cp->pub.nevents > before) {   /* the idle period began at the last activity, at its
                                         * packet (numbers are per file: a later file's packet
                                         * would sort it before events of that moment) */
        cp->pub.events[before].t_ns = since;
        cp->pub.events[before].pkt = s->last_activity_pkt;
    }
    tn_rec_event(ctx, &cp->pub, d, TN_EV_IDLE_END, p, (uint64_t)s->sb.una, 0,
                 "sender idle %.0f ms with nothing outstanding (> rto_est %.0f ms)", idle, thresh);
}
