/* analysis_live.c - read-only view of a connection's current sender state, for live displays.
 *
 * The offline report reads the summaries tn_analyzer_finish fills in; a dashboard needs what the
 * inference knows right now (smoothed RTT, the replayed congestion window, bytes and DFCP blocks
 * in flight, the episode under way).  That state is private to analysis, so this file copies the
 * few numbers out.  It reads, never writes, and allocates nothing.
 */
#include "analysis_int.h"

void tn_conn_live_get(const struct tn_conn *c, enum tn_dir d, struct tn_conn_live *out)
{
    const struct tn_conn_priv *cp = (const struct tn_conn_priv *)c;
    *out = (struct tn_conn_live){.srtt_ms = -1, .cwnd_bytes = -1, .episode = TN_LIVE_EP_NONE};
    if (c->retired)   /* a summary only: no live state left */
        return;
    if (c->proto == TN_PK_DFCP) {
        out->dfcp_inflight = cp->dfcp->dir[d].inflight;
        out->inflight_bytes = -1;
        return;
    }
    const struct tn_sender *s = cp->dp[d].snd;
    if (!s)
        return;
    if (s->rtt.init)
        out->srtt_ms = s->rtt.srtt_ms;
    if (s->models)
        out->cwnd_bytes = tn_cc_cwnd_bytes(s->models);
    if (s->sb.una_set && c->d[d].hi_rel > s->sb.una) {
        int64_t fl = c->d[d].hi_rel - s->sb.una - tn_ranges_bytes_above(&s->sb.sacked, s->sb.una);
        out->inflight_bytes = fl > 0 ? (double)fl : 0;
    }
    out->rwnd = s->rwnd_seen ? s->rwnd : 0;
    out->zero_window = s->zero_window;
    if (s->ep.now == TN_EP_RECOVERY)
        out->episode = TN_LIVE_EP_RECOVERY;
    else if (s->ep.now == TN_EP_RTO)
        out->episode = TN_LIVE_EP_RTO;
    else if (s->zero_window)
        out->episode = TN_LIVE_EP_ZERO_WINDOW;
}
