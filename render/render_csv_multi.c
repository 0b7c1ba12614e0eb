/* render_csv_multi.c - experiment.csv (from its column table), and the multi-flow rows of
 * series.csv (csv-contract.md). */
#include <stdio.h>
#include <string.h>

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

void tn_csv_multi_series_rows(struct tn_csvfile *f, const struct tn_multi *m, const struct tn_view *v)
{
    if (m->fair)
        tn_csv_series_rows(f, 0, -1, "jain_index", &m->fair->jain_series, 6, v, NULL);
    if (m->q2) {
        tn_csv_series_rows(f, 0, -1, "queue_pkts", &m->q2->queue_pkts, 0, v, NULL);
        tn_csv_series_rows(f, 0, -1, "queue_bytes", &m->q2->queue_bytes, 0, v, NULL);
        for (size_t i = 0; i < m->q2->nflows; i++) {
            const struct tn_qflow *q = &m->q2->flows[i];
            if (!q->conn)
                continue;   /* a flow the analysis did not see as a connection */
            if (v && !tn_selected(v->sel, q->conn))
                continue;
            tn_csv_series_rows(f, q->conn, q->dir, "queue_pkts", &q->queue_pkts, 0, v, NULL);
            tn_csv_series_rows(f, q->conn, q->dir, "queue_bytes", &q->queue_bytes, 0, v, NULL);
            tn_csv_series_rows(f, q->conn, q->dir, "sojourn_ms", &q->sojourn, 6, v, NULL);
        }
    }
    if (m->q1) {
        tn_csv_series_rows(f, 0, -1, "queue_est_pkts", &m->q1->queue_pkts, 3, v, NULL);
        for (size_t i = 0; i < m->q1->n; i++)
            if (!v || tn_selected(v->sel, m->q1->flows[i].conn))
                tn_csv_series_rows(f, m->q1->flows[i].conn, m->q1->flows[i].dir, "queue_delay_ms",
                                   &m->q1->flows[i].delay_ms, 3, v, NULL);
    }
    if (m->linkq && tn_linkq_count(m->linkq)) {
        const struct tn_linkq_link *k = busiest(m->linkq);
        tn_csv_series_rows(f, 0, -1, "queue_pkts", &k->queue_pkts, 0, v, NULL);
        tn_csv_series_rows(f, 0, -1, "queue_bytes", &k->queue_bytes, 0, v, NULL);
    }
}
