/* render_fig_tput.c - throughput and goodput over time, one connection or many overlaid, and
 * Jain's fairness index across flows on a second axis.
 *
 * The analysis gives throughput_bps / goodput_bps per interval, each point at the interval's
 * end on a grid shared by every connection (t / interval), so flows line up by time stamp.
 * Jain's index per interval over the flows active in it (those that sent data in it):
 * J = (sum x)^2 / (n sum x^2)  (Jain, Chiu, Hawe, DEC-TR-301, 1984).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "plot.h"

/* Line colours for flows: vermillion means retransmission, black is Jain's index. */

/* The interval length: the grid step, the smallest gap between consecutive points. */
static int64_t interval_of(const struct tn_series *s)
{
    int64_t iv = 0;
    for (size_t i = 1; i < s->n; i++) {
        int64_t d = s->pts[i].t_ns - s->pts[i - 1].t_ns;
        if (d > 0 && (iv == 0 || d < iv))
            iv = d;
    }
    return iv ? iv : 100000000;
}

/* A rate holds over its interval: draw it as a step from the interval's start to its end. */
static void add_steps(struct tn_plot *p, size_t si, const struct tn_point *v, size_t n, int64_t iv,
                      int64_t from, int64_t to)
{
    for (size_t i = 0; i < n; i++) {
        if (v[i].t_ns < from || v[i].t_ns - iv > to)
            continue;
        if (i > 0 && v[i].t_ns - v[i - 1].t_ns > iv)   /* intervals without a value: a gap */
            tn_plot_break(p, si);
        int64_t a = v[i].t_ns - iv < from ? from : v[i].t_ns - iv;
        tn_plot_point(p, si, tn_fig_x(p, a), v[i].v);
        tn_plot_point(p, si, tn_fig_x(p, v[i].t_ns > to ? to : v[i].t_ns), v[i].v);
    }
}

static size_t add_line(struct tn_plot *p, const struct tn_series *s, enum tn_color col, const char *label,
                       bool dashed, int64_t from, int64_t to)
{
    struct tn_plot_series *ps = tn_plot_series_new(p, TN_D_LINE, col, label);
    ps->dashed = dashed;
    ps->width = dashed ? 1.2 : 1.4;
    size_t si = tn_plot_series_index(p, ps);
    add_steps(p, si, s->pts, s->n, interval_of(s), from, to);
    return si;
}

static struct tn_plot *tput_plot(const struct tn_conn *c, int d, const struct tn_fig_cfg *fc)
{
    int64_t from, to;
    if (!tn_fig_window(c, fc->view, &from, &to))
        return NULL;
    bool any = false;
    double top = 0;
    for (int k = 0; k < 2; k++) {
        if ((d >= 0 && k != d) || !tn_fig_dir_has_data(c, (enum tn_dir)k))
            continue;
        any = true;
        top = fmax(top, tn_fig_series_max(&c->series[k][TN_SER_THROUGHPUT], from, to));
        top = fmax(top, tn_fig_series_max(&c->series[k][TN_SER_GOODPUT], from, to));
    }
    if (!any)
        return NULL;
    struct tn_plot *p = tn_fig_begin_at(fc, tn_fig_origin(c, fc), from, to);
    snprintf(p->title, sizeof p->title, "Throughput and goodput");
    tn_fig_conn_label(c, d, p->subtitle, sizeof p->subtitle);
    snprintf(p->y.label, sizeof p->y.label, "rate");
    p->y.unit = TN_U_BPS;
    tn_plot_set_range(&p->y, 0, top > 0 ? top * 1.08 : 1);
    if (top <= 0)
        snprintf(p->note, sizeof p->note, "no throughput samples");
    for (int k = 0; k < 2; k++) {
        if ((d >= 0 && k != d) || !tn_fig_dir_has_data(c, (enum tn_dir)k))
            continue;
        char l1[64], l2[64];
        const char *dn = tn_fig_dir_name((enum tn_dir)k);
        snprintf(l1, sizeof l1, "throughput %s", dn);
        snprintf(l2, sizeof l2, "goodput %s", dn);
        enum tn_color col = k == TN_A2B ? TN_C_BLUE : TN_C_ORANGE;
        add_line(p, &c->series[k][TN_SER_THROUGHPUT], col, l1, false, from, to);
        add_line(p, &c->series[k][TN_SER_GOODPUT], k == TN_A2B ? TN_C_GREEN : TN_C_PURPLE, l2, true,
                 from, to);
    }
    tn_plot_finish(p);
    return p;
}

struct tn_plot *tn_fig_tput_conn(const struct tn_conn *c, const struct tn_fig_cfg *fc)
{
    return tput_plot(c, -1, fc);
}

struct tn_plot *tn_fig_tput_dir(const struct tn_conn *c, enum tn_dir d, const struct tn_fig_cfg *fc)
{
    return tput_plot(c, d, fc);
}

/* The direction that carries a connection's data (the larger one). */
static enum tn_dir main_dir(const struct tn_conn *c)
{
    return c->d[TN_B2A].data_bytes > c->d[TN_A2B].data_bytes ? TN_B2A : TN_A2B;
}

/* Jain's index per interval over the flows that sent data in it, by a k-way merge on time; an
 * interval where every flow is idle has no index.  A flow silent for a whole interval (an
 * application pause, the control connection of iperf3, also a timeout) is not counted there. */
static void jain_series(struct tn_plot *p, size_t si, const struct tn_series *const *fs, size_t n,
                        int64_t from, int64_t to)
{
    size_t *at = tn_xcalloc(n, sizeof *at);
    double *x = tn_xcalloc(n, sizeof *x);
    struct tn_point *out = NULL;
    size_t nout = 0, cap = 0;
    int64_t iv = INT64_MAX;
    for (size_t i = 0; i < n; i++) {
        int64_t k = interval_of(fs[i]);
        iv = k < iv ? k : iv;
    }
    for (;;) {
        int64_t t = INT64_MAX;
        for (size_t i = 0; i < n; i++)
            if (at[i] < fs[i]->n && fs[i]->pts[at[i]].t_ns < t)
                t = fs[i]->pts[at[i]].t_ns;
        if (t == INT64_MAX)
            break;
        size_t m = 0;
        double sum = 0;
        for (size_t i = 0; i < n; i++)
            if (at[i] < fs[i]->n && fs[i]->pts[at[i]].t_ns == t) {
                double v = fs[i]->pts[at[i]++].v;
                if (v > 0) {   /* active: it sent in this interval */
                    x[m++] = v;
                    sum += v;
                }
            }
        if (sum > 0) {
            tn_grow((void **)&out, &cap, nout + 1, sizeof *out);
            out[nout++] = (struct tn_point){t, tn_fig_jain_index(x, m)};
        }
    }
    add_steps(p, si, out, nout, iv, from, to);
    free(out);
    free(at);
    free(x);
}

struct tn_plot *tn_fig_tput_all(const struct tn_conn *const *cs, size_t n, bool fairness,
                                const struct tn_fig_cfg *fc)
{
    int64_t from = INT64_MAX, to = INT64_MIN, origin = INT64_MAX;
    double top = 0;
    const struct tn_series **fs = tn_xcalloc(n ? n : 1, sizeof *fs);
    size_t nf = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t f, t;
        enum tn_dir d = main_dir(cs[i]);
        if (!tn_fig_dir_has_data(cs[i], d) || !tn_fig_window(cs[i], fc->view, &f, &t))
            continue;
        from = f < from ? f : from;
        to = t > to ? t : to;
        origin = tn_fig_origin(cs[i], fc) < origin ? tn_fig_origin(cs[i], fc) : origin;
        fs[nf++] = &cs[i]->series[d][TN_SER_THROUGHPUT];
    }
    if (nf == 0 || (fairness && nf < 2)) {
        free(fs);
        return NULL;
    }
    for (size_t i = 0; i < nf; i++)
        top = fmax(top, tn_fig_series_max(fs[i], from, to));
    struct tn_plot *p = tn_fig_begin_at(fc, origin, from, to);
    snprintf(p->title, sizeof p->title, fairness ? "Throughput and fairness" : "Throughput");
    snprintf(p->subtitle, sizeof p->subtitle, "%zu connections%s", nf,
             fairness ? "; Jain's index over the flows sending in each interval" : "");
    snprintf(p->y.label, sizeof p->y.label, "throughput");
    p->y.unit = TN_U_BPS;
    tn_plot_set_range(&p->y, 0, top > 0 ? top * 1.08 : 1);
    if (fairness) {
        p->has_y2 = true;
        snprintf(p->y2.label, sizeof p->y2.label, "Jain's fairness index");
        tn_plot_set_range(&p->y2, 0, 1.05);
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        enum tn_dir d = main_dir(cs[i]);
        int64_t f, t;
        if (!tn_fig_dir_has_data(cs[i], d) || !tn_fig_window(cs[i], fc->view, &f, &t))
            continue;
        char label[64];
        tn_fig_conn_flow_label(fc, cs[i], label, sizeof label);
        struct tn_fig_style st = tn_fig_style(k++);
        size_t si = add_line(p, &cs[i]->series[d][TN_SER_THROUGHPUT], st.color, label, st.dashed, from, to);
        p->s[si].dash = st.dash;
    }
    if (fairness) {
        struct tn_plot_series *s = tn_plot_series_new(p, TN_D_LINE, TN_C_BLACK, "Jain's index");
        s->right = true;
        s->width = 1.6;
        s->dashed = true;
        jain_series(p, tn_plot_series_index(p, s), fs, nf, from, to);
    }
    free(fs);
    tn_plot_finish(p);
    return p;
}
