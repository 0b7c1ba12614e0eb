/* render_csv_packets.c - packets.csv of csv-contract.md: one row per recorded packet of the
 * selected connections within the time window.
 *
 * TCP rows: seq/ack relative to each direction's ISN and unwrapped; flags as tcpdump-like letters
 * in the order S, F, R, P, U, E, C then A (so "SA", "PA", "FA"); sack "left-right;left-right".
 * DFCP rows: seq = block number, ack = symbol index, flags = the type name; TCP-only cells empty.
 * Header and cells come from one column table (render_cols.h).
 */
#include <inttypes.h>
#include <stdio.h>

#include "render.h"
#include "render_cols.h"
#include "render_csvfile.h"

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

/* The SACK blocks "left-right;left-right", relative to the acknowledged direction. */
static const char *sack_text(const struct tn_packet_row *w, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < w->r->nsack && i < TN_MAX_SACK && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%" PRId64 "-%" PRId64, i ? ";" : "",
                              tn_view_seq(w->v, w->c, !w->r->dir, w->r->sack[i].left),
                              tn_view_seq(w->v, w->c, !w->r->dir, w->r->sack[i].right));
    return buf;
}

static const char *flags_text(const struct tn_packet_row *w, char *buf)
{
    if (w->c->proto == TN_PK_DFCP)
        return tn_dfcp_type_name(w->r->flags, buf);
    tcp_flags(w->r->flags, buf);
    return buf;
}

#define TN_ROW_pkt                                                                           \
    const struct tn_packet_row *w = row;                                                  \
    const struct tn_pktrec *r = w->r;                                                     \
    bool tcp = w->c->proto != TN_PK_DFCP;                                                 \
    (void)r, (void)tcp

/* (a DFCP record's flags hold its type, below TN_TCP_ACK: its ack stays the symbol index) */
#define PACKET_COLUMNS(X, P)                                                                       \
    X(P, conn, UINT, 0, tn_cell_u(o, true, w->c->idx))                                             \
    X(P, time_s, TIME, 0, tn_cell_t(o, true, r->t_ns))                                             \
    X(P, dir, TEXT, 0, tn_cell_s(o, true, r->dir == TN_A2B ? "a2b" : "b2a"))                       \
    X(P, seq, INT, 0, tn_cell_i(o, true, tn_view_seq(w->v, w->c, r->dir, r->seq)))                \
    X(P, ack, INT, 0,                                                                              \
      tn_cell_i(o, true, (r->flags & TN_TCP_ACK) ? tn_view_seq(w->v, w->c, !r->dir, r->ack) : (int64_t)r->ack)) \
    X(P, len, UINT, 0, tn_cell_u(o, true, r->len))                                                 \
    X(P, flags, TEXT, 0, tn_cell_s(o, true, flags_text(w, o->buf)))                                \
    X(P, win, UINT, 0, tn_cell_u(o, tcp, r->win))                                                  \
    X(P, sack, TEXT, 0, tn_cell_s(o, tcp, tcp ? sack_text(w, o->buf, sizeof o->buf) : NULL))       \
    X(P, ts_val, UINT, 0, tn_cell_u(o, tcp && r->has_ts, r->ts_val))                               \
    X(P, ts_ecr, UINT, 0, tn_cell_u(o, tcp && r->has_ts, r->ts_ecr))                               \
    X(P, ip_id, UINT, 0, tn_cell_u(o, true, r->ip_id))                                             \
    X(P, rexmit, UINT, 0, tn_cell_u(o, tcp, r->rexmit ? 1 : 0))

PACKET_COLUMNS(TN_COL_GETTER, pkt)

const struct tn_col tn_packet_cols[] = {PACKET_COLUMNS(TN_COL_ENTRY, pkt)};
const size_t tn_packet_ncols = TN_ARRAY_LEN(tn_packet_cols);

void tn_csv_packet_rows(struct tn_csvfile *f, const struct tn_conn *c, const struct tn_view *v)
{
    if (!tn_selected(v->sel, c->idx))
        return;
    for (size_t k = 0; k < c->npkts; k++) {
        if (!tn_view_time(v, c, c->pkts[k].t_ns))
            continue;
        struct tn_packet_row row = {c, &c->pkts[k], v};
        tn_cols_csv_row(f, tn_packet_cols, tn_packet_ncols, &row);
    }
}
