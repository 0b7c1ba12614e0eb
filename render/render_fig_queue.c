/* render_fig_queue.c - multi-flow figures: router queue (two-point truth and single-point
 * estimate), sojourn times, ns-2 link queues, Jain's index per window, parallel transfers, and
 * tn_plot_write_multi, which writes them with the experiment figures (render_fig_experiment.c). */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "plot.h"
#include "render_fig_multi.h"

/* A line or point series in the k-th flow's style. */
static size_t flow_series(struct tn_plot *p, enum tn_draw draw, size_t k, const char *label)
{
    struct tn_fig_style st = tn_fig_style(k);
    struct tn_plot_series *s = tn_plot_series_new(p, draw, st.color, label);
    if (draw == TN_D_LINE) {
        s->dashed = st.dashed;
        s->dash = st.dash;
    } else {
        s->mark = TN_MK_DOT;
        s->width = 2;
    }
    return tn_plot_series_index(p, s);
}

static void span_of(const struct tn_series *s, int64_t *from, int64_t *to, double *top)
{
    for (size_t i = 0; i < s->n; i++) {
        if (s->pts[i].t_ns < *from)
            *from = s->pts[i].t_ns;
        if (s->pts[i].t_ns > *to)
            *to = s->pts[i].t_ns;
        if (s->pts[i].v > *top)
            *top = s->pts[i].v;
    }
}

/* A step function: the value holds until the next point. */
static void step_line(struct tn_plot *p, size_t si, const struct tn_series *s)
{
    for (size_t i = 0; i < s->n; i++) {
        double x = tn_fig_x(p, s->pts[i].t_ns);
        if (i)
            tn_plot_point(p, si, x, s->pts[i - 1].v);
        tn_plot_point(p, si, x, s->pts[i].v);
    }
}

/* Time 0: the trace's first packet when known (one base with the other figures). */
static struct tn_plot *begin(const struct tn_fig_cfg *fc, int64_t from, int64_t to)
{
    if (to <= from)
        to = from + 1;
    return tn_fig_begin_at(fc, fc->t0_ns && fc->t0_ns <= from ? fc->t0_ns : from, from, to);
}

struct tn_plot *tn_fig_queue(const struct tn_q2_result *q2, const struct tn_q1_result *q1, const struct tn_conn *shade,
                             const struct tn_fig_cfg *fc)
{
    int64_t from = INT64_MAX, to = INT64_MIN;
    double top = 0;
    if (q2)
        span_of(&q2->queue_pkts, &from, &to, &top);
    if (q1)
        span_of(&q1->queue_pkts, &from, &to, &top);
    if (from > to)
        return NULL;
    struct tn_plot *p = begin(fc, from, to);
    snprintf(p->title, sizeof p->title, "Router queue");
    snprintf(p->subtitle, sizeof p->subtitle, "%s%s", q2 ? "two capture points: packets between ingress and egress" : "",
             q1 ? (q2 ? "; estimate from RTT - min RTT at one point" : "estimate from RTT - min RTT at one point") : "");
    snprintf(p->y.label, sizeof p->y.label, "queue length (packets)");
    tn_plot_set_range(&p->y, 0, top > 0 ? top * 1.08 : 1);
    if (shade)   /* the queue through the sender's slow start and recoveries */
        tn_fig_episodes(p, shade, shade->d[TN_B2A].data_bytes > shade->d[TN_A2B].data_bytes ? TN_B2A : TN_A2B, from,
                        to);
    if (q1) {
        struct tn_plot_series *s = tn_plot_series_new(p, TN_D_POINTS, TN_C_ORANGE, "single-point estimate");
        s->mark = TN_MK_DOT;
        s->width = 2;
        size_t si = tn_plot_series_index(p, s);
        for (size_t i = 0; i < q1->queue_pkts.n; i++)
            tn_plot_point(p, si, tn_fig_x(p, q1->queue_pkts.pts[i].t_ns), q1->queue_pkts.pts[i].v);
    }
    if (q2) {
        struct tn_plot_series *s = tn_plot_series_new(p, TN_D_LINE, TN_C_BLUE, "two-point (matched packets)");
        step_line(p, tn_plot_series_index(p, s), &q2->queue_pkts);
    }
    tn_plot_finish(p);
    return p;
}

struct tn_plot *tn_fig_sojourn(const struct tn_q2_result *q2, const struct tn_fig_cfg *fc)
{
    int64_t from = INT64_MAX, to = INT64_MIN;
    double top = 0;
    for (size_t i = 0; i < q2->nflows; i++)
        span_of(&q2->flows[i].sojourn, &from, &to, &top);
    if (from > to)
        return NULL;
    struct tn_plot *p = begin(fc, from, to);
    snprintf(p->title, sizeof p->title, "Sojourn time at the router");
    snprintf(p->subtitle, sizeof p->subtitle, "per packet, ingress to egress; %" PRIu64 " drops",
             q2->drops);
    snprintf(p->y.label, sizeof p->y.label, "sojourn");
    p->y.unit = TN_U_MS;
    tn_plot_set_range(&p->y, 0, top > 0 ? top * 1.08 : 1);
    for (size_t i = 0; i < q2->nflows; i++) {
        const struct tn_qflow *f = &q2->flows[i];
        if (!f->sojourn.n)
            continue;
        char label[64];
        snprintf(label, sizeof label, f->conn ? "conn %u" : "flow %u", f->conn ? f->conn : (unsigned)(i + 1));
        size_t si = flow_series(p, TN_D_POINTS, i, label);
        for (size_t j = 0; j < f->sojourn.n; j++)
            tn_plot_point(p, si, tn_fig_x(p, f->sojourn.pts[j].t_ns), f->sojourn.pts[j].v);
    }
    tn_plot_finish(p);
    return p;
}

struct tn_plot *tn_fig_linkq(const struct tn_linkq_link *k, const struct tn_fig_cfg *fc)
{
    int64_t from = INT64_MAX, to = INT64_MIN;
    double top = 0;
    span_of(&k->queue_pkts, &from, &to, &top);
    if (from > to)
        return NULL;
    struct tn_plot *p = begin(fc, from, to);
    snprintf(p->title, sizeof p->title, "Queue of link %d \xe2\x86\x92 %d", k->from, k->to);
    snprintf(p->subtitle, sizeof p->subtitle, "ns-2 enqueue/dequeue/drop events: %" PRIu64 " enqueued, %" PRIu64
             " dropped", k->enq, k->drops);
    snprintf(p->y.label, sizeof p->y.label, "queue length (packets)");
    tn_plot_set_range(&p->y, 0, top > 0 ? top * 1.08 : 1);
    struct tn_plot_series *s = tn_plot_series_new(p, TN_D_LINE, TN_C_BLUE, "packets in the queue");
    step_line(p, tn_plot_series_index(p, s), &k->queue_pkts);
    tn_plot_finish(p);
    return p;
}

struct tn_plot *tn_fig_jain(const struct tn_fairness *f, const struct tn_analyzer *an, const struct tn_fig_cfg *fc)
{
    if (!f->jain_series.n || !f->flow_tput)
        return NULL;
    int64_t from = INT64_MAX, to = INT64_MIN;
    double top = 0, dummy = 0;
    for (size_t k = 0; k < f->nflows; k++)
        span_of(&f->flow_tput[k], &from, &to, &top);
    span_of(&f->jain_series, &from, &to, &dummy);
    struct tn_plot *p = begin(fc, from, to);
    snprintf(p->title, sizeof p->title, "Fairness by %s", tn_fair_by_name(f->by));
    snprintf(p->subtitle, sizeof p->subtitle, "%zu flows; Jain's index %.4f over the trace; %.0f ms windows",
             f->nflows, f->jain, (double)f->window_ns / 1e6);
    snprintf(p->y.label, sizeof p->y.label, "throughput");
    p->y.unit = TN_U_BPS;
    tn_plot_set_range(&p->y, 0, top > 0 ? top * 1.08 : 1);
    p->has_y2 = true;
    snprintf(p->y2.label, sizeof p->y2.label, "Jain's fairness index");
    tn_plot_set_range(&p->y2, 0, 1.05);
    for (size_t k = 0; k < f->nflows; k++) {
        char label[128];
        if (f->flows[k].conn && an)   /* by conn: the flow's identity, protocol or host */
            tn_fig_conn_flow_label(fc, tn_analyzer_conn_by_number(an, f->flows[k].conn), label, sizeof label);
        else
            snprintf(label, sizeof label, "%s", f->flows[k].name);
        size_t si = flow_series(p, TN_D_LINE, k, label);
        for (size_t j = 0; j < f->flow_tput[k].n; j++)
            tn_plot_point(p, si, tn_fig_x(p, f->flow_tput[k].pts[j].t_ns), f->flow_tput[k].pts[j].v);
    }
    struct tn_plot_series *s = tn_plot_series_new(p, TN_D_LINE, TN_C_BLACK, "Jain's index");
    s->right = true;
    s->width = 1.6;
    size_t si = tn_plot_series_index(p, s);
    for (size_t j = 0; j < f->jain_series.n; j++)
        tn_plot_point(p, si, tn_fig_x(p, f->jain_series.pts[j].t_ns), f->jain_series.pts[j].v);
    tn_plot_finish(p);
    return p;
}

struct tn_plot *tn_fig_parallel(const struct tn_parallel *g, const struct tn_analyzer *an, const struct tn_fig_cfg *fc)
{
    if (!g->aggregate.n)
        return NULL;
    int64_t from = INT64_MAX, to = INT64_MIN;
    double top = 0;
    span_of(&g->aggregate, &from, &to, &top);
    struct tn_plot *p = begin(fc, from, to);
    snprintf(p->title, sizeof p->title, "Parallel transfer %s", g->name);
    snprintf(p->subtitle, sizeof p->subtitle, "%zu subflows: aggregate throughput and each subflow's share", g->n);
    snprintf(p->y.label, sizeof p->y.label, "aggregate throughput");
    p->y.unit = TN_U_BPS;
    tn_plot_set_range(&p->y, 0, top > 0 ? top * 1.08 : 1);
    p->has_y2 = true;
    snprintf(p->y2.label, sizeof p->y2.label, "share of the transfer");
    tn_plot_set_range(&p->y2, 0, 1.05);
    struct tn_plot_series *s = tn_plot_series_new(p, TN_D_LINE, TN_C_BLACK, "aggregate");
    s->width = 1.6;
    size_t si = tn_plot_series_index(p, s);
    for (size_t j = 0; j < g->aggregate.n; j++)
        tn_plot_point(p, si, tn_fig_x(p, g->aggregate.pts[j].t_ns), g->aggregate.pts[j].v);
    for (size_t k = 0; k < g->n; k++) {
        char label[96];
        if (an && fc->legend_by == TN_LEGBY_HOST) {
            char who[80];
            tn_fig_conn_flow_label(fc, tn_analyzer_conn_by_number(an, g->conns[k]), who, sizeof who);
            snprintf(label, sizeof label, "%s share", who);
        } else {   /* subflows share their identity: the connection number tells them apart */
            snprintf(label, sizeof label, "conn %u share", g->conns[k]);
        }
        si = flow_series(p, TN_D_LINE, k, label);
        p->s[si].right = true;
        for (size_t j = 0; j < g->sub[k].n; j++) {
            if (j < g->aggregate.n && g->aggregate.pts[j].v <= 0) {
                tn_plot_break(p, si);   /* nothing sent in the window: no share to show */
                continue;
            }
            tn_plot_point(p, si, tn_fig_x(p, g->sub[k].pts[j].t_ns), g->sub[k].pts[j].v);
        }
    }
    tn_plot_finish(p);
    return p;
}

/* The one significant TCP sender through the router, whose episodes shade the queue figure (with
 * several, the shading would mix them: none). */
static const struct tn_conn *queue_sender(const struct tn_multi *m)
{
    if (!m->an || !m->q2)
        return NULL;
    struct tn_signif sig;
    tn_signif_init(&sig, m->an, NULL, 0, false);
    const struct tn_conn *one = NULL;
    for (size_t i = 0; i < m->q2->nflows; i++) {
        unsigned k = m->q2->flows[i].conn;
        const struct tn_conn *c = k ? tn_analyzer_conn(m->an, k - 1) : NULL;
        if (!c || c->proto != TN_PK_TCP || !tn_signif_keep(&sig, c) || c == one)
            continue;
        if (one)
            return NULL;
        one = c;
    }
    return one;
}

int tn_plot_write_multi(const char *dir, const struct tn_multi *m, const struct tn_plot_opts *po,
                        struct tn_err *err)
{
    struct tn_fig_writer w;
    int r = tn_fig_writer_open(&w, dir, po, err);
    if (r)
        return r;
    const struct tn_fig_cfg *fc = &w.fc;
    if (m->q2 || (m->q1 && m->q1->n))
        tn_fig_writer_emit(&w, tn_fig_queue(m->q2, m->q1 && m->q1->n ? m->q1 : NULL, queue_sender(m), fc), "queue");
    if (m->q2)
        tn_fig_writer_emit(&w, tn_fig_sojourn(m->q2, fc), "sojourn");
    if (m->linkq) {
        for (size_t i = 0; i < tn_linkq_count(m->linkq); i++) {
            const struct tn_linkq_link *k = tn_linkq_link(m->linkq, i);
            if (k->max_pkts < 2 && !k->drops)
                continue;   /* links that never queued: nothing to see */
            char stem[64];
            snprintf(stem, sizeof stem, "linkq-%d-%d", k->from, k->to);
            tn_fig_writer_emit(&w, tn_fig_linkq(k, fc), stem);
        }
    }
    if (m->fair && m->fair->nflows >= 2) {   /* one flow: nothing to be fair between */
        char stem[64];
        snprintf(stem, sizeof stem, "jain-%s", tn_fair_by_name(m->fair->by));
        tn_fig_writer_emit(&w, tn_fig_jain(m->fair, m->an, fc), stem);
    }
    for (size_t i = 0; m->par && i < m->npar; i++) {
        char stem[64];
        snprintf(stem, sizeof stem, "parallel-%zu", i + 1);
        tn_fig_writer_emit(&w, tn_fig_parallel(&m->par[i], m->an, fc), stem);
    }
    for (size_t i = 0; m->exp && i < tn_fig_exp_count(); i++) {
        const char *stem;
        struct tn_plot *p = tn_fig_exp(m->exp, i, &stem, fc);
        tn_fig_writer_emit(&w, p, stem);
    }
    return tn_fig_writer_close(&w);
}
