/* analysis_tcp_counts.c - the per-direction figures of tcptrace's long report (-l -r -W) that
 * the inference does not use: SACK, pushed and urgent packets, bytes cut by the snap length,
 * the longest idle time, the initial window and the outstanding data
 * ("owin").  Definitions as tcptrace 6.6.7 prints them (tcptrace -houtput), so its users read
 * the same numbers. */
#include "analysis_int.h"
#include "seq.h"

/* Outstanding bytes of direction d now: its highest byte sent minus the peer's cumulative ACK. */
static double owin_now(const struct tn_conn *c, enum tn_dir d)
{
    const struct tn_dir_stats *ds = &c->d[d], *rs = &c->d[!d];
    if (!ds->data_seen)
        return 0;
    int64_t una = rs->ack_set ? tn_rel_seq(ds, rs->last_ack_raw) : ds->lo_rel;
    return ds->hi_rel > una ? (double)(ds->hi_rel - una) : 0;
}

/* The time integral of owin moves on to t with the value it had until now. */
static void owin_advance(struct tn_dir_stats *ds, int64_t t, bool window)
{
    int64_t since = ds->owin_t_ns;
    if (window) {   /* --from/--to: from the first data segment in the window on */
        if (!ds->owin_t0_ns)
            since = t;
        else if (since < ds->owin_t0_ns)
            since = ds->owin_t0_ns;
    }
    if (ds->owin_t_ns && t > since)
        ds->owin_area += ds->owin_cur * (double)(t - since);
    if (ds->owin_t_ns)
        ds->owin_t_ns = t;
}

void tn_tcp_counts_pkt(struct tn_conn_priv *cp, enum tn_dir d, const struct tn_pkt *p, int64_t t,
                       bool rexmit)
{
    struct tn_conn *c = &cp->pub;
    struct tn_dir_stats *ds = &c->d[d], *rs = &c->d[!d];
    uint8_t fl = p->tcp.flags;
    uint32_t len = p->payload_len;

    if (ds->pkts > 1 && t - ds->idle_prev_ns > ds->idle_max_ns)
        ds->idle_max_ns = t - ds->idle_prev_ns;
    ds->idle_prev_ns = t;
    if (p->tcp.opt.nsack)
        ds->sack_pkts++;
    if (len && (fl & TN_TCP_PSH))
        ds->pushed_pkts++;
    if (len && (fl & TN_TCP_URG)) {
        ds->urg_pkts++;
        ds->urg_bytes += p->tcp.urp;
    }
    if (p->payload_caplen < len)
        ds->trunc_bytes += len - p->payload_caplen;

    if (len && !rexmit && !ds->init_win_done) {   /* tcptrace leaves retransmissions out */
        ds->init_win_bytes += len;
        ds->init_win_pkts++;
    }
    if ((fl & TN_TCP_ACK) && rs->data_seen && !rs->init_win_done &&
        tn_rel_seq(rs, p->tcp.ack) > rs->lo_rel)
        rs->init_win_done = true;

    /* owin of the peer changes with this ACK; ours with this data segment */
    if (fl & TN_TCP_ACK) {
        owin_advance(rs, t, cp->dp[!d].window_cut);
        rs->owin_cur = owin_now(c, (enum tn_dir)!d);
    }
    if (len) {
        if (!ds->owin_t_ns)
            ds->owin_t_ns = t;
        if (!ds->owin_t0_ns)
            ds->owin_t0_ns = t;
        owin_advance(ds, t, cp->dp[d].window_cut);
        double w = owin_now(c, d);
        ds->owin_cur = w;
        ds->owin_n++;
        ds->owin_sum += w;
        if (w > ds->owin_max)
            ds->owin_max = w;
        if (w > 0 && (ds->owin_min_nz == 0 || w < ds->owin_min_nz))
            ds->owin_min_nz = w;
    }
}

double tn_dir_owin_wavg(const struct tn_dir_stats *s)
{
    int64_t end = tn_time_ns(s->last);
    if (!s->owin_t_ns || end <= s->owin_t0_ns)
        return 0;
    double area = s->owin_area + (end > s->owin_t_ns ? s->owin_cur * (double)(end - s->owin_t_ns) : 0);
    return area / (double)(end - s->owin_t0_ns);
}
