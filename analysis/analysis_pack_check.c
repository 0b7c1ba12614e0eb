/* analysis_pack_check.c - is a connection read back from another rank's bytes one that the
 * analysis could have made?  tn_conn_unpack copies raw structs; before the outputs see one, the
 * values they index tables with, the bools, the strings and the time stamps are checked here
 * (tests/fuzz/fuzz_cluster.c found what follows a foreign value: a NULL DFCP state read for a
 * connection claiming to be DFCP).  Doubles are not checked: the analysis itself makes NaN
 * (0/0 averages) and the outputs print what they get. */
#include <string.h>

#include "analysis_int.h"

/* A bool as its byte holds it: loading a bool that holds 2 is undefined. */
static bool bool_ok(const bool *b)
{
    uint8_t v;
    memcpy(&v, b, 1);
    return v <= 1;
}

/* Time stamps as the capture layer hands them out (pcap's range, TN_TIME_SEC_MAX): differences
 * of two cannot overflow.  0 is "not seen". */
static bool ns_ok(int64_t t)
{
    return t >= 0 && t <= TN_TIME_SEC_MAX * 1000000000 + 999999999;
}

static bool time_ok(struct tn_time t)
{
    return t.sec >= 0 && t.sec <= TN_TIME_SEC_MAX && t.nsec < 1000000000u;
}

static bool str_ok(const char *s, size_t n)
{
    return memchr(s, 0, n) != NULL;
}

static bool addr_ok(const struct tn_addr *a)
{
    return a->family == 0 || a->family == 4 || a->family == 6;
}

/* A relative sequence number (seq.h): the analysis moves it by at most 2^31 per packet from 1,
 * so 2^53 bytes (exact in a double) is beyond any trace, and differences of two cannot overflow. */
static bool rel_ok(int64_t r)
{
    return r >= -(INT64_C(1) << 53) && r <= INT64_C(1) << 53;
}

static bool dir_ok(const struct tn_dir_stats *d)
{
    const bool *bools[] = {&d->syn_seen, &d->mss_seen, &d->ws_seen, &d->sack_ok, &d->ts_seen, &d->opts_unknown,
                           &d->isn_set, &d->data_seen, &d->ack_set, &d->init_win_done, &d->dfcp_block_set};
    for (size_t i = 0; i < TN_ARRAY_LEN(bools); i++)
        if (!bool_ok(bools[i]))
            return false;
    /* fuzz_retired: an owin time far below 0 overflowed tn_dir_owin_wavg's difference */
    return time_ok(d->first) && time_ok(d->last) && ns_ok(d->idle_prev_ns) && d->idle_max_ns >= 0 &&
           d->idle_max_ns <= TN_TIME_SEC_MAX * 1000000000 && ns_ok(d->owin_t0_ns) && ns_ok(d->owin_t_ns) &&
           rel_ok(d->lo_rel) && rel_ok(d->hi_rel);
}

static bool infer_ok(const struct tn_tcp_infer *f)
{
    return bool_ok(&f->slowstart_ended) && bool_ok(&f->ackpol.delays_known) && (unsigned)f->flavor < TN_CC_COUNT &&
           (unsigned)f->limiter < TN_LIM_COUNT && str_ok(f->cc_evidence, sizeof f->cc_evidence) &&
           ns_ok(f->slowstart_end_ns);
}

static bool events_ok(const struct tn_conn *c)
{
    for (size_t i = 0; i < c->nevents; i++) {
        const struct tn_event *e = &c->events[i];
        if (e->kind >= TN_EV_COUNT || e->dir > 1 || !ns_ok(e->t_ns) || !str_ok(e->detail, sizeof e->detail))
            return false;
    }
    return true;
}

static bool series_ok(const struct tn_conn *c)
{
    for (int d = 0; d < 2; d++)
        for (int k = 0; k < TN_SER_COUNT; k++) {
            const struct tn_series *s = &c->series[d][k];
            for (size_t i = 0; i < s->n; i++)
                if (!ns_ok(s->pts[i].t_ns))
                    return false;
        }
    return true;
}

static bool pkts_ok(const struct tn_conn *c)
{
    for (size_t i = 0; i < c->npkts; i++) {
        const struct tn_pktrec *r = &c->pkts[i];
        if (r->dir > 1 || r->nsack > TN_MAX_SACK || r->rexmit > TN_EV_COUNT || !bool_ok(&r->has_ts) ||
            !ns_ok(r->t_ns))
            return false;
    }
    return true;
}

static bool blocks_ok(const struct tn_conn *c)
{
    for (size_t i = 0; i < c->nblocks; i++) {
        const struct tn_dfcp_block *b = &c->blocks[i];
        if (b->outcome > TN_DFCP_FAILED || b->dir > 1 || !ns_ok(b->first_ns) || !ns_ok(b->last_ns) ||
            !ns_ok(b->back_ns) || !ns_ok(b->last_at_back_ns))
            return false;
    }
    return true;
}

static bool dfcp_ok(const struct tn_conn_priv *cp)
{
    const struct tn_dfcp_infer *f = cp->pub.dfcp;
    const struct tn_dfcp_priv *p = cp->dfcp;
    const bool *bools[] = {&f->syn_seen, &f->synack_seen, &f->data_seen, &f->acking, &f->encoded,
                           &p->fin_seen[0], &p->fin_seen[1], &p->finack_seen[0], &p->finack_seen[1],
                           &p->synack_pending, &p->dir[0].hi_set, &p->dir[1].hi_set};
    for (size_t i = 0; i < TN_ARRAY_LEN(bools); i++)
        if (!bool_ok(bools[i]))
            return false;
    return f->data_dir <= 1 && (unsigned)f->limiter < TN_LIM_COUNT && str_ok(f->limiter_why, sizeof f->limiter_why);
}

bool tn_conn_unpacked_ok(const struct tn_conn_priv *cp)
{
    const struct tn_conn *c = &cp->pub;
    const bool *bools[] = {&c->handshake_seen, &c->synack_seen, &c->reset, &c->closed, &c->dfcp_over_udp,
                           &c->counted};
    for (size_t i = 0; i < TN_ARRAY_LEN(bools); i++)
        if (!bool_ok(bools[i]))
            return false;
    /* a DFCP connection has its DFCP results and state, a TCP one neither */
    bool dfcp = c->proto == TN_PK_DFCP;
    if ((c->proto != TN_PK_TCP && !dfcp) || dfcp != (cp->dfcp != NULL) || dfcp != (c->dfcp != &tn_no_dfcp))
        return false;
    if (!addr_ok(&c->a) || !addr_ok(&c->b) || (unsigned)c->vantage > TN_VP_MIDDLE || !time_ok(c->first) ||
        !time_ok(c->last) || !time_ok(c->span_first) || !time_ok(c->span_last) || !ns_ok(c->hs_ack_ns) || !ns_ok(c->hs_syn_first_ns) || !dir_ok(&c->d[0]) || !dir_ok(&c->d[1]))
        return false;
    if (c->inf != tn_no_inf && (!infer_ok(&c->inf[0]) || !infer_ok(&c->inf[1])))
        return false;
    if (dfcp && !dfcp_ok(cp))
        return false;
    return events_ok(c) && (c->series == tn_no_series || series_ok(c)) && pkts_ok(c) && blocks_ok(c);
}

/* The rest of a retired connection's state (tn_conn_priv_unpack): what tn_conn_unpacked_ok does
 * not see.  Outputs read a retired TCP connection's `inferred` to know whether to finish it
 * (fuzz_retired: a bool there holding 2 is undefined to load), and a late packet would go on
 * from the times and gaps. */
bool tn_conn_priv_tail_ok(const struct tn_conn_priv *cp)
{
    const bool *bools[] = {&cp->syn_rto_open[0], &cp->syn_rto_open[1], &cp->inferred,
                           &cp->close_queued};
    for (size_t i = 0; i < TN_ARRAY_LEN(bools); i++)
        if (!bool_ok(bools[i]))
            return false;
    if (cp->rst_dir < -1 || cp->rst_dir > 1 || !ns_ok(cp->hs_syn_ns) || !ns_ok(cp->hs_synack_ns))
        return false;
    for (int d = 0; d < 2; d++) {
        const struct tn_dir_priv *p = &cp->dp[d];
        const bool *dbools[] = {&p->fin_seen,  &p->probe_pending,   &p->dfcp_block_set,
                                &p->ipid_set,  &p->last_pkt_has_ts, &p->prev_pkt_has_ts,
                                &p->window_cut};
        for (size_t i = 0; i < TN_ARRAY_LEN(dbools); i++)
            if (!bool_ok(dbools[i]))
                return false;
        if (!ns_ok(p->fin_ns) || !ns_ok(p->last_pkt_ns) || !ns_ok(p->prev_pkt_ns))
            return false;
        for (unsigned i = 0; i < p->gaps.n; i++)
            if (!bool_ok(&p->gaps.v[i].has_ts) || !ns_ok(p->gaps.v[i].t_ns))
                return false;
    }
    return true;
}
