/* analysis_experiment.c - several labelled traces in one table (experiment.csv rows). */
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"

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
        return c->dfcp.goodput_bps * c->dfcp.duration_s / d;
    return (double)(c->d[TN_A2B].unique_bytes + c->d[TN_B2A].unique_bytes) * 8 / d;
}

/* The data direction's RTT average (the direction with more data). */
static double rtt_avg(const struct tn_conn *c)
{
    int d = c->d[TN_B2A].data_bytes > c->d[TN_A2B].data_bytes ? TN_B2A : TN_A2B;
    const struct tn_stat *s = &c->inf[d].rtt_ms;
    return s->n ? tn_stat_avg(s) : -1;
}

void tn_experiment_add(struct tn_experiment *e, const char *label, const char *file,
                       const struct tn_analyzer *a, const struct tn_fair_cfg *fc)
{
    size_t t = e->ntraces++;
    e->labels = tn_xrealloc(e->labels, e->ntraces * sizeof *e->labels);
    e->files = tn_xrealloc(e->files, e->ntraces * sizeof *e->files);
    e->jain = tn_xrealloc(e->jain, e->ntraces * sizeof *e->jain);
    e->labels[t] = tn_xstrdup(label);
    e->files[t] = tn_xstrdup(file);
    struct tn_fairness f;
    tn_fairness_compute(a, fc, &f);
    e->jain[t] = f.jain;
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        bool in = false;   /* the rows are the flows the index is computed over */
        for (size_t k = 0; k < f.nflows && !in; k++)
            in = f.by != TN_FAIR_CONN || f.flows[k].conn == c->idx;
        if (!in || c->d[TN_A2B].data_bytes + c->d[TN_B2A].data_bytes == 0)
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
        r->goodput_bps = tn_conn_goodput_bps(c);
        r->throughput_bps = tn_conn_throughput_bps(c);
        r->rexmit_pkts = c->d[TN_A2B].rexmit_pkts + c->d[TN_B2A].rexmit_pkts;
        r->rtt_ms_avg = rtt_avg(c);
        r->jain = f.jain;
    }
    tn_fairness_fini(&f);
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
    free(e->rows);
    memset(e, 0, sizeof *e);
}
