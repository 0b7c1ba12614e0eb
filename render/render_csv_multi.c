/* render_csv_multi.c - experiment.csv, and the multi-flow rows of series.csv (csv-contract.md). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "render.h"
#include "render_csvfile.h"

static const char exp_header[] =
    "trace,label,conn,proto,a_addr,a_port,b_addr,b_port,goodput_bps,throughput_bps,rexmit_pkts,"
    "rtt_ms_avg,jain_index,flow";

int tn_csv_write_experiment(const char *dir, const struct tn_experiment *e, struct tn_err *err)
{
    struct tn_csvfile f;
    int r = tn_csvfile_open(&f, dir, "experiment.csv", exp_header, err);
    if (r)
        return r;
    char addr[64];
    for (size_t i = 0; i < e->nrows; i++) {
        const struct tn_exp_row *w = &e->rows[i];
        tn_csvfile_u64(&f, w->trace);
        tn_csvfile_str(&f, w->label);
        tn_csvfile_u64(&f, w->conn);
        tn_csvfile_str(&f, w->proto == TN_PK_DFCP ? "dfcp" : "tcp");
        tn_csvfile_str(&f, tn_addr_str(&w->a, addr, sizeof addr));
        tn_csvfile_u64(&f, w->a_port);
        tn_csvfile_str(&f, tn_addr_str(&w->b, addr, sizeof addr));
        tn_csvfile_u64(&f, w->b_port);
        tn_csvfile_dbl(&f, w->goodput_bps, 1);
        tn_csvfile_dbl(&f, w->throughput_bps, 1);
        tn_csvfile_u64(&f, w->rexmit_pkts);
        if (w->rtt_ms_avg >= 0)
            tn_csvfile_dbl(&f, w->rtt_ms_avg, 3);
        else
            tn_csvfile_str(&f, NULL);
        tn_csvfile_dbl(&f, w->jain, 6);
        tn_csvfile_str(&f, w->flow);
        tn_csvfile_end_row(&f);
    }
    return tn_csvfile_close(&f, err);
}

struct app {
    struct tn_csvfile f;
    const struct tn_view *v;
};

/* Rows of one series: conn 0 and dir < 0 are empty cells. */
static void rows(struct app *w, unsigned conn, int dir, const char *name, const struct tn_series *s, int prec)
{
    for (size_t j = 0; j < s->n; j++) {
        if (w->v && !tn_view_time(w->v, s->pts[j].t_ns))
            continue;
        if (conn)
            tn_csvfile_u64(&w->f, conn);
        else
            tn_csvfile_str(&w->f, NULL);
        tn_csvfile_str(&w->f, dir < 0 ? NULL : dir == TN_A2B ? "a2b" : "b2a");
        tn_csvfile_str(&w->f, name);
        tn_csvfile_ns(&w->f, s->pts[j].t_ns);
        tn_csvfile_dbl(&w->f, s->pts[j].v, prec);
        tn_csvfile_end_row(&w->f);
    }
}

/* The ns-2 link whose queue goes to series.csv: the one with most drops, then the fullest. */
static const struct tn_linkq_link *busiest(const struct tn_linkq *l)
{
    const struct tn_linkq_link *best = NULL;
    for (size_t i = 0; i < tn_linkq_count(l); i++) {
        const struct tn_linkq_link *k = tn_linkq_link(l, i);
        if (!best || k->drops > best->drops || (k->drops == best->drops && k->max_pkts > best->max_pkts))
            best = k;
    }
    return best;
}

int tn_csv_append_multi_series(const char *dir, const struct tn_multi *m, const struct tn_view *v,
                               struct tn_err *err)
{
    struct app w = {.v = v};
    int r = tn_csvfile_open_append(&w.f, dir, "series.csv", "conn,dir,series,time_s,value", err);
    if (r)
        return r;
    if (m->fair)
        rows(&w, 0, -1, "jain_index", &m->fair->jain_series, 6);
    if (m->q2) {
        rows(&w, 0, -1, "queue_pkts", &m->q2->queue_pkts, 0);
        rows(&w, 0, -1, "queue_bytes", &m->q2->queue_bytes, 0);
        for (size_t i = 0; i < m->q2->nflows; i++) {
            const struct tn_qflow *f = &m->q2->flows[i];
            if (!f->conn)
                continue;   /* a flow the analysis did not see as a connection */
            if (v && !tn_selected(v->sel, f->conn))
                continue;
            rows(&w, f->conn, f->dir, "queue_pkts", &f->queue_pkts, 0);
            rows(&w, f->conn, f->dir, "queue_bytes", &f->queue_bytes, 0);
            rows(&w, f->conn, f->dir, "sojourn_ms", &f->sojourn, 6);
        }
    }
    if (m->q1) {
        rows(&w, 0, -1, "queue_est_pkts", &m->q1->queue_pkts, 3);
        for (size_t i = 0; i < m->q1->n; i++)
            if (!v || tn_selected(v->sel, m->q1->flows[i].conn))
                rows(&w, m->q1->flows[i].conn, m->q1->flows[i].dir, "queue_delay_ms", &m->q1->flows[i].delay_ms, 3);
    }
    if (m->linkq && tn_linkq_count(m->linkq)) {
        const struct tn_linkq_link *k = busiest(m->linkq);
        rows(&w, 0, -1, "queue_pkts", &k->queue_pkts, 0);
        rows(&w, 0, -1, "queue_bytes", &k->queue_bytes, 0);
    }
    return tn_csvfile_close(&w.f, err);
}
