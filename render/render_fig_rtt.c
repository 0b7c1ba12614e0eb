/* render_fig_rtt.c - RTT samples over time with the smoothed RTT of RFC 6298 §2 (alpha 1/8).
 *
 * The samples are the analysis' data->ACK measurements (Karn's rule applied there); SRTT is
 * computed here from them in time order: SRTT = R for the first, then (1 - 1/8) SRTT + 1/8 R.
 */
#include <math.h>
#include <stdio.h>

#include "plot.h"

struct tn_plot *tn_fig_rtt(const struct tn_conn *c, enum tn_dir d, const struct tn_fig_cfg *fc)
{
    int64_t from, to;
    if (c->proto != TN_PK_TCP || !tn_fig_dir_has_data(c, d) || !tn_fig_window(c, fc->view, &from, &to))
        return NULL;
    const struct tn_series *rtt = &c->series[d][TN_SER_RTT_MS];
    struct tn_plot *p = tn_fig_begin_at(fc, tn_fig_origin(c, fc), from, to);
    snprintf(p->title, sizeof p->title, "Round-trip time");
    char who[160];
    tn_fig_conn_label(c, d, who, sizeof who);
    size_t n = 0;
    for (size_t i = 0; i < rtt->n; i++)
        n += rtt->pts[i].t_ns >= from && rtt->pts[i].t_ns <= to;
    snprintf(p->subtitle, sizeof p->subtitle, "%s; %zu samples", who, n);
    snprintf(p->y.label, sizeof p->y.label, "RTT");
    p->y.unit = TN_U_MS;
    double top = tn_fig_series_max(rtt, from, to);
    tn_plot_set_range(&p->y, 0, top > 0 ? top * 1.08 : 1);
    if (n == 0)
        snprintf(p->note, sizeof p->note, "no RTT samples for this sender");

    /* the smoothed line first and thin: the samples it runs through stay visible on top */
    struct tn_plot_series *s = tn_plot_series_new(p, TN_D_LINE, TN_C_ORANGE, "smoothed RTT (RFC 6298)");
    s->width = 1.5;
    size_t s_srtt = tn_plot_series_index(p, s);
    s = tn_plot_series_new(p, TN_D_POINTS, TN_C_BLUE, "RTT sample");
    s->mark = TN_MK_DOT;
    s->width = 3;
    size_t s_pts = tn_plot_series_index(p, s);
    double srtt = NAN;
    for (size_t i = 0; i < rtt->n; i++) {   /* SRTT runs over every sample, shown in the window */
        const struct tn_point *q = &rtt->pts[i];
        srtt = isfinite(srtt) ? srtt + (q->v - srtt) / 8 : q->v;
        if (q->t_ns < from || q->t_ns > to)
            continue;
        double x = tn_fig_x(p, q->t_ns);
        tn_plot_point(p, s_pts, x, q->v);
        tn_plot_point(p, s_srtt, x, srtt);
    }
    tn_plot_finish(p);
    return p;
}
