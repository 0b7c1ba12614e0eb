/* render_fig_experiment.c - experiment figures: goodput per flow and the throughput ratio of
 * two flows against the labelled parameter of the traces (e.g. "delay=25ms" -> 25). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_fig_multi.h"

double tn_fig_label_value(const char *label)
{
    const char *eq = strchr(label, '=');
    const char *s = eq ? eq + 1 : label;
    char *end;
    double v = strtod(s, &end);
    return end == s ? NAN : v;
}

/* x of each trace: its label's number when every label has one, else its position (1-based). */
static double *trace_x(const struct tn_experiment *e, char *axis, size_t len)
{
    double *x = tn_xcalloc(e->ntraces + 1, sizeof *x);
    bool numeric = e->ntraces > 0;
    for (size_t t = 0; t < e->ntraces; t++) {
        x[t] = tn_fig_label_value(e->labels[t]);
        numeric &= !isnan(x[t]);
    }
    if (numeric) {
        const char *eq = e->ntraces ? strchr(e->labels[0], '=') : NULL;
        const char *unit = NULL;
        if (eq) {
            char *end;
            strtod(eq + 1, &end);
            unit = *end ? end : NULL;
            snprintf(axis, len, "%.*s%s%s%s", (int)(eq - e->labels[0]), e->labels[0], unit ? " (" : "",
                     unit ? unit : "", unit ? ")" : "");
        } else {
            snprintf(axis, len, "parameter");
        }
    } else {
        for (size_t t = 0; t < e->ntraces; t++)
            x[t] = (double)(t + 1);
        snprintf(axis, len, "trace (label order)");
    }
    return x;
}

static void x_range(struct tn_plot *p, const double *x, size_t n)
{
    double lo = 0, hi = 1;
    for (size_t t = 0; t < n; t++) {
        if (t == 0 || x[t] < lo)
            lo = x[t];
        if (t == 0 || x[t] > hi)
            hi = x[t];
    }
    double pad = (hi - lo) * 0.05 + (hi == lo ? 1 : 0);
    tn_plot_set_range(&p->x, lo - pad, hi + pad);
}

/* Flows are matched across traces by protocol and position among the trace's rows of that
 * protocol: "TCP flow 1" is the first TCP connection with data of every trace. */
static size_t proto_rank(const struct tn_experiment *e, size_t i)
{
    size_t k = 0;
    for (size_t j = 0; j < i; j++)
        k += e->rows[j].trace == e->rows[i].trace && e->rows[j].proto == e->rows[i].proto;
    return k;
}

static const struct tn_exp_row *row_of(const struct tn_experiment *e, size_t t, enum tn_pkt_kind proto, size_t k)
{
    for (size_t i = 0; i < e->nrows; i++)
        if (e->rows[i].trace == t + 1 && e->rows[i].proto == proto && proto_rank(e, i) == k)
            return &e->rows[i];
    return NULL;
}

/* k-th row of trace t, any protocol (the ratio figure). */
static const struct tn_exp_row *row_at(const struct tn_experiment *e, size_t t, size_t k)
{
    size_t j = 0;
    for (size_t i = 0; i < e->nrows; i++)
        if (e->rows[i].trace == t + 1 && j++ == k)
            return &e->rows[i];
    return NULL;
}

struct tn_plot *tn_fig_exp_goodput(const struct tn_experiment *e, const struct tn_fig_cfg *fc)
{
    if (!e->nrows)
        return NULL;
    struct tn_plot *p = tn_plot_new(0, 0);
    double *x = trace_x(e, p->x.label, sizeof p->x.label);
    x_range(p, x, e->ntraces);
    snprintf(p->title, sizeof p->title, "Goodput per flow");
    snprintf(p->subtitle, sizeof p->subtitle,
             "%zu traces; \"TCP flow k\" = the k-th TCP connection with data in each trace", e->ntraces);
    snprintf(p->y.label, sizeof p->y.label, "goodput");
    p->y.unit = TN_U_BPS;
    double top = 0;
    for (size_t i = 0; i < e->nrows; i++)
        top = fmax(top, e->rows[i].goodput_bps);
    tn_plot_set_range(&p->y, 0, top > 0 ? top * 1.08 : 1);
    size_t nser = 0;
    for (size_t i = 0; i < e->nrows; i++) {
        size_t k = proto_rank(e, i);
        bool seen = false;   /* one series per (protocol, rank), at its first row */
        for (size_t j = 0; j < i && !seen; j++)
            seen = e->rows[j].proto == e->rows[i].proto && proto_rank(e, j) == k;
        if (seen)
            continue;
        enum tn_pkt_kind proto = e->rows[i].proto;
        char label[64];
        snprintf(label, sizeof label, "%s flow %zu", proto == TN_PK_DFCP ? "DFCP" : "TCP", k + 1);
        struct tn_plot_series *s = tn_plot_series_new(p, TN_D_LINE, tn_figm_color(nser), label);
        size_t sl = tn_plot_series_index(p, s);
        s = tn_plot_series_new(p, TN_D_POINTS, tn_figm_color(nser), "");
        s->mark = proto == TN_PK_DFCP ? TN_MK_BOX : TN_MK_DIAMOND;
        s->width = 6;
        size_t sp = tn_plot_series_index(p, s);
        nser++;
        for (size_t t = 0; t < e->ntraces; t++) {
            const struct tn_exp_row *r = row_of(e, t, proto, k);
            if (!r)
                continue;
            tn_plot_point(p, sl, x[t], r->goodput_bps);
            tn_plot_point(p, sp, x[t], r->goodput_bps);
        }
    }
    (void)fc;
    free(x);
    tn_plot_finish(p);
    return p;
}

struct tn_plot *tn_fig_exp_ratio(const struct tn_experiment *e, const struct tn_fig_cfg *fc)
{
    size_t two = 0;
    for (size_t t = 0; t < e->ntraces; t++)
        two += row_at(e, t, 1) && !row_at(e, t, 2);
    if (!two)
        return NULL;
    struct tn_plot *p = tn_plot_new(0, 0);
    double *x = trace_x(e, p->x.label, sizeof p->x.label);
    x_range(p, x, e->ntraces);
    snprintf(p->title, sizeof p->title, "Throughput ratio of two flows");
    snprintf(p->subtitle, sizeof p->subtitle, "flow 1 / flow 2 in each trace with two flows (1 = equal share)");
    snprintf(p->y.label, sizeof p->y.label, "throughput ratio");
    double top = 1;
    for (size_t t = 0; t < e->ntraces; t++) {
        const struct tn_exp_row *a = row_at(e, t, 0), *b = row_at(e, t, 1);
        if (a && b && !row_at(e, t, 2) && b->throughput_bps > 0)
            top = fmax(top, a->throughput_bps / b->throughput_bps);
    }
    tn_plot_set_range(&p->y, 0, top * 1.1);
    struct tn_plot_series *s = tn_plot_series_new(p, TN_D_LINE, TN_C_BLUE, "flow 1 / flow 2");
    size_t sl = tn_plot_series_index(p, s);
    s = tn_plot_series_new(p, TN_D_POINTS, TN_C_BLUE, "");
    s->mark = TN_MK_DIAMOND;
    s->width = 6;
    size_t sp = tn_plot_series_index(p, s);
    for (size_t t = 0; t < e->ntraces; t++) {
        const struct tn_exp_row *a = row_at(e, t, 0), *b = row_at(e, t, 1);
        if (!a || !b || row_at(e, t, 2) || b->throughput_bps <= 0)
            continue;
        tn_plot_point(p, sl, x[t], a->throughput_bps / b->throughput_bps);
        tn_plot_point(p, sp, x[t], a->throughput_bps / b->throughput_bps);
    }
    (void)fc;
    free(x);
    tn_plot_finish(p);
    return p;
}
