/* render_fig_experiment.c - experiment figures: a value of each flow (goodput, throughput,
 * retransmissions, RTT), Jain's index and the throughput ratio of two flows against the labelled
 * parameter of the traces ("owd=25ms" -> 25).
 *
 * A flow is the same in every trace by its identity (tn_exp_row.flow: --flow NAME or
 * CLIENT>SERVER:PORT), never by its start order.  Traces with the same label are runs of one
 * parameter point: the point is their mean and an error bar spans their smallest to largest value.
 * A label "GROUP:PARAM=VALUE" also names a line (e.g. the flavour of a high-speed TCP study,
 * "htcp:rtt_ratio=1.83"): each group gets its own line in the trace-level figures (Jain's index,
 * throughput ratio, utilisation) and its own flows in the per-flow ones.
 */
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

/* The group of a label: "GROUP:" before the first '='; none (length 0, no colon) otherwise. */
static bool has_group(const char *label)
{
    const char *colon = strchr(label, ':'), *eq = strchr(label, '=');
    return colon && (!eq || colon < eq);
}

static size_t group_len(const char *label)
{
    return has_group(label) ? (size_t)(strchr(label, ':') - label) : 0;
}

static const char *point_of(const char *label)
{
    return has_group(label) ? strchr(label, ':') + 1 : label;
}

/* Parameter points (distinct labels without their group, in order of first appearance), groups
 * (distinct label groups) and flows (distinct names within a group). */
struct exp_index {
    const char **points;
    double *x;
    size_t npoints;
    const char **groups;       /* labels; their first group_len() characters name the group */
    size_t ngroups;
    bool named;                /* some label has a group */
    const char **flows;
    size_t *fgroup;            /* each flow's group */
    const struct tn_exp_row **first;   /* each flow's first row (its protocol, flavour, host) */
    size_t nflows;
    char axis[96];
};

static size_t find(const char *const *v, size_t n, const char *s)
{
    size_t i = 0;
    while (i < n && strcmp(v[i], s) != 0)
        i++;
    return i;
}

static size_t find_point(const struct exp_index *ix, const char *label)
{
    return find(ix->points, ix->npoints, point_of(label));
}

static size_t find_group(const struct exp_index *ix, const char *label)
{
    size_t n = group_len(label), g = 0;
    while (g < ix->ngroups && !(group_len(ix->groups[g]) == n && !strncmp(ix->groups[g], label, n)))
        g++;
    return g;
}

static size_t find_flow(const struct exp_index *ix, size_t g, const char *flow)
{
    size_t k = 0;
    while (k < ix->nflows && !(ix->fgroup[k] == g && !strcmp(ix->flows[k], flow)))
        k++;
    return k;
}

/* A line's name: its group ("htcp"), else def. */
static void group_name(const struct exp_index *ix, size_t g, const char *def, char *buf, size_t len)
{
    if (ix->named)
        snprintf(buf, len, "%.*s", (int)group_len(ix->groups[g]), ix->groups[g]);
    else
        snprintf(buf, len, "%s", def);
}

static void index_build(const struct tn_experiment *e, struct exp_index *ix)
{
    memset(ix, 0, sizeof *ix);
    ix->points = tn_xcalloc(e->ntraces + 1, sizeof *ix->points);
    ix->x = tn_xcalloc(e->ntraces + 1, sizeof *ix->x);
    ix->groups = tn_xcalloc(e->ntraces + 1, sizeof *ix->groups);
    ix->flows = tn_xcalloc(e->nrows + 1, sizeof *ix->flows);
    ix->fgroup = tn_xcalloc(e->nrows + 1, sizeof *ix->fgroup);
    ix->first = tn_xcalloc(e->nrows + 1, sizeof *ix->first);
    for (size_t t = 0; t < e->ntraces; t++) {
        if (find_point(ix, e->labels[t]) == ix->npoints)
            ix->points[ix->npoints++] = point_of(e->labels[t]);
        if (find_group(ix, e->labels[t]) == ix->ngroups)
            ix->groups[ix->ngroups++] = e->labels[t];
        ix->named |= has_group(e->labels[t]);
    }
    for (size_t i = 0; i < e->nrows; i++) {
        size_t g = find_group(ix, e->rows[i].label);
        if (find_flow(ix, g, e->rows[i].flow) == ix->nflows) {
            ix->first[ix->nflows] = &e->rows[i];
            ix->fgroup[ix->nflows] = g;
            ix->flows[ix->nflows++] = e->rows[i].flow;
        }
    }
    /* x: the labels' numbers when every label has one, else the position (1-based) */
    bool numeric = ix->npoints > 0;
    for (size_t p = 0; p < ix->npoints; p++) {
        ix->x[p] = tn_fig_label_value(ix->points[p]);
        numeric &= !isnan(ix->x[p]);
    }
    const char *eq = numeric ? strchr(ix->points[0], '=') : NULL;
    if (eq) {
        char *end;
        strtod(eq + 1, &end);
        snprintf(ix->axis, sizeof ix->axis, "%.*s%s%s%s", (int)(eq - ix->points[0]), ix->points[0],
                 *end ? " (" : "", end, *end ? ")" : "");
    } else if (numeric) {
        snprintf(ix->axis, sizeof ix->axis, "parameter");
    } else {
        for (size_t p = 0; p < ix->npoints; p++)
            ix->x[p] = (double)(p + 1);
        snprintf(ix->axis, sizeof ix->axis, "trace (label order)");
    }
}

static void index_free(struct exp_index *ix)
{
    free(ix->points);
    free(ix->x);
    free(ix->groups);
    free(ix->flows);
    free(ix->fgroup);
    free(ix->first);
}

/* Runs of one point: mean, smallest and largest; false when none. */
struct agg {
    double sum, lo, hi;
    size_t n;
};

static void agg_add(struct agg *a, double v)
{
    if (a->n == 0 || v < a->lo)
        a->lo = v;
    if (a->n == 0 || v > a->hi)
        a->hi = v;
    a->sum += v;
    a->n++;
}

typedef double (*row_value)(const struct tn_exp_row *r);   /* NAN: no value */

static double v_goodput(const struct tn_exp_row *r) { return r->goodput_bps; }
static double v_tput(const struct tn_exp_row *r) { return r->throughput_bps; }
static double v_rexmit(const struct tn_exp_row *r) { return (double)r->rexmit_pkts; }
static double v_rtt(const struct tn_exp_row *r) { return r->rtt_ms_avg >= 0 ? r->rtt_ms_avg : NAN; }

static const struct exp_metric {
    const char *stem, *title, *axis;
    enum tn_unit unit;
    row_value value;
} metrics[] = {
    {"experiment-goodput", "Goodput per flow", "goodput", TN_U_BPS, v_goodput},
    {"experiment-throughput", "Throughput per flow", "throughput", TN_U_BPS, v_tput},
    {"experiment-rexmit", "Retransmissions per flow", "retransmitted packets", TN_U_NONE, v_rexmit},
    {"experiment-rtt", "Average RTT per flow", "RTT", TN_U_MS, v_rtt},
};

static void x_range(struct tn_plot *p, const struct exp_index *ix)
{
    double lo = 0, hi = 1;
    for (size_t t = 0; t < ix->npoints; t++) {
        if (t == 0 || ix->x[t] < lo)
            lo = ix->x[t];
        if (t == 0 || ix->x[t] > hi)
            hi = ix->x[t];
    }
    double pad = (hi - lo) * 0.05 + (hi == lo ? 1 : 0);
    tn_plot_set_range(&p->x, lo - pad, hi + pad);
}

static struct tn_plot *begin(const struct exp_index *ix, const struct tn_fig_cfg *fc)
{
    struct tn_plot *p = tn_plot_new(0, 0);
    snprintf(p->x.label, sizeof p->x.label, "%s", ix->axis);
    x_range(p, ix);
    (void)fc;
    return p;
}

/* One flow's line, markers and error bars; aggregate values of each point go to a[]. */
static void draw_flow(struct tn_plot *p, size_t k, const char *label, bool dfcp, const struct agg *a,
                      const struct exp_index *ix)
{
    struct tn_fig_style st = tn_fig_style(k);
    struct tn_plot_series *s = tn_plot_series_new(p, TN_D_LINE, st.color, label);
    s->dashed = st.dashed;
    s->dash = st.dash;
    size_t sl = tn_plot_series_index(p, s);
    s = tn_plot_series_new(p, TN_D_POINTS, st.color, "");
    s->mark = dfcp ? TN_MK_BOX : st.mark;
    s->width = 6;
    size_t sp = tn_plot_series_index(p, s);
    s = tn_plot_series_new(p, TN_D_TICKS, st.color, "");
    s->width = 1.2;
    size_t se = tn_plot_series_index(p, s);
    for (size_t t = 0; t < ix->npoints; t++) {
        if (!a[t].n)
            continue;
        double m = a[t].sum / (double)a[t].n;
        tn_plot_point(p, sl, ix->x[t], m);
        tn_plot_point(p, sp, ix->x[t], m);
        if (a[t].n > 1)
            tn_plot_tick(p, se, ix->x[t], a[t].lo, a[t].hi);
    }
}

/* Has some point of some line several runs (traces of one label)? */
static bool repeated(const struct tn_experiment *e)
{
    for (size_t t = 0; t < e->ntraces; t++)
        for (size_t u = t + 1; u < e->ntraces; u++)
            if (!strcmp(e->labels[t], e->labels[u]))
                return true;
    return false;
}

static struct tn_plot *metric_fig(const struct tn_experiment *e, const struct exp_metric *m,
                                  const struct tn_fig_cfg *fc)
{
    struct exp_index ix;
    index_build(e, &ix);
    struct agg *a = tn_xcalloc(ix.npoints * (ix.nflows ? ix.nflows : 1) + 1, sizeof *a);
    double top = 0;
    bool any = false;
    for (size_t i = 0; i < e->nrows; i++) {
        const struct tn_exp_row *r = &e->rows[i];
        double v = m->value(r);
        if (isnan(v))
            continue;
        size_t t = find_point(&ix, r->label), k = find_flow(&ix, find_group(&ix, r->label), r->flow);
        agg_add(&a[k * ix.npoints + t], v);
        top = fmax(top, v);
        any = true;
    }
    struct tn_plot *p = NULL;
    if (any) {
        p = begin(&ix, fc);
        snprintf(p->title, sizeof p->title, "%s", m->title);
        snprintf(p->subtitle, sizeof p->subtitle, "%zu traces, %zu flows by identity%s", e->ntraces, ix.nflows,
                 repeated(e) ? "; mean of the runs, bars from the smallest to the largest" : "");
        snprintf(p->y.label, sizeof p->y.label, "%s", m->axis);
        p->y.unit = m->unit;
        tn_plot_set_range(&p->y, 0, top > 0 ? top * 1.08 : 1);
        for (size_t k = 0; k < ix.nflows; k++) {
            char flow[96], group[64], label[168];
            tn_fig_flow_label(fc, ix.first[k], flow, sizeof flow);
            group_name(&ix, ix.fgroup[k], "", group, sizeof group);
            snprintf(label, sizeof label, "%s%s%s", group, group[0] ? ": " : "", flow);
            draw_flow(p, k, label, ix.first[k]->proto == TN_PK_DFCP, &a[k * ix.npoints], &ix);
        }
        tn_plot_finish(p);
    }
    free(a);
    index_free(&ix);
    return p;
}

/* Jain's index of each trace against the parameter. */
static struct tn_plot *jain_fig(const struct tn_experiment *e, const struct tn_fig_cfg *fc)
{
    struct exp_index ix;
    index_build(e, &ix);
    struct agg *a = tn_xcalloc(ix.ngroups * ix.npoints + 1, sizeof *a);
    size_t multi = 0;
    for (size_t t = 0; t < e->ntraces; t++) {
        size_t n = 0;
        for (size_t i = 0; i < e->nrows; i++)
            n += e->rows[i].trace == t + 1;
        if (n < 2)
            continue;   /* one flow: nothing to be fair between */
        agg_add(&a[find_group(&ix, e->labels[t]) * ix.npoints + find_point(&ix, e->labels[t])], e->jain[t]);
        multi++;
    }
    struct tn_plot *p = NULL;
    if (multi) {
        p = begin(&ix, fc);
        snprintf(p->title, sizeof p->title, "Jain's fairness index");
        snprintf(p->subtitle, sizeof p->subtitle, "over the significant flows of each trace%s",
                 repeated(e) ? "; mean of the runs, bars from the smallest to the largest" : "");
        snprintf(p->y.label, sizeof p->y.label, "Jain's index");
        tn_plot_set_range(&p->y, 0, 1.05);
        for (size_t g = 0; g < ix.ngroups; g++) {
            char name[64];
            group_name(&ix, g, "Jain's index", name, sizeof name);
            draw_flow(p, g, name, false, &a[g * ix.npoints], &ix);
        }
        tn_plot_finish(p);
    }
    free(a);
    index_free(&ix);
    return p;
}

/* The first and second flow of group g (in order of first appearance); false without two. */
static bool group_pair(const struct exp_index *ix, size_t g, size_t *f1, size_t *f2)
{
    size_t n = 0;
    for (size_t k = 0; k < ix->nflows && n < 2; k++)
        if (ix->fgroup[k] == g)
            *(n++ ? f2 : f1) = k;
    return n == 2;
}

/* Throughput of the first flow over the second (flows in order of first appearance), in every
 * trace that has both; one line per group. */
static struct tn_plot *ratio_fig(const struct tn_experiment *e, const struct tn_fig_cfg *fc)
{
    struct exp_index ix;
    index_build(e, &ix);
    struct agg *a = tn_xcalloc(ix.ngroups * ix.npoints + 1, sizeof *a);
    double top = 1;
    bool any = false;
    for (size_t t = 0; t < e->ntraces; t++) {
        size_t g = find_group(&ix, e->labels[t]), f1 = 0, f2 = 0;
        if (!group_pair(&ix, g, &f1, &f2))
            continue;
        double x1 = -1, x2 = -1;
        for (size_t i = 0; i < e->nrows; i++) {
            const struct tn_exp_row *r = &e->rows[i];
            if (r->trace != t + 1)
                continue;
            if (!strcmp(r->flow, ix.flows[f1]))
                x1 = r->throughput_bps;
            else if (!strcmp(r->flow, ix.flows[f2]))
                x2 = r->throughput_bps;
        }
        if (x1 < 0 || x2 <= 0)
            continue;
        agg_add(&a[g * ix.npoints + find_point(&ix, e->labels[t])], x1 / x2);
        top = fmax(top, x1 / x2);
        any = true;
    }
    struct tn_plot *p = NULL;
    if (any) {
        p = begin(&ix, fc);
        snprintf(p->title, sizeof p->title, "Throughput ratio of two flows");
        snprintf(p->y.label, sizeof p->y.label, "throughput ratio");
        tn_plot_set_range(&p->y, 0, top * 1.1);
        for (size_t g = 0; g < ix.ngroups; g++) {
            size_t f1 = 0, f2 = 0;
            if (!group_pair(&ix, g, &f1, &f2))
                continue;
            char l1[96], l2[96], label[260];
            tn_fig_flow_label(fc, ix.first[f1], l1, sizeof l1);
            tn_fig_flow_label(fc, ix.first[f2], l2, sizeof l2);
            snprintf(p->subtitle, sizeof p->subtitle, "%s / %s (1 = equal share)", l1, l2);
            if (ix.named)
                group_name(&ix, g, "", label, sizeof label);
            else
                snprintf(label, sizeof label, "%s / %s", l1, l2);
            draw_flow(p, g, label, false, &a[g * ix.npoints], &ix);
        }
        tn_plot_finish(p);
    }
    free(a);
    index_free(&ix);
    return p;
}

/* The link's utilisation in each trace (tn_experiment.util: the significant flows' goodput bytes
 * over the trace's span times the link rate), when a link rate was given; one line per group. */
static struct tn_plot *util_fig(const struct tn_experiment *e, const struct tn_fig_cfg *fc)
{
    if (!(e->link_rate_bps > 0) || !e->nrows)
        return NULL;
    struct exp_index ix;
    index_build(e, &ix);
    struct agg *a = tn_xcalloc(ix.ngroups * ix.npoints + 1, sizeof *a);
    double top = 1;
    for (size_t t = 0; t < e->ntraces; t++)
        if (!isnan(e->util[t])) {
            agg_add(&a[find_group(&ix, e->labels[t]) * ix.npoints + find_point(&ix, e->labels[t])], e->util[t]);
            top = fmax(top, e->util[t]);
        }
    struct tn_plot *p = begin(&ix, fc);
    snprintf(p->title, sizeof p->title, "Link utilisation");
    snprintf(p->subtitle, sizeof p->subtitle, "the flows' goodput over a %.4g Mbit/s link%s", e->link_rate_bps / 1e6,
             repeated(e) ? "; mean of the runs, bars from the smallest to the largest" : "");
    snprintf(p->y.label, sizeof p->y.label, "utilisation");
    tn_plot_set_range(&p->y, 0, top * 1.05);
    for (size_t g = 0; g < ix.ngroups; g++) {
        char name[64];
        group_name(&ix, g, "utilisation", name, sizeof name);
        draw_flow(p, g, name, false, &a[g * ix.npoints], &ix);
    }
    tn_plot_finish(p);
    free(a);
    index_free(&ix);
    return p;
}

size_t tn_fig_exp_count(void)
{
    return TN_ARRAY_LEN(metrics) + 3;
}

struct tn_plot *tn_fig_exp(const struct tn_experiment *e, size_t i, const char **stem, const struct tn_fig_cfg *fc)
{
    if (i < TN_ARRAY_LEN(metrics)) {
        *stem = metrics[i].stem;
        return e->nrows ? metric_fig(e, &metrics[i], fc) : NULL;
    }
    if (i == TN_ARRAY_LEN(metrics)) {
        *stem = "experiment-jain";
        return jain_fig(e, fc);
    }
    if (i == TN_ARRAY_LEN(metrics) + 1) {
        *stem = "experiment-utilisation";
        return util_fig(e, fc);
    }
    *stem = "experiment-ratio";
    return ratio_fig(e, fc);
}
