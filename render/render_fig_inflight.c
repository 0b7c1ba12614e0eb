/* render_fig_inflight.c - outstanding data (bytes in flight against the advertised window, as
 * tcptrace's a2b_owin) and segment sizes over time. */
#include <math.h>
#include <stdio.h>

#include "plot.h"

struct tn_plot *tn_fig_inflight(const struct tn_conn *c, enum tn_dir d, const struct tn_fig_cfg *fc)
{
    int64_t from, to;
    if (c->proto != TN_PK_TCP || !tn_fig_dir_has_data(c, d) || !tn_fig_window(c, fc->view, &from, &to))
        return NULL;
    const struct tn_series *infl = &c->series[d][TN_SER_INFLIGHT];
    const struct tn_series *rwnd = &c->series[d][TN_SER_RWND];
    struct tn_plot *p = tn_fig_begin_at(fc, tn_fig_origin(c, fc), from, to);
    snprintf(p->title, sizeof p->title, "Outstanding data");
    char who[160];
    tn_fig_conn_label(c, d, who, sizeof who);
    snprintf(p->subtitle, sizeof p->subtitle, "%s; largest %.0f B in flight", who,
             tn_fig_series_max(infl, from, to));
    snprintf(p->y.label, sizeof p->y.label, "outstanding data");
    p->y.unit = TN_U_BYTES;
    double top = tn_fig_series_max(infl, from, to), w = tn_fig_series_max(rwnd, from, to);
    /* the window is context: shown when it is near the data, clipped when far above it */
    if (w > top)
        top = top > 0 ? fmin(w, top * 1.5) : w;
    tn_plot_set_range(&p->y, 0, top > 0 ? top * 1.05 : 1);
    if (infl->n == 0)
        snprintf(p->note, sizeof p->note, "no bytes-in-flight samples for this sender");

    struct tn_plot_series *s = tn_plot_series_new(p, TN_D_LINE, TN_C_ORANGE, "advertised window");
    s->dashed = true;
    s->width = 1.2;
    size_t s_w = tn_plot_series_index(p, s);
    s = tn_plot_series_new(p, TN_D_LINE, TN_C_BLUE, "bytes in flight");
    size_t s_i = tn_plot_series_index(p, s);
    double prev = NAN;
    for (size_t i = 0; i < rwnd->n; i++) {
        const struct tn_point *q = &rwnd->pts[i];
        if (q->t_ns < from || q->t_ns > to)
            continue;
        double x = tn_fig_x(p, q->t_ns);
        if (isfinite(prev))
            tn_plot_point(p, s_w, x, prev);
        tn_plot_point(p, s_w, x, q->v);
        prev = q->v;
    }
    if (isfinite(prev))
        tn_plot_point(p, s_w, p->x.max, prev);
    prev = NAN;   /* bytes in flight hold from one ACK to the next: a step, not a ramp */
    for (size_t i = 0; i < infl->n; i++) {
        const struct tn_point *q = &infl->pts[i];
        if (q->t_ns < from || q->t_ns > to)
            continue;
        double x = tn_fig_x(p, q->t_ns);
        if (isfinite(prev))
            tn_plot_point(p, s_i, x, prev);
        tn_plot_point(p, s_i, x, q->v);
        prev = q->v;
    }
    tn_plot_finish(p);
    return p;
}

struct tn_plot *tn_fig_segsize(const struct tn_conn *c, enum tn_dir d, const struct tn_fig_cfg *fc)
{
    int64_t from, to;
    if (c->proto != TN_PK_TCP || !tn_fig_dir_has_data(c, d) || !tn_fig_window(c, fc->view, &from, &to))
        return NULL;
    struct tn_plot *p = tn_fig_begin_at(fc, tn_fig_origin(c, fc), from, to);
    snprintf(p->title, sizeof p->title, "Segment sizes");
    char who[160];
    tn_fig_conn_label(c, d, who, sizeof who);
    uint32_t mss = tn_fig_mss(c, d);
    const struct tn_dir_stats *ds = &c->d[d];
    snprintf(p->subtitle, sizeof p->subtitle, "%s; %u..%u B, MSS %u B", who, ds->seg_min, ds->seg_max, mss);
    snprintf(p->y.label, sizeof p->y.label, "segment size");
    p->y.unit = TN_U_BYTES;
    tn_plot_set_range(&p->y, 0, fmax((double)ds->seg_max, (double)mss) * 1.08);

    struct tn_plot_series *s = tn_plot_series_new(p, TN_D_LINE, TN_C_BLACK, "MSS");
    s->dashed = true;
    size_t s_mss = tn_plot_series_index(p, s);
    s = tn_plot_series_new(p, TN_D_POINTS, TN_C_BLUE, "segment");
    s->width = 2.5;
    size_t s_seg = tn_plot_series_index(p, s);
    s = tn_plot_series_new(p, TN_D_POINTS, TN_C_VERMILLION, "retransmission");
    s->mark = TN_MK_DIAMOND;   /* larger than a segment's dot: resends stand out on the MSS row */
    s->width = 5;
    size_t s_rx = tn_plot_series_index(p, s);
    tn_plot_point(p, s_mss, p->x.min, mss);
    tn_plot_point(p, s_mss, p->x.max, mss);
    size_t n = 0;
    for (size_t i = 0; i < c->npkts; i++) {
        const struct tn_pktrec *k = &c->pkts[i];
        if (k->dir != d || k->len == 0 || k->t_ns < from || k->t_ns > to)
            continue;
        /* (a merged record stands for several segments: their average size) */
        tn_plot_point(p, k->rexmit ? s_rx : s_seg, tn_fig_x(p, k->t_ns),
                      (double)k->len / tn_pktrec_segs(k));
        n++;
    }
    if (n == 0)
        snprintf(p->note, sizeof p->note, "no data segments in the time window");
    tn_plot_finish(p);
    return p;
}
