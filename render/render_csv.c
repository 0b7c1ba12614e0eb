/* render_csv.c - connections.csv, events.csv and series.csv of csv-contract.md, each from its
 * column table (render_cols.h). */
#include <inttypes.h>

#include "render.h"
#include "render_cols.h"
#include "render_csvfile.h"

/* ---- connections.csv: one table gives the header, the rows and the JSON records ---- */

#define TN_ROW_conn                                                                          \
    const struct tn_conn *c = row;                                                        \
    bool tcp = c->proto == TN_PK_TCP;                                                     \
    (void)tcp

/* A counter of both directions: a2b_NAME and b2a_NAME; DFCP has no sequence space,
 * retransmissions or windows, so those are empty (unknown) for it. */
#define BOTH(X, P, name, have) \
    X(P, a2b_##name, UINT, 0, tn_cell_u(o, have, c->d[TN_A2B].name)) \
    X(P, b2a_##name, UINT, 0, tn_cell_u(o, have, c->d[TN_B2A].name))

#define CONN_COLUMNS(X, P)                                                                         \
    X(P, conn, UINT, 0, tn_cell_u(o, true, c->idx))                                                \
    X(P, proto, TEXT, 0, tn_cell_s(o, true, tcp ? "tcp" : "dfcp"))                                 \
    X(P, a_addr, TEXT, 0, tn_cell_s(o, true, tn_addr_str(&c->a, o->buf, sizeof o->buf)))           \
    X(P, a_port, UINT, 0, tn_cell_u(o, true, c->a_port))                                           \
    X(P, b_addr, TEXT, 0, tn_cell_s(o, true, tn_addr_str(&c->b, o->buf, sizeof o->buf)))           \
    X(P, b_port, UINT, 0, tn_cell_u(o, true, c->b_port))                                           \
    X(P, first_s, TIME, 0, tn_cell_t(o, true, tn_time_ns(c->span_first)))                               \
    X(P, last_s, TIME, 0, tn_cell_t(o, true, tn_time_ns(c->span_last)))                                 \
    X(P, state, TEXT, 0, tn_cell_s(o, true, tn_conn_state_name(tn_conn_state(c))))                 \
    BOTH(X, P, pkts, true)                                                                         \
    BOTH(X, P, data_pkts, true)                                                                    \
    BOTH(X, P, data_bytes, true)                                                                   \
    BOTH(X, P, unique_bytes, tcp)                                                                  \
    BOTH(X, P, rexmit_pkts, tcp)                                                                   \
    BOTH(X, P, rexmit_bytes, tcp)                                                                  \
    BOTH(X, P, dupacks, tcp)                                                                       \
    BOTH(X, P, ooo_pkts, tcp)                                                                      \
    BOTH(X, P, zero_wnd, tcp)                                                                      \
    X(P, anomalies, UINT, 0, tn_cell_u(o, true, c->anomalies))

CONN_COLUMNS(TN_COL_GETTER, conn)

const struct tn_col tn_conn_cols[] = {CONN_COLUMNS(TN_COL_ENTRY, conn)};
const size_t tn_conn_ncols = TN_ARRAY_LEN(tn_conn_cols);

/* ---- events.csv ---- */

#define TN_ROW_event                                                                         \
    const struct tn_event_row *r_ = row;                                                  \
    const struct tn_conn *c = r_->c;                                                      \
    const struct tn_event *e = r_->e;                                                     \
    (void)c, (void)e

#define EVENT_COLUMNS(X, P)                                                                        \
    X(P, conn, UINT, 0, tn_cell_u(o, true, c->idx))                                                \
    X(P, time_s, TIME, 0, tn_cell_t(o, true, e->t_ns))                                             \
    X(P, dir, TEXT, 0, tn_cell_s(o, true, e->dir == TN_A2B ? "a2b" : "b2a"))                       \
    X(P, kind, TEXT, 0, tn_cell_s(o, true, tn_event_kind_name((enum tn_event_kind)e->kind)))       \
    X(P, seq, INT, 0, tn_cell_i(o, true, tn_view_seq(r_->v, c, tn_event_seq_dir(e), e->seq)))     \
    X(P, len, UINT, 0, tn_cell_u(o, true, e->len))                                                 \
    X(P, detail, TEXT, 0, tn_cell_s(o, true, e->detail))

EVENT_COLUMNS(TN_COL_GETTER, event)

const struct tn_col tn_event_cols[] = {EVENT_COLUMNS(TN_COL_ENTRY, event)};
const size_t tn_event_ncols = TN_ARRAY_LEN(tn_event_cols);

/* ---- series.csv: long format, one row per point ---- */

#define TN_ROW_series                                                                        \
    const struct tn_series_row *r = row

#define SERIES_COLUMNS(X, P)                                                                       \
    X(P, conn, UINT, 0, tn_cell_u(o, r->conn != 0, r->conn))                                       \
    X(P, dir, TEXT, 0, tn_cell_s(o, r->dir >= 0, r->dir == TN_A2B ? "a2b" : "b2a"))                \
    X(P, series, TEXT, 0, tn_cell_s(o, true, r->name))                                             \
    X(P, time_s, TIME, 0, tn_cell_t(o, true, r->pt->t_ns))                                         \
    X(P, value, REAL, 3, tn_cell_rp(o, true, r->pt->v, r->prec))

SERIES_COLUMNS(TN_COL_GETTER, series)

const struct tn_col tn_series_cols[] = {SERIES_COLUMNS(TN_COL_ENTRY, series)};
const size_t tn_series_ncols = TN_ARRAY_LEN(tn_series_cols);

void tn_csv_series_rows(struct tn_csvfile *f, unsigned conn, int dir, const char *name, const struct tn_series *s,
                        int prec, const struct tn_view *v, const struct tn_conn *c)
{
    for (size_t j = 0; j < s->n; j++) {
        if (v && !tn_view_time(v, c, s->pts[j].t_ns))
            continue;
        struct tn_series_row row = {conn, dir, name, &s->pts[j], prec};
        tn_cols_csv_row(f, tn_series_cols, tn_series_ncols, &row);
    }
}

void tn_csv_conn_rows(struct tn_csvfile *f, const struct tn_conn *c, const struct tn_view *v)
{
    if (tn_selected(v->sel, c->idx))
        tn_cols_csv_row(f, tn_conn_cols, tn_conn_ncols, c);
}

void tn_csv_event_rows(struct tn_csvfile *f, const struct tn_conn *c, const struct tn_view *v)
{
    if (!tn_selected(v->sel, c->idx))
        return;
    for (size_t k = 0; k < c->nevents; k++) {
        const struct tn_event *e = &c->events[k];
        if (!tn_view_time(v, c, e->t_ns))
            continue;
        struct tn_event_row row = {c, e, v};
        tn_cols_csv_row(f, tn_event_cols, tn_event_ncols, &row);
    }
}

void tn_csv_conn_series_rows(struct tn_csvfile *f, const struct tn_conn *c, const struct tn_view *v)
{
    if (!tn_selected(v->sel, c->idx))
        return;
    for (unsigned d = 0; d < 2; d++)
        for (int k = 0; k < TN_SER_COUNT; k++)
            tn_csv_series_rows(f, c->idx, (int)d, tn_series_kind_name((enum tn_series_kind)k), &c->series[d][k], 3,
                               v, c);
}
