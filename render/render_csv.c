/* render_csv.c - connections.csv, events.csv and series.csv of csv-contract.md. */
#include <inttypes.h>

#include "render.h"
#include "render_csvfile.h"

static const char conn_header[] =
    "conn,proto,a_addr,a_port,b_addr,b_port,first_s,last_s,state,a2b_pkts,b2a_pkts,"
    "a2b_data_pkts,b2a_data_pkts,a2b_data_bytes,b2a_data_bytes,a2b_unique_bytes,b2a_unique_bytes,"
    "a2b_rexmit_pkts,b2a_rexmit_pkts,a2b_rexmit_bytes,b2a_rexmit_bytes,a2b_dupacks,b2a_dupacks,"
    "a2b_ooo_pkts,b2a_ooo_pkts,a2b_zero_wnd,b2a_zero_wnd,anomalies";

/* Two cells: the a->b and b->a values of one counter. */
#define BOTH(f, c, field)                          \
    do {                                           \
        tn_csvfile_u64((f), (c)->d[TN_A2B].field); \
        tn_csvfile_u64((f), (c)->d[TN_B2A].field); \
    } while (0)

static void conn_row(struct tn_csvfile *f, const struct tn_conn *c)
{
    char addr[64];
    bool tcp = c->proto == TN_PK_TCP;
    tn_csvfile_u64(f, c->idx);
    tn_csvfile_str(f, tcp ? "tcp" : "dfcp");
    tn_csvfile_str(f, tn_addr_str(&c->a, addr, sizeof addr));
    tn_csvfile_u64(f, c->a_port);
    tn_csvfile_str(f, tn_addr_str(&c->b, addr, sizeof addr));
    tn_csvfile_u64(f, c->b_port);
    tn_csvfile_time(f, c->first);
    tn_csvfile_time(f, c->last);
    tn_csvfile_str(f, tn_conn_state_name(tn_conn_state(c)));
    BOTH(f, c, pkts);
    BOTH(f, c, data_pkts);
    BOTH(f, c, data_bytes);
    if (tcp) {
        BOTH(f, c, unique_bytes);
        BOTH(f, c, rexmit_pkts);
        BOTH(f, c, rexmit_bytes);
        BOTH(f, c, dupacks);
        BOTH(f, c, ooo_pkts);
        BOTH(f, c, zero_wnd);
    } else {   /* DFCP has no sequence space, retransmissions or windows: unknown, empty */
        for (int i = 0; i < 12; i++)
            tn_csvfile_str(f, NULL);
    }
    tn_csvfile_u64(f, c->anomalies);
    tn_csvfile_end_row(f);
}

int tn_csv_write_connections(const char *dir, const struct tn_analyzer *a,
                             const struct tn_selection *sel, struct tn_err *err)
{
    struct tn_csvfile f;
    int r = tn_csvfile_open(&f, dir, "connections.csv", conn_header, err);
    if (r)
        return r;
    size_t n = tn_analyzer_conn_count(a);
    for (size_t i = 0; i < n; i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (tn_selected(sel, c->idx))
            conn_row(&f, c);
    }
    return tn_csvfile_close(&f, err);
}

static const char *dir_name(unsigned d)
{
    return d == TN_A2B ? "a2b" : "b2a";
}

int tn_csv_write_events(const char *dir, const struct tn_analyzer *a, const struct tn_view *v,
                        struct tn_err *err)
{
    struct tn_csvfile f;
    int r = tn_csvfile_open(&f, dir, "events.csv", "conn,time_s,dir,kind,seq,len,detail", err);
    if (r)
        return r;
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (!tn_selected(v->sel, c->idx))
            continue;
        for (size_t k = 0; k < c->nevents; k++) {
            const struct tn_event *e = &c->events[k];
            if (!tn_view_time(v, e->t_ns))
                continue;
            tn_csvfile_u64(&f, c->idx);
            tn_csvfile_ns(&f, e->t_ns);
            tn_csvfile_str(&f, dir_name(e->dir));
            tn_csvfile_str(&f, tn_event_kind_name((enum tn_event_kind)e->kind));
            tn_csvfile_u64(&f, tn_view_seq(v, c, tn_event_seq_dir(e), e->seq));
            tn_csvfile_u64(&f, e->len);
            tn_csvfile_str(&f, e->detail);
            tn_csvfile_end_row(&f);
        }
    }
    return tn_csvfile_close(&f, err);
}

int tn_csv_write_series(const char *dir, const struct tn_analyzer *a, const struct tn_view *v,
                        struct tn_err *err)
{
    struct tn_csvfile f;
    int r = tn_csvfile_open(&f, dir, "series.csv", "conn,dir,series,time_s,value", err);
    if (r)
        return r;
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (!tn_selected(v->sel, c->idx))
            continue;
        for (unsigned d = 0; d < 2; d++) {
            for (int k = 0; k < TN_SER_COUNT; k++) {
                const struct tn_series *s = &c->series[d][k];
                for (size_t j = 0; j < s->n; j++) {
                    if (!tn_view_time(v, s->pts[j].t_ns))
                        continue;
                    tn_csvfile_u64(&f, c->idx);
                    tn_csvfile_str(&f, dir_name(d));
                    tn_csvfile_str(&f, tn_series_kind_name((enum tn_series_kind)k));
                    tn_csvfile_ns(&f, s->pts[j].t_ns);
                    tn_csvfile_dbl(&f, s->pts[j].v, 3);
                    tn_csvfile_end_row(&f);
                }
            }
        }
    }
    return tn_csvfile_close(&f, err);
}
