/* views_experiment.c - several labelled traces in one table (experiment.csv rows). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views.h"

static double duration_s(const struct tn_conn *c)
{
    return tn_time_diff(c->last, c->first);
}

double tn_conn_throughput_bps(const struct tn_conn *c)
{
    double d = duration_s(c);
    return d > 0 ? (double)(c->d[TN_A2B].data_bytes + c->d[TN_B2A].data_bytes) * 8 / d : 0;
}

double tn_conn_goodput_bps(const struct tn_conn *c)
{
    double d = duration_s(c);
    if (d <= 0)
        return 0;
    if (c->proto == TN_PK_DFCP)   /* source bytes of decoded blocks, over the same duration */
        return c->dfcp->goodput_bps * c->dfcp->duration_s / d;
    return (double)(c->d[TN_A2B].unique_bytes + c->d[TN_B2A].unique_bytes) * 8 / d;
}

/* The data direction's RTT average (the direction with more data). */
static double rtt_avg(const struct tn_conn *c)
{
    int d = c->d[TN_B2A].data_bytes > c->d[TN_A2B].data_bytes ? TN_B2A : TN_A2B;
    const struct tn_stat *s = &c->inf[d].rtt_ms;
    return s->n ? tn_stat_avg(s) : -1;
}

/* Bytes of both directions inside [from, to] from the packet records: all payload (throughput)
 * and the sequence space newly covered (goodput, the unique_bytes rule: the advance of the highest
 * end seen; a retransmission below it adds nothing). */
static void window_bytes(const struct tn_conn *c, int64_t from, int64_t to, double *all, double *fresh)
{
    uint64_t hi[2] = {0, 0};
    bool seen[2] = {false, false};
    *all = *fresh = 0;
    for (size_t i = 0; i < c->npkts; i++) {
        const struct tn_pktrec *r = &c->pkts[i];
        if (!r->len || r->dir > 1)
            continue;
        /* the highest end's advance (a hole above it counts when the highest end jumps over it, as
         * unique_bytes = highest end - lowest start counts it) */
        uint64_t end = tn_pktrec_end(r), lo = seen[r->dir] ? hi[r->dir] : r->seq;
        double add = end > lo ? (double)(end - lo) : 0;
        if (!seen[r->dir] || end > hi[r->dir])
            hi[r->dir] = end;
        seen[r->dir] = true;
        if (r->t_ns < from || r->t_ns > to)
            continue;
        *all += r->len;
        *fresh += add;
    }
}

/* The sender's first and last data record (main direction m); false when none. */
static bool data_span(const struct tn_conn *c, int m, int64_t *first, int64_t *last)
{
    bool any = false;
    for (size_t i = 0; i < c->npkts; i++)
        if (c->pkts[i].len && c->pkts[i].dir == m) {
            if (!any)
                *first = c->pkts[i].t_ns;
            *last = c->pkts[i].t_ns;
            any = true;
        }
    return any;
}

/* The averaging interval of a row; false when the connection has nothing in it. */
static bool row_window(const struct tn_conn *c, const struct tn_exp_cfg *cfg, int64_t t0, int64_t *from,
                       int64_t *to)
{
    int m = c->d[TN_B2A].data_bytes > c->d[TN_A2B].data_bytes ? TN_B2A : TN_A2B;
    *from = tn_time_ns(c->first);
    *to = tn_time_ns(c->last);
    switch (cfg->window) {
    case TN_EXPW_FIXED:
        if (t0 + cfg->from_ns > *from)
            *from = t0 + cfg->from_ns;
        if (cfg->to_ns && t0 + cfg->to_ns < *to)
            *to = t0 + cfg->to_ns;
        break;
    case TN_EXPW_STEADY:
    case TN_EXPW_DATA:
        if (!data_span(c, m, from, to))
            return false;
        /* steady state starts where the first slow start ended (an application-limited sender
         * that never left it has none: its whole transfer period is used) */
        if (cfg->window == TN_EXPW_STEADY && c->inf[m].slowstart_ended && c->inf[m].slowstart_end_ns > *from &&
            c->inf[m].slowstart_end_ns < *to)
            *from = c->inf[m].slowstart_end_ns;
        break;
    default:
        break;
    }
    return *to > *from;
}

static void fill_rates(struct tn_exp_row *r, const struct tn_conn *c, const struct tn_exp_cfg *cfg, int64_t t0)
{
    int64_t from, to;
    if (cfg->window == TN_EXPW_LIFE || c->proto == TN_PK_DFCP || !c->npkts) {
        /* DFCP goodput is the decoded blocks' source bytes (no window from records) */
        r->goodput_bps = tn_conn_goodput_bps(c);
        r->throughput_bps = tn_conn_throughput_bps(c);
        from = tn_time_ns(c->first);
        to = tn_time_ns(c->last);
    } else if (row_window(c, cfg, t0, &from, &to)) {
        double all, fresh, d = (double)(to - from) / 1e9;
        window_bytes(c, from, to, &all, &fresh);
        r->throughput_bps = all * 8 / d;
        r->goodput_bps = fresh * 8 / d;
    } else {
        from = to = t0;
    }
    r->win_from_s = (double)(from - t0) / 1e9;
    r->win_to_s = (double)(to - t0) / 1e9;
}

/* The flow's name in this trace: a second connection of the same key gets "#2". */
static void row_flow(struct tn_experiment *e, size_t first_row, struct tn_exp_row *r, const struct tn_conn *c,
                     const struct tn_exp_cfg *cfg)
{
    char key[sizeof r->flow];
    tn_flow_key(c, cfg->rules, cfg->nrules, key, sizeof key);
    unsigned same = 0;
    for (size_t i = first_row; i + 1 < e->nrows; i++) {
        const char *f = e->rows[i].flow, *hash = strrchr(f, '#');
        size_t n = hash ? (size_t)(hash - f) : strlen(f);
        same += (n == strlen(key) && strncmp(f, key, n) == 0);
    }
    if (same)
        snprintf(r->flow, sizeof r->flow, "%.50s#%u", key, same + 1);
    else
        snprintf(r->flow, sizeof r->flow, "%s", key);
}

void tn_experiment_add(struct tn_experiment *e, const char *label, const char *file,
                       const struct tn_analyzer *a, const struct tn_exp_cfg *cfg)
{
    const struct tn_fair_cfg *fc = cfg->fair;
    size_t t = e->ntraces++;
    e->labels = tn_xrealloc(e->labels, e->ntraces * sizeof *e->labels);
    e->files = tn_xrealloc(e->files, e->ntraces * sizeof *e->files);
    e->jain = tn_xrealloc(e->jain, e->ntraces * sizeof *e->jain);
    e->util = tn_xrealloc(e->util, e->ntraces * sizeof *e->util);
    e->link_rate_bps = cfg->link_rate_bps;
    e->labels[t] = tn_xstrdup(label);
    e->files[t] = tn_xstrdup(file);
    struct tn_fairness f;
    tn_fairness_compute(a, fc, &f);
    e->jain[t] = f.jain;
    struct tn_signif sig;   /* the rows are the flows the index is computed over */
    tn_signif_init(&sig, a, fc->sel, fc->nsel, fc->all_connections);
    const struct tn_trace_stats *st = tn_analyzer_stats(a);
    int64_t t0 = st->have_time ? tn_time_ns(st->first) : 0;
    size_t first_row = e->nrows;
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (!tn_signif_keep(&sig, c))
            continue;
        if (fc->sel && fc->nsel) {
            bool picked = false;
            for (size_t k = 0; k < fc->nsel; k++)
                picked |= fc->sel[k] == c->idx;
            if (!picked)
                continue;
        }
        tn_grow((void **)&e->rows, &e->cap, e->nrows + 1, sizeof *e->rows);
        struct tn_exp_row *r = &e->rows[e->nrows++];
        memset(r, 0, sizeof *r);
        r->trace = (unsigned)(t + 1);
        r->conn = c->idx;
        r->proto = c->proto;
        r->a = c->a;
        r->b = c->b;
        r->a_port = c->a_port;
        r->b_port = c->b_port;
        fill_rates(r, c, cfg, t0);
        r->rexmit_pkts = tn_dir_rexmits(c, TN_A2B) + tn_dir_rexmits(c, TN_B2A);
        r->rtt_ms_avg = rtt_avg(c);
        r->jain = f.jain;
        row_flow(e, first_row, r, c, cfg);
        tn_flow_key(c, NULL, 0, r->host, sizeof r->host);
        r->cc = c->inf[c->d[TN_B2A].data_bytes > c->d[TN_A2B].data_bytes ? TN_B2A : TN_A2B].flavor;
    }
    tn_fairness_fini(&f);
    double bits = 0, from = INFINITY, to = -INFINITY;
    for (size_t i = first_row; i < e->nrows; i++) {
        const struct tn_exp_row *r = &e->rows[i];
        bits += r->goodput_bps * (r->win_to_s - r->win_from_s);
        from = fmin(from, r->win_from_s);
        to = fmax(to, r->win_to_s);
    }
    e->util[t] = cfg->link_rate_bps > 0 && to > from ? bits / ((to - from) * cfg->link_rate_bps) : NAN;
    /* labels are borrowed by the rows: set them now that the array no longer moves */
    for (size_t i = 0; i < e->nrows; i++)
        e->rows[i].label = e->labels[e->rows[i].trace - 1];
}

void tn_experiment_fini(struct tn_experiment *e)
{
    for (size_t i = 0; i < e->ntraces; i++) {
        free(e->labels[i]);
        free(e->files[i]);
    }
    free(e->labels);
    free(e->files);
    free(e->jain);
    free(e->util);
    free(e->rows);
    memset(e, 0, sizeof *e);
}
