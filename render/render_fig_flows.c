/* render_fig_flows.c - figures of several flows on one axis: congestion windows over time, RTT
 * distributions (CDF and histogram) and retransmissions over time.  Each flow is the data
 * direction of a significant connection, drawn in its flow style (tn_fig_style) and named by
 * the legend rule (tn_fig_conn_flow_label); time counts from the earliest of their first packets.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "plot.h"

static enum tn_dir main_dir(const struct tn_conn *c)
{
    return c->d[TN_B2A].data_bytes > c->d[TN_A2B].data_bytes ? TN_B2A : TN_A2B;
}

/* The TCP flows with data in the view's window, and their common time range. */
static size_t tcp_flows(const struct tn_conn *const *cs, size_t n, const struct tn_fig_cfg *fc,
                        const struct tn_conn **out, int64_t *from, int64_t *to, int64_t *origin)
{
    size_t k = 0;
    *from = *origin = INT64_MAX;
    *to = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        int64_t f, t;
        if (cs[i]->proto != TN_PK_TCP || !tn_fig_dir_has_data(cs[i], main_dir(cs[i])) ||
            !tn_fig_window(cs[i], fc->view, &f, &t))
            continue;
        out[k++] = cs[i];
        *from = f < *from ? f : *from;
        *to = t > *to ? t : *to;
        *origin = tn_fig_origin(cs[i], fc) < *origin ? tn_fig_origin(cs[i], fc) : *origin;
    }
    return k;
}

static size_t styled(struct tn_plot *p, size_t k, const struct tn_conn *c, const struct tn_fig_cfg *fc)
{
    char label[96];
    tn_fig_conn_flow_label(fc, c, label, sizeof label);
    struct tn_fig_style st = tn_fig_style(k);
    struct tn_plot_series *s = tn_plot_series_new(p, TN_D_LINE, st.color, label);
    s->dashed = st.dashed;
    s->dash = st.dash;
    s->width = 1.3;
    return tn_plot_series_index(p, s);
}

struct tn_plot *tn_fig_cwnd_all(const struct tn_conn *const *cs, size_t n, const struct tn_fig_cfg *fc)
{
    const struct tn_conn **v = tn_xcalloc(n ? n : 1, sizeof *v);
    int64_t from, to, origin;
    size_t m = tcp_flows(cs, n, fc, v, &from, &to, &origin);
    struct tn_plot *p = NULL;
    if (m >= 2) {   /* one flow has its own cwnd figure */
        p = tn_fig_begin_at(fc, origin, from, to);
        snprintf(p->title, sizeof p->title, "Congestion windows");
        snprintf(p->subtitle, sizeof p->subtitle, "%zu flows: each sender's cwnd estimate", m);
        snprintf(p->y.label, sizeof p->y.label, "cwnd estimate");
        p->y.unit = TN_U_BYTES;
        double top = 0;
        for (size_t k = 0; k < m; k++)
            top = fmax(top, tn_fig_series_max(&v[k]->series[main_dir(v[k])][TN_SER_CWND_EST], from, to));
        tn_plot_set_range(&p->y, 0, top > 0 ? top * 1.05 : 1);
        for (size_t k = 0; k < m; k++) {
            size_t si = styled(p, k, v[k], fc);
            const struct tn_series *s = &v[k]->series[main_dir(v[k])][TN_SER_CWND_EST];
            for (size_t i = 0; i < s->n; i++) {   /* a step: the estimate holds until the next ACK */
                if (s->pts[i].t_ns < from || s->pts[i].t_ns > to)
                    continue;
                double x = tn_fig_x(p, s->pts[i].t_ns);
                if (i && s->pts[i - 1].t_ns >= from)
                    tn_plot_point(p, si, x, s->pts[i - 1].v);
                tn_plot_point(p, si, x, s->pts[i].v);
            }
        }
        tn_plot_finish(p);
    }
    free(v);
    return p;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The flow's RTT samples inside the window, sorted. */
static double *rtt_samples(const struct tn_conn *c, int64_t from, int64_t to, size_t *n)
{
    const struct tn_series *s = &c->series[main_dir(c)][TN_SER_RTT_MS];
    double *v = tn_xcalloc(s->n + 1, sizeof *v);
    *n = 0;
    /* a round trip takes no negative time: such a value (fuzz_retired: -1.2e43 from another
     * rank's bytes, whose histogram bin was a float-to-size_t overflow) is not a sample */
    for (size_t i = 0; i < s->n; i++)
        if (s->pts[i].t_ns >= from && s->pts[i].t_ns <= to && isfinite(s->pts[i].v) && s->pts[i].v >= 0)
            v[(*n)++] = s->pts[i].v;
    qsort(v, *n, sizeof *v, cmp_double);
    return v;
}

/* Every flow's sorted RTT samples inside the window. */
struct rtt_set {
    const struct tn_conn **v;   /* the flows */
    size_t m;
    double **smp;               /* [m] sorted samples */
    size_t *ns, total;
    double top;                 /* the largest sample */
};

static void rtt_set_init(struct rtt_set *r, const struct tn_conn *const *cs, size_t n, const struct tn_fig_cfg *fc)
{
    int64_t from, to, origin;
    r->v = tn_xcalloc(n ? n : 1, sizeof *r->v);
    r->m = tcp_flows(cs, n, fc, r->v, &from, &to, &origin);
    r->smp = tn_xcalloc(r->m + 1, sizeof *r->smp);
    r->ns = tn_xcalloc(r->m + 1, sizeof *r->ns);
    r->total = 0;
    r->top = 0;
    for (size_t k = 0; k < r->m; k++) {
        r->smp[k] = rtt_samples(r->v[k], from, to, &r->ns[k]);
        r->total += r->ns[k];
        if (r->ns[k])
            r->top = fmax(r->top, r->smp[k][r->ns[k] - 1]);
    }
}

static void rtt_set_free(struct rtt_set *r)
{
    for (size_t k = 0; k < r->m; k++)
        free(r->smp[k]);
    free(r->smp);
    free(r->ns);
    free(r->v);
}

struct tn_plot *tn_fig_rtt_cdf(const struct tn_conn *const *cs, size_t n, const struct tn_fig_cfg *fc)
{
    struct rtt_set rs;
    rtt_set_init(&rs, cs, n, fc);
    const struct tn_conn *const *v = rs.v;
    size_t m = rs.m, total = rs.total, *ns = rs.ns;
    double **smp = rs.smp, top = rs.top;
    struct tn_plot *p = NULL;
    if (total) {
        p = tn_plot_new(fc->ncols, fc->nrows);
        snprintf(p->title, sizeof p->title, "RTT distribution");
        snprintf(p->subtitle, sizeof p->subtitle, "empirical CDF of each flow's RTT samples (%zu in all)", total);
        snprintf(p->x.label, sizeof p->x.label, "RTT");
        p->x.unit = TN_U_MS;
        snprintf(p->y.label, sizeof p->y.label, "fraction of samples at most x");
        tn_plot_set_range(&p->x, 0, top * 1.05);
        tn_plot_set_range(&p->y, 0, 1.02);
        for (size_t k = 0; k < m; k++) {
            if (!ns[k])
                continue;
            size_t si = styled(p, k, v[k], fc);
            for (size_t i = 0; i < ns[k]; i++) {   /* a step up by 1/n at each sample */
                tn_plot_point(p, si, smp[k][i], (double)i / (double)ns[k]);
                tn_plot_point(p, si, smp[k][i], (double)(i + 1) / (double)ns[k]);
            }
        }
        tn_plot_finish(p);
    }
    rtt_set_free(&rs);
    return p;
}

/* Histogram bin width of the Freedman-Diaconis rule, 2 IQR n^(-1/3) (D. Freedman, P. Diaconis,
 * "On the histogram as a density estimator: L2 theory", Z. Wahrscheinlichkeitstheorie 57, 1981),
 * over all the flows' samples so the flows share their bins. */
static double fd_width(double *const *smp, const size_t *ns, size_t m, double top)
{
    size_t total = 0;
    for (size_t k = 0; k < m; k++)
        total += ns[k];
    double *all = tn_xcalloc(total + 1, sizeof *all);
    size_t j = 0;
    for (size_t k = 0; k < m; k++)
        for (size_t i = 0; i < ns[k]; i++)
            all[j++] = smp[k][i];
    qsort(all, total, sizeof *all, cmp_double);
    double iqr = all[(size_t)(0.75 * (double)(total - 1))] - all[(size_t)(0.25 * (double)(total - 1))];
    free(all);
    double w = 2 * iqr / cbrt((double)total);
    /* identical samples (no spread): 50 bins over the range */
    return w > 0 ? fmax(w, top / 500) : (top > 0 ? top / 50 : 1);
}

struct tn_plot *tn_fig_rtt_hist(const struct tn_conn *const *cs, size_t n, const struct tn_fig_cfg *fc)
{
    struct rtt_set rs;
    rtt_set_init(&rs, cs, n, fc);
    const struct tn_conn *const *v = rs.v;
    size_t m = rs.m, total = rs.total, *ns = rs.ns;
    double **smp = rs.smp, top = rs.top;
    struct tn_plot *p = NULL;
    if (total) {
        double w = fd_width(smp, ns, m, top);
        size_t nb = (size_t)(top / w) + 1;
        double *frac = tn_xcalloc(nb * (m ? m : 1), sizeof *frac), fmaxv = 0;
        for (size_t k = 0; k < m; k++)
            for (size_t i = 0; i < ns[k]; i++) {
                size_t b = (size_t)(smp[k][i] / w);
                frac[k * nb + (b < nb ? b : nb - 1)] += 1.0 / (double)ns[k];
            }
        for (size_t i = 0; i < nb * m; i++)
            fmaxv = fmax(fmaxv, frac[i]);
        p = tn_plot_new(fc->ncols, fc->nrows);
        snprintf(p->title, sizeof p->title, "RTT histogram");
        snprintf(p->subtitle, sizeof p->subtitle, "share of each flow's samples per %.3g ms bin (Freedman-Diaconis)",
                 w);
        snprintf(p->x.label, sizeof p->x.label, "RTT");
        p->x.unit = TN_U_MS;
        snprintf(p->y.label, sizeof p->y.label, "fraction of samples");
        tn_plot_set_range(&p->x, 0, (double)nb * w);
        tn_plot_set_range(&p->y, 0, fmaxv * 1.08);
        for (size_t k = 0; k < m; k++) {
            if (!ns[k])
                continue;
            size_t si = styled(p, k, v[k], fc);
            for (size_t b = 0; b < nb; b++) {   /* the outline of the bars */
                tn_plot_point(p, si, (double)b * w, b ? frac[k * nb + b - 1] : 0);
                tn_plot_point(p, si, (double)b * w, frac[k * nb + b]);
            }
            tn_plot_point(p, si, (double)nb * w, frac[k * nb + nb - 1]);
            tn_plot_point(p, si, (double)nb * w, 0);
        }
        free(frac);
        tn_plot_finish(p);
    }
    rtt_set_free(&rs);
    return p;
}

static bool is_rexmit(enum tn_event_kind k)
{
    return k == TN_EV_REXMIT_FAST || k == TN_EV_REXMIT_RTO || k == TN_EV_REXMIT_OTHER;
}

struct tn_plot *tn_fig_rexmit_time(const struct tn_conn *const *cs, size_t n, const struct tn_fig_cfg *fc)
{
    const struct tn_conn **v = tn_xcalloc(n ? n : 1, sizeof *v);
    int64_t from, to, origin;
    size_t m = tcp_flows(cs, n, fc, v, &from, &to, &origin);
    uint64_t top = 0;
    for (size_t k = 0; k < m; k++) {
        uint64_t c = 0;
        for (size_t i = 0; i < v[k]->nevents; i++)
            c += is_rexmit(v[k]->events[i].kind) && v[k]->events[i].dir == main_dir(v[k]) &&
                 v[k]->events[i].t_ns >= from && v[k]->events[i].t_ns <= to;
        top = c > top ? c : top;
    }
    struct tn_plot *p = NULL;
    if (m) {
        p = tn_fig_begin_at(fc, origin, from, to);
        snprintf(p->title, sizeof p->title, "Retransmissions over time");
        snprintf(p->subtitle, sizeof p->subtitle, "%zu flow%s: each sender's retransmissions so far, as inferred", m,
                 m == 1 ? "" : "s");
        snprintf(p->y.label, sizeof p->y.label, "retransmitted segments");
        tn_plot_set_range(&p->y, 0, top ? (double)top * 1.08 : 1);
        for (size_t k = 0; k < m; k++) {
            size_t si = styled(p, k, v[k], fc);
            uint64_t c = 0;
            int64_t f0, t0;   /* the flow's own span: its line ends with it */
            tn_fig_window(v[k], fc->view, &f0, &t0);
            tn_plot_point(p, si, tn_fig_x(p, f0), 0);
            for (size_t i = 0; i < v[k]->nevents; i++) {
                const struct tn_event *e = &v[k]->events[i];
                if (!is_rexmit(e->kind) || e->dir != main_dir(v[k]) || e->t_ns < from || e->t_ns > to)
                    continue;
                tn_plot_point(p, si, tn_fig_x(p, e->t_ns), (double)c);
                tn_plot_point(p, si, tn_fig_x(p, e->t_ns), (double)++c);
            }
            tn_plot_point(p, si, tn_fig_x(p, t0), (double)c);
        }
        tn_plot_finish(p);
    }
    free(v);
    return p;
}
