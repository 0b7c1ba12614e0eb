/* render_fig_cwnd.c - congestion window: bytes in flight, the cwnd and ssthresh estimates, and
 * an optional kernel ground truth (--truth, read by analysis: tn_truth_window) for comparison.
 *
 * The ground truth counts snd_cwnd and ssthresh in segments; they are converted to bytes with
 * the connection's effective MSS (tn_fig_mss).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

/* ---- the figure ---- */

static size_t line(struct tn_plot *p, enum tn_color col, const char *label, double width, bool dashed)
{
    struct tn_plot_series *s = tn_plot_series_new(p, TN_D_LINE, col, label);
    s->width = width;
    s->dashed = dashed;
    return tn_plot_series_index(p, s);
}

static void add_series(struct tn_plot *p, size_t si, const struct tn_series *s, int64_t from, int64_t to,
                       double cap, bool step)
{
    double prev = NAN;
    for (size_t i = 0; i < s->n; i++) {
        const struct tn_point *q = &s->pts[i];
        if (q->t_ns < from || q->t_ns > to || q->v > cap)
            continue;
        double x = tn_fig_x(p, q->t_ns);
        if (step && isfinite(prev))
            tn_plot_point(p, si, x, prev);
        tn_plot_point(p, si, x, q->v);
        prev = q->v;
    }
}

static void add_points(struct tn_plot *p, size_t si, const struct tn_point *v, size_t n, double mul,
                       int64_t from, int64_t to, bool step)
{
    double prev = NAN;
    for (size_t i = 0; i < n; i++) {
        if (v[i].t_ns < from || v[i].t_ns > to)
            continue;
        double x = tn_fig_x(p, v[i].t_ns), y = v[i].v * mul;
        if (step && isfinite(prev))
            tn_plot_point(p, si, x, prev);
        tn_plot_point(p, si, x, y);
        prev = y;
    }
}

static double pts_max(const struct tn_point *v, size_t n, double mul, int64_t from, int64_t to)
{
    double m = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].t_ns >= from && v[i].t_ns <= to)
            m = fmax(m, v[i].v * mul);
    return m;
}

struct tn_plot *tn_fig_cwnd(const struct tn_conn *c, enum tn_dir d, const struct tn_fig_cfg *fc)
{
    int64_t from, to;
    if (c->proto != TN_PK_TCP || !tn_fig_dir_has_data(c, d) || !tn_fig_window(c, fc->view, &from, &to))
        return NULL;
    const struct tn_series *infl = &c->series[d][TN_SER_INFLIGHT];
    const struct tn_series *cwnd = &c->series[d][TN_SER_CWND_EST];
    const struct tn_series *ssth = &c->series[d][TN_SER_SSTHRESH_EST];
    uint32_t mss = tn_fig_mss(c, d);

    struct tn_point *t_cwnd = NULL, *t_ssth = NULL;
    size_t t_ncwnd = 0, t_nssth = 0;
    if (fc->truth)
        t_ncwnd = tn_truth_window(fc->truth, c, d, &t_cwnd, &t_ssth, &t_nssth);

    struct tn_plot *p = tn_fig_begin_at(fc, tn_fig_origin(c, fc), from, to);
    snprintf(p->title, sizeof p->title, "Congestion window");
    char who[160];
    tn_fig_conn_label(c, d, who, sizeof who);
    const struct tn_tcp_infer *inf = &c->inf[d];
    snprintf(p->subtitle, sizeof p->subtitle, "%s; MSS %u B; model %s%s", who, mss,
             tn_cc_flavor_name(inf->flavor),
             fc->truth && t_ncwnd == 0 ? "; no ground-truth rows for this sender" : "");
    snprintf(p->y.label, sizeof p->y.label, "window");
    p->y.unit = TN_U_BYTES;

    double top = fmax(tn_fig_series_max(infl, from, to), tn_fig_series_max(cwnd, from, to));
    top = fmax(top, pts_max(t_cwnd, t_ncwnd, mss, from, to));
    /* ssthresh counts when it is in the picture, not when it is the huge initial value */
    double cap = top > 0 ? top * 2 : INFINITY;
    double sm = 0;
    for (size_t i = 0; i < ssth->n; i++)
        if (ssth->pts[i].v <= cap && ssth->pts[i].t_ns >= from && ssth->pts[i].t_ns <= to)
            sm = fmax(sm, ssth->pts[i].v);
    top = fmax(top, sm);
    tn_plot_set_range(&p->y, 0, top > 0 ? top * 1.05 : 1);
    if (infl->n == 0 && cwnd->n == 0)
        snprintf(p->note, sizeof p->note, "no window samples for this sender");

    tn_fig_episodes(p, c, d, from, to);
    size_t s_infl = line(p, TN_C_BLUE, "bytes in flight", 1, false);
    size_t s_cwnd = line(p, TN_C_GREEN, "cwnd estimate", 1.5, false);
    size_t s_ssth = line(p, TN_C_ORANGE, "ssthresh estimate", 1.5, true);
    add_series(p, s_infl, infl, from, to, INFINITY, true);   /* holds until the next ACK */
    add_series(p, s_cwnd, cwnd, from, to, INFINITY, true);
    add_series(p, s_ssth, ssth, from, to, cap, true);
    if (t_ncwnd) {
        size_t s_tc = line(p, TN_C_BLACK, "kernel snd_cwnd", 1, true);
        size_t s_ts = line(p, TN_C_GREY, "kernel ssthresh", 1, true);
        add_points(p, s_tc, t_cwnd, t_ncwnd, mss, from, to, true);
        for (size_t i = 0; i < t_nssth; i++)
            if (t_ssth[i].v * mss > cap)
                t_ssth[i].t_ns = INT64_MIN;   /* out of the picture */
        add_points(p, s_ts, t_ssth, t_nssth, mss, from, to, true);
    }
    free(t_cwnd);
    free(t_ssth);
    tn_plot_finish(p);
    return p;
}
