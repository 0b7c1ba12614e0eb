/* render_csv_packets.c - packets.csv of csv-contract.md: one row per recorded packet of the
 * selected connections within the time window.
 *
 * TCP rows: seq/ack relative to each direction's ISN and unwrapped; flags as tcpdump-like letters
 * in the order S, F, R, P, U, E, C then A (so "SA", "PA", "FA"); sack "left-right;left-right".
 * DFCP rows: seq = block number, ack = symbol index, flags = the type name; TCP-only cells empty.
 */
#include <inttypes.h>
#include <stdio.h>

#include "render.h"
#include "render_csvfile.h"

static const char header[] = "conn,time_s,dir,seq,ack,len,flags,win,sack,ts_val,ts_ecr,ip_id,rexmit";

static void tcp_flags(uint8_t f, char *buf)
{
    static const struct { uint8_t bit; char c; } tok[] = {
        {TN_TCP_SYN, 'S'}, {TN_TCP_FIN, 'F'}, {TN_TCP_RST, 'R'}, {TN_TCP_PSH, 'P'},
        {TN_TCP_URG, 'U'}, {TN_TCP_ECE, 'E'}, {TN_TCP_CWR, 'C'}, {TN_TCP_ACK, 'A'},
    };
    size_t n = 0;
    for (size_t i = 0; i < TN_ARRAY_LEN(tok); i++)
        if (f & tok[i].bit)
            buf[n++] = tok[i].c;
    buf[n] = 0;
}

static void row(struct tn_csvfile *f, const struct tn_view *v, const struct tn_conn *c,
                const struct tn_pktrec *r)
{
    char buf[TN_MAX_SACK * 48 + 16];
    tn_csvfile_u64(f, c->idx);
    tn_csvfile_ns(f, r->t_ns);
    tn_csvfile_str(f, r->dir == TN_A2B ? "a2b" : "b2a");
    tn_csvfile_u64(f, tn_view_seq(v, c, r->dir, r->seq));
    /* (a DFCP record's flags hold its type, below TN_TCP_ACK: its ack stays the symbol index) */
    tn_csvfile_u64(f, (r->flags & TN_TCP_ACK) ? tn_view_seq(v, c, !r->dir, r->ack) : r->ack);
    tn_csvfile_u64(f, r->len);
    if (c->proto == TN_PK_DFCP) {
        tn_csvfile_str(f, tn_dfcp_type_name(r->flags, buf));
        for (int i = 0; i < 4; i++)   /* win, sack, ts_val, ts_ecr: TCP only */
            tn_csvfile_str(f, NULL);
        tn_csvfile_u64(f, r->ip_id);
        tn_csvfile_str(f, NULL);
        tn_csvfile_end_row(f);
        return;
    }
    tcp_flags(r->flags, buf);
    tn_csvfile_str(f, buf);
    tn_csvfile_u64(f, r->win);
    size_t n = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < r->nsack && i < TN_MAX_SACK; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%" PRIu64 "-%" PRIu64, i ? ";" : "",
                              tn_view_seq(v, c, !r->dir, r->sack[i].left),
                              tn_view_seq(v, c, !r->dir, r->sack[i].right));
    tn_csvfile_str(f, buf);
    if (r->has_ts) {
        tn_csvfile_u64(f, r->ts_val);
        tn_csvfile_u64(f, r->ts_ecr);
    } else {
        tn_csvfile_str(f, NULL);
        tn_csvfile_str(f, NULL);
    }
    tn_csvfile_u64(f, r->ip_id);
    tn_csvfile_u64(f, r->rexmit ? 1 : 0);
    tn_csvfile_end_row(f);
}

int tn_csv_write_packets(const char *dir, const struct tn_analyzer *a, const struct tn_view *v,
                         struct tn_err *err)
{
    struct tn_csvfile f;
    int r = tn_csvfile_open(&f, dir, "packets.csv", header, err);
    if (r)
        return r;
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (!tn_selected(v ? v->sel : NULL, c->idx))
            continue;
        for (size_t k = 0; k < c->npkts; k++)
            if (!v || tn_view_time(v, c->pkts[k].t_ns))
                row(&f, v, c, &c->pkts[k]);
    }
    return tn_csvfile_close(&f, err);
}
