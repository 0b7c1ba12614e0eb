/* render_csv_multi.c - experiment.csv (from its column table), and the multi-flow rows of
 * series.csv (csv-contract.md). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "render.h"
#include "render_cols.h"
#include "render_csvfile.h"

/* ---- experiment.csv ---- */

#define TN_ROW_exp                                                                           \
    const struct tn_exp_row *w = row

#define EXP_COLUMNS(X, P)                                                                          \
    X(P, trace, UINT, 0, tn_cell_u(o, true, w->trace))                                             \
    X(P, label, TEXT, 0, tn_cell_s(o, true, w->label))                                             \
    X(P, conn, UINT, 0, tn_cell_u(o, true, w->conn))                                               \
    X(P, proto, TEXT, 0, tn_cell_s(o, true, w->proto == TN_PK_DFCP ? "dfcp" : "tcp"))              \
    X(P, a_addr, TEXT, 0, tn_cell_s(o, true, tn_addr_str(&w->a, o->buf, sizeof o->buf)))           \
    X(P, a_port, UINT, 0, tn_cell_u(o, true, w->a_port))                                           \
    X(P, b_addr, TEXT, 0, tn_cell_s(o, true, tn_addr_str(&w->b, o->buf, sizeof o->buf)))           \
    X(P, b_port, UINT, 0, tn_cell_u(o, true, w->b_port))                                           \
    X(P, goodput_bps, REAL, 1, tn_cell_r(o, true, w->goodput_bps))                                 \
    X(P, throughput_bps, REAL, 1, tn_cell_r(o, true, w->throughput_bps))                           \
    X(P, rexmit_pkts, UINT, 0, tn_cell_u(o, true, w->rexmit_pkts))                                 \
    X(P, rtt_ms_avg, REAL, 3, tn_cell_r(o, w->rtt_ms_avg >= 0, w->rtt_ms_avg))                     \
    X(P, jain_index, REAL, 6, tn_cell_r(o, true, w->jain))                                         \
    X(P, flow, TEXT, 0, tn_cell_s(o, true, w->flow))

EXP_COLUMNS(TN_COL_GETTER, exp)

const struct tn_col tn_exp_cols[] = {EXP_COLUMNS(TN_COL_ENTRY, exp)};
const size_t tn_exp_ncols = TN_ARRAY_LEN(tn_exp_cols);

int tn_csv_write_experiment(const char *dir, const struct tn_experiment *e, struct tn_err *err)
{
    char header[512];
    tn_cols_header(tn_exp_cols, tn_exp_ncols, header, sizeof header);
    struct tn_csvfile f;
    int r = tn_csvfile_open(&f, dir, "experiment.csv", header, err);
    if (r)
        return r;
    for (size_t i = 0; i < e->nrows; i++)
        tn_cols_csv_row(&f, tn_exp_cols, tn_exp_ncols, &e->rows[i]);
    return tn_csvfile_close(&f, err);
}

struct app {
    struct tn_csvfile f;
    const struct tn_view *v;
};

/* Rows of one series: conn 0 and dir < 0 are empty cells. */
static void rows(struct app *w, unsigned conn, int dir, const char *name, const struct tn_series *s, int prec)
{
    tn_csv_series_rows(&w->f, conn, dir, name, s, prec, w->v, NULL);
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
    char header[256];
    tn_cols_header(tn_series_cols, tn_series_ncols, header, sizeof header);
    int r = tn_csvfile_open_append(&w.f, dir, "series.csv", header, err);
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
