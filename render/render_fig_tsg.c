/* render_fig_tsg.c - the time-sequence graph (Stevens, TCP/IP Illustrated; tcptrace's a2b_tsg).
 *
 * For the sender of direction d: each data segment a vertical tick over its sequence range,
 * retransmissions in their own colour (vermillion) with a marker for their cause, the receiver's
 * cumulative ACK as a step line, the window limit (ACK + advertised window), SACK blocks,
 * duplicate ACKs and zero windows, over shaded slow-start / recovery episodes.
 * Sequence numbers are relative to the ISN and unwrapped (struct tn_pktrec).
 */
#include <math.h>
#include <stdio.h>

#include "plot.h"

struct tsg_range {
    double lo, data_hi, win_hi;
    uint64_t data, rexmit;
};

/* First pass: the sequence range in the window, so the decimators know the axis. */
static void tsg_range(const struct tn_conn *c, enum tn_dir d, int64_t from, int64_t to,
                      struct tsg_range *r)
{
    r->lo = INFINITY;
    r->data_hi = r->win_hi = 0;
    r->data = r->rexmit = 0;
    for (size_t i = 0; i < c->npkts; i++) {
        const struct tn_pktrec *k = &c->pkts[i];
        if (k->t_ns < from || k->t_ns > to)
            continue;
        if (k->dir == d && k->len > 0) {
            r->lo = fmin(r->lo, tn_seq_y(k->seq));
            r->data_hi = fmax(r->data_hi, tn_seq_y(tn_pktrec_end(k)));
            r->data += tn_pktrec_segs(k);
            r->rexmit += k->rexmit != 0;
        } else if (k->dir != d && (k->flags & TN_TCP_ACK) && k->ack > 0) {
            r->lo = fmin(r->lo, tn_seq_y(k->ack));
            r->data_hi = fmax(r->data_hi, tn_seq_y(k->ack));
            r->win_hi = fmax(r->win_hi, tn_seq_y(k->ack + k->win));
        }
    }
    if (!isfinite(r->lo))
        r->lo = 0;
}

static size_t series(struct tn_plot *p, enum tn_draw draw, enum tn_color col, const char *label,
                     enum tn_mark mark, double width, bool keep_all)
{
    struct tn_plot_series *s = tn_plot_series_new(p, draw, col, label);
    s->mark = mark;
    s->width = width;
    s->keep_all = keep_all;
    return tn_plot_series_index(p, s);
}

struct tsg_idx {
    size_t rwnd, data, sack, ack, rexmit, dupack, zwin, cause[4];
};

static void tsg_series(struct tn_plot *p, struct tsg_idx *ix)
{
    ix->rwnd = series(p, TN_D_LINE, TN_C_ORANGE, "window limit (ACK + rwnd)", TN_MK_DOT, 1, false);
    /* the ACK line first: at coarse time scales data and ACKs share a column, and the data
     * must stay visible */
    ix->ack = series(p, TN_D_LINE, TN_C_GREEN, "cumulative ACK", TN_MK_DOT, 1.2, false);
    ix->sack = series(p, TN_D_TICKS, TN_C_PURPLE, "SACK block", TN_MK_DOT, 1, false);
    ix->data = series(p, TN_D_TICKS, TN_C_BLUE, "data segment", TN_MK_DOT, 1, false);
    ix->rexmit = series(p, TN_D_TICKS, TN_C_VERMILLION, "retransmission", TN_MK_DOT, 1.5, false);
    ix->dupack = series(p, TN_D_POINTS, TN_C_BLACK, "duplicate ACK", TN_MK_PLUS, 4, true);
    ix->zwin = series(p, TN_D_POINTS, TN_C_BLACK, "zero window", TN_MK_DTRI, 7, true);
    /* rexmit field: 1 + enum tn_event_kind, fast/rto/spurious/other are the first four kinds */
    ix->cause[TN_EV_REXMIT_FAST] =
        series(p, TN_D_POINTS, TN_C_VERMILLION, "fast retransmit", TN_MK_DIAMOND, 5, true);
    ix->cause[TN_EV_REXMIT_RTO] =
        series(p, TN_D_POINTS, TN_C_VERMILLION, "RTO retransmit", TN_MK_BOX, 5, true);
    ix->cause[TN_EV_REXMIT_SPURIOUS] =
        series(p, TN_D_POINTS, TN_C_VERMILLION, "spurious retransmit", TN_MK_X, 5, true);
    ix->cause[TN_EV_REXMIT_OTHER] =
        series(p, TN_D_POINTS, TN_C_VERMILLION, "retransmit (cause unknown)", TN_MK_CIRCLE, 5, true);
}

static void tsg_packets(struct tn_plot *p, const struct tn_conn *c, enum tn_dir d, int64_t from,
                        int64_t to, const struct tsg_idx *ix)
{
    bool have_ack = false;
    double ack = 0, lim = 0;
    for (size_t i = 0; i < c->npkts; i++) {
        const struct tn_pktrec *k = &c->pkts[i];
        if (k->t_ns < from || k->t_ns > to)
            continue;
        double x = tn_fig_x(p, k->t_ns);
        if (k->dir == d) {
            if (k->len == 0)
                continue;
            double lo = tn_seq_y(k->seq), hi = tn_seq_y(tn_pktrec_end(k));
            if (k->rexmit) {
                tn_plot_tick(p, ix->rexmit, x, lo, hi);
                unsigned cause = k->rexmit - 1u;
                tn_plot_point(p, ix->cause[cause < 4 ? cause : TN_EV_REXMIT_OTHER], x, hi);
            } else {
                tn_plot_tick(p, ix->data, x, lo, hi);
            }
            continue;
        }
        if (!(k->flags & TN_TCP_ACK) || k->ack == 0)
            continue;
        /* the cumulative ACK never goes back: a late, reordered ACK does not move the line */
        double a = tn_seq_y(k->ack), l = tn_seq_y(k->ack + k->win);
        if (!have_ack) {
            ack = a;
            lim = l;
            tn_plot_point(p, ix->ack, x, ack);
            tn_plot_point(p, ix->rwnd, x, lim);
            have_ack = true;
        }
        if (a > ack) {
            tn_plot_point(p, ix->ack, x, ack);
            tn_plot_point(p, ix->ack, x, a);
            ack = a;
        }
        if (a >= ack && l != lim) {
            tn_plot_point(p, ix->rwnd, x, lim);
            tn_plot_point(p, ix->rwnd, x, l);
            lim = l;
        }
        for (unsigned s = 0; s < k->nsack; s++)
            tn_plot_tick(p, ix->sack, x, tn_seq_y(k->sack[s].left), tn_seq_y(k->sack[s].right));
    }
    if (have_ack) {   /* the lines run on to the end of the window */
        tn_plot_point(p, ix->ack, p->x.max, ack);
        tn_plot_point(p, ix->rwnd, p->x.max, lim);
    }
}

static void tsg_events(struct tn_plot *p, const struct tn_conn *c, enum tn_dir d, int64_t from,
                       int64_t to, const struct tsg_idx *ix)
{
    /* the running cumulative ACK at each event, for zero-window markers (their seq is 0) */
    size_t k = 0;
    double ack = 0;
    for (size_t i = 0; i < c->nevents; i++) {
        const struct tn_event *e = &c->events[i];
        if (e->dir == d || e->t_ns < from || e->t_ns > to)
            continue;
        while (k < c->npkts && c->pkts[k].t_ns <= e->t_ns) {
            const struct tn_pktrec *r = &c->pkts[k++];
            if (r->dir != d && (r->flags & TN_TCP_ACK) && tn_seq_y(r->ack) > ack)
                ack = tn_seq_y(r->ack);
        }
        if (e->kind == TN_EV_DUPACK)
            tn_plot_point(p, ix->dupack, tn_fig_x(p, e->t_ns), tn_seq_y(e->seq));
        else if (e->kind == TN_EV_ZERO_WINDOW)
            tn_plot_point(p, ix->zwin, tn_fig_x(p, e->t_ns), ack);
    }
}

struct tn_plot *tn_fig_tsg(const struct tn_conn *c, enum tn_dir d, const struct tn_fig_cfg *fc)
{
    int64_t from, to;
    if (c->proto != TN_PK_TCP || !tn_fig_dir_has_data(c, d) || !tn_fig_window(c, fc->view, &from, &to))
        return NULL;
    struct tsg_range r;
    tsg_range(c, d, from, to, &r);
    struct tn_plot *p = tn_fig_begin_at(fc, tn_fig_origin(c, fc), from, to);
    snprintf(p->title, sizeof p->title, "Time-sequence graph");
    char who[160];
    tn_fig_conn_label(c, d, who, sizeof who);
    snprintf(p->subtitle, sizeof p->subtitle, "%s; %llu data segments, %llu retransmitted", who,
             (unsigned long long)r.data, (unsigned long long)r.rexmit);
    snprintf(p->y.label, sizeof p->y.label, "sequence offset");
    p->y.unit = TN_U_BYTES;
    /* the window line is shown where it is near the data; far above, it would squash the data */
    double hi = r.data_hi, span = hi - r.lo;
    if (r.win_hi > hi)
        hi = fmin(r.win_hi, hi + 0.15 * span);
    /* from the ISN when it is near; below it where a capture begun mid-flow shows data below
     * its first segment (negative offsets) */
    double lo = r.lo >= 0 && r.lo < 0.05 * (hi - r.lo) ? 0 : r.lo;
    tn_plot_set_range(&p->y, lo, hi + 0.02 * (hi - lo));
    if (r.data == 0)
        snprintf(p->note, sizeof p->note, "no data segments in the time window");

    tn_fig_episodes(p, c, d, from, to);
    struct tsg_idx ix;
    tsg_series(p, &ix);
    tsg_packets(p, c, d, from, to, &ix);
    tsg_events(p, c, d, from, to, &ix);
    tn_plot_finish(p);
    return p;
}
