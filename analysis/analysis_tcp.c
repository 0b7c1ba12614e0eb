/* analysis_tcp.c - per-direction TCP counters: sequence space, retransmissions, out-of-order
 * segments, duplicate ACKs, windows (RFC 9293 §3.4; window scaling RFC 7323 §2). */
#include <string.h>

#include "analysis_int.h"
#include "seq.h"

/* Relative, 64-bit unwrapped position of seq in a direction whose highest end is hi_rel. */
static int64_t rel_of(const struct tn_dir_stats *ds, uint32_t seq)
{
    uint32_t ref = ds->isn + (uint32_t)ds->hi_rel;
    return ds->hi_rel + (int32_t)(seq - ref);
}

static void gap_add(struct tn_dir_priv *dp, int64_t lo, int64_t hi)
{
    if (dp->ngaps == TN_MAX_GAPS) {   /* forget the lowest (oldest) gap */
        memmove(&dp->gaps[0], &dp->gaps[1], (TN_MAX_GAPS - 1) * sizeof dp->gaps[0]);
        dp->ngaps--;
    }
    dp->gaps[dp->ngaps++] = (struct tn_gap){lo, hi};
}

/* Is [lo, hi) entirely inside one gap? */
static bool in_gap(const struct tn_dir_priv *dp, int64_t lo, int64_t hi)
{
    for (unsigned i = 0; i < dp->ngaps; i++)
        if (dp->gaps[i].lo <= lo && hi <= dp->gaps[i].hi)
            return true;
    return false;
}

/* Remove [lo, hi) from the gaps (data now seen), splitting a gap when needed. */
static void gap_fill(struct tn_dir_priv *dp, int64_t lo, int64_t hi)
{
    for (unsigned i = 0; i < dp->ngaps;) {
        struct tn_gap g = dp->gaps[i];
        if (hi <= g.lo || lo >= g.hi) {
            i++;
            continue;
        }
        bool keep_left = g.lo < lo, keep_right = hi < g.hi;
        if (keep_left && keep_right) {
            dp->gaps[i].hi = lo;
            gap_add(dp, hi, g.hi);
            return;
        }
        if (keep_left) {
            dp->gaps[i].hi = lo;
            i++;
        } else if (keep_right) {
            dp->gaps[i].lo = hi;
            i++;
        } else {
            dp->gaps[i] = dp->gaps[--dp->ngaps];
        }
    }
}

/* Gaps the receiver has acknowledged were filled without us seeing the data. */
static void gap_prune_below(struct tn_dir_priv *dp, int64_t ack_rel)
{
    for (unsigned i = 0; i < dp->ngaps;) {
        if (dp->gaps[i].hi <= ack_rel)
            dp->gaps[i] = dp->gaps[--dp->ngaps];
        else
            i++;
    }
}

static void on_syn(struct tn_conn *c, struct tn_dir_stats *ds, const struct tn_pkt *p)
{
    ds->syn++;
    if (!(p->tcp.flags & TN_TCP_ACK))
        c->handshake_seen = true;
    else
        c->synack_seen = true;
    if (ds->syn_seen)
        return;
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

static void on_data(struct tn_conn_priv *cp, enum tn_dir d, const struct tn_pkt *p)
{
    struct tn_dir_stats *ds = &cp->pub.d[d];
    const struct tn_dir_stats *rs = &cp->pub.d[!d];
    struct tn_dir_priv *dp = &cp->dp[d];
    uint32_t len = p->payload_len;

    ds->data_pkts++;
    ds->data_bytes += len;
    if (len < ds->seg_min)
        ds->seg_min = len;
    if (len > ds->seg_max)
        ds->seg_max = len;
    if (p->payload_caplen < len)
        ds->trunc_pkts++;
    if (rs->mss_seen && len > rs->mss)
        ds->super_segs++;

    int64_t start = rel_of(ds, p->tcp.seq) + ((p->tcp.flags & TN_TCP_SYN) ? 1 : 0);
    int64_t end = start + len;
    if (!ds->data_seen) {
        ds->data_seen = true;
        if (start > ds->hi_rel && ds->syn_seen)
            gap_add(dp, ds->hi_rel, start);   /* data after the SYN was missed */
        ds->lo_rel = ds->syn_seen ? ds->lo_rel : start;
        ds->hi_rel = end;
    } else if (start >= ds->hi_rel) {
        if (start > ds->hi_rel)
            gap_add(dp, ds->hi_rel, start);
        ds->hi_rel = end;
    } else {
        int64_t seen_end = end < ds->hi_rel ? end : ds->hi_rel;
        if (start >= ds->lo_rel && in_gap(dp, start, seen_end)) {
            ds->ooo_pkts++;
        } else {
            ds->rexmit_pkts++;
            ds->rexmit_bytes += len;
        }
        gap_fill(dp, start, seen_end);
        if (end > ds->hi_rel)
            ds->hi_rel = end;
        if (start < ds->lo_rel)
            ds->lo_rel = start;
    }
    ds->unique_bytes = (uint64_t)(ds->hi_rel - ds->lo_rel);
}

/* Advertised window, scaled when both SYNs carried the option (never in a SYN itself). */
static void on_window(struct tn_dir_stats *ds, const struct tn_dir_stats *rs, const struct tn_pkt *p)
{
    bool scaled = ds->ws_seen && rs->ws_seen && !(p->tcp.flags & TN_TCP_SYN);
    uint32_t win = scaled ? (uint32_t)p->tcp.win << ds->ws : p->tcp.win;
    if (win < ds->win_min)
        ds->win_min = win;
    if (win > ds->win_max)
        ds->win_max = win;
    ds->win_sum += win;
    ds->win_n++;
}

static void on_ack(struct tn_conn_priv *cp, enum tn_dir d, const struct tn_pkt *p, bool pure)
{
    struct tn_dir_stats *ds = &cp->pub.d[d];
    struct tn_dir_stats *rs = &cp->pub.d[!d];
    uint32_t ack = p->tcp.ack;
    uint16_t raw = p->tcp.win;

    bool outstanding = rs->data_seen && rs->isn_set && rel_of(rs, ack) < rs->hi_rel;
    if (pure && ds->ack_set && ack == ds->last_ack_raw && raw == ds->last_win_raw && outstanding) {
        ds->dupacks++;
        ds->dup_run++;
    } else if (!ds->ack_set || ack != ds->last_ack_raw) {
        ds->dup_run = 0;
    }
    if (!ds->ack_set || tn_seq_geq(ack, ds->last_ack_raw)) {
        ds->last_ack_raw = ack;
        ds->last_win_raw = raw;
    }
    ds->ack_set = true;
    if (rs->isn_set)
        gap_prune_below(&cp->dp[!d], rel_of(rs, ack));
}

void tn_tcp_conn_pkt(struct tn_conn_priv *cp, enum tn_dir d, const struct tn_pkt *p)
{
    struct tn_conn *c = &cp->pub;
    struct tn_dir_stats *ds = &c->d[d];
    uint8_t fl = p->tcp.flags;

    if (fl & TN_TCP_SYN)
        on_syn(c, ds, p);
    if (!ds->isn_set) {       /* connection picked up mid-stream: data starts at relative 1 */
        ds->isn = p->tcp.seq - 1;
        ds->isn_set = true;
        ds->hi_rel = ds->lo_rel = 1;
    }
    if (fl & TN_TCP_FIN)
        ds->fin++;
    if (fl & TN_TCP_RST) {
        ds->rst++;
        c->reset = true;
    }
    if (c->d[0].fin && c->d[1].fin)
        c->closed = true;
    if (!(fl & TN_TCP_RST)) {   /* a RST's window means nothing */
        on_window(ds, &c->d[!d], p);
        if (p->tcp.win == 0)
            ds->zero_wnd++;
    }

    bool pure = p->payload_len == 0 && !(fl & (TN_TCP_SYN | TN_TCP_FIN | TN_TCP_RST));
    if (pure && (fl & TN_TCP_ACK))
        ds->pure_acks++;
    if (p->payload_len > 0)
        on_data(cp, d, p);
    if (fl & TN_TCP_ACK)
        on_ack(cp, d, p, pure);
}

bool tn_tcp_conn_is_reuse(const struct tn_conn_priv *cp, enum tn_dir d, const struct tn_pkt *p)
{
    const struct tn_conn *c = &cp->pub;
    bool pure_syn = (p->tcp.flags & (TN_TCP_SYN | TN_TCP_ACK)) == TN_TCP_SYN;
    if (!pure_syn || !(c->closed || c->reset))
        return false;
    /* a retransmitted SYN of the same attempt carries the same ISN */
    return !(c->d[d].syn_seen && c->d[d].isn == p->tcp.seq);
}
