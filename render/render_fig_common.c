/* render_fig_common.c - helpers shared by the figure builders: windows, labels, Jain's index. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot.h"

const char *tn_fig_dir_name(enum tn_dir d)
{
    return d == TN_A2B ? "a2b" : "b2a";
}

bool tn_fig_dir_has_data(const struct tn_conn *c, enum tn_dir d)
{
    return c->d[d].data_pkts > 0;
}

bool tn_fig_window(const struct tn_conn *c, const struct tn_view *v, int64_t *from, int64_t *to)
{
    int64_t f = tn_time_ns(c->first);
    int64_t t = tn_time_ns(c->last);
    int64_t shift = v ? tn_view_shift(v, c) : 0;
    if (v && v->from_ns && v->from_ns + shift > f)
        f = v->from_ns + shift;
    if (v && v->to_ns && v->to_ns + shift < t)
        t = v->to_ns + shift;
    *from = f;
    *to = t;
    return t >= f;
}


void tn_fig_conn_label(const struct tn_conn *c, int d, char *buf, size_t size)
{
    char a[80], b[80];
    tn_endpoint_str(&c->a, c->a_port, a, sizeof a);
    tn_endpoint_str(&c->b, c->b_port, b, sizeof b);
    const char *proto = c->proto == TN_PK_DFCP ? "DFCP " : "";
    if (d == TN_B2A)
        snprintf(buf, size, "%sconn %u: %s \xe2\x86\x92 %s (b2a)", proto, c->idx, b, a);
    else if (d == TN_A2B)
        snprintf(buf, size, "%sconn %u: %s \xe2\x86\x92 %s (a2b)", proto, c->idx, a, b);
    else
        snprintf(buf, size, "%sconn %u: %s \xe2\x86\x94 %s", proto, c->idx, a, b);
}

struct tn_plot *tn_fig_begin_at(const struct tn_fig_cfg *fc, int64_t origin, int64_t from, int64_t to)
{
    struct tn_plot *p = tn_plot_new(fc->ncols, fc->nrows);
    p->x0_ns = origin;
    snprintf(p->x.label, sizeof p->x.label, "time");
    p->x.unit = TN_U_TIME_S;
    tn_plot_set_range(&p->x, (double)(from - origin) * 1e-9, (double)(to - origin) * 1e-9);
    return p;
}

struct tn_plot *tn_fig_begin(const struct tn_fig_cfg *fc, int64_t from, int64_t to)
{
    return tn_fig_begin_at(fc, from, from, to);
}

int64_t tn_fig_origin(const struct tn_conn *c, const struct tn_fig_cfg *fc)
{
    if (fc && fc->view)
        return tn_view_origin(fc->view, c);
    return fc && fc->t0_ns ? fc->t0_ns : tn_time_ns(c->first);
}

double tn_fig_x(const struct tn_plot *p, int64_t t_ns)
{
    return (double)(t_ns - p->x0_ns) * 1e-9;
}

double tn_fig_series_max(const struct tn_series *s, int64_t from, int64_t to)
{
    double m = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->pts[i].t_ns >= from && s->pts[i].t_ns <= to && s->pts[i].v > m)
            m = s->pts[i].v;
    return m;
}

double tn_fig_jain_index(const double *x, size_t n)
{
    double sum = 0, sq = 0;
    for (size_t i = 0; i < n; i++) {
        sum += x[i];
        sq += x[i] * x[i];
    }
    if (n <= 1 || sq <= 0)
        return 1;
    return sum * sum / ((double)n * sq);
}

uint32_t tn_fig_mss(const struct tn_conn *c, enum tn_dir d)
{
    const struct tn_dir_stats *me = &c->d[d], *peer = &c->d[!d];
    /* a sender's segments are bounded by the MSS its peer announced (and its own); the kernel
     * counts cwnd in segments of that less the options on every segment: the timestamp option
     * (12 bytes) when both SYNs carried it */
    uint32_t m = 0;
    if (peer->mss_seen && peer->mss > 0)
        m = peer->mss;
    if (me->mss_seen && me->mss > 0 && (m == 0 || me->mss < m))
        m = me->mss;
    if (m == 0)
        return me->seg_max ? me->seg_max : 1448;
    return me->ts_seen && peer->ts_seen && m > 12 ? m - 12 : m;
}

static void span(struct tn_plot *p, size_t si, int64_t a, int64_t b, int64_t from, int64_t to)
{
    if (a < from)
        a = from;
    if (b > to)
        b = to;
    if (b > a)
        tn_plot_span(p, si, tn_fig_x(p, a), tn_fig_x(p, b));
}

/* Episode events name the direction of the packet that shows them: a start is shown by the
 * sender's own packet (dir == d); an end by the ACK that covers the recovery point (dir != d), or,
 * when a timeout interrupts a fast recovery, by the sender (dir == d) right before the new start,
 * which closes the episode anyway. */
void tn_fig_episodes(struct tn_plot *p, const struct tn_conn *c, enum tn_dir d, int64_t from, int64_t to)
{
    struct tn_plot_series *s;
    s = tn_plot_series_new(p, TN_D_SPANS, TN_C_SKY, "slow start");
    s->alpha = 0.18;
    size_t ss = tn_plot_series_index(p, s);
    s = tn_plot_series_new(p, TN_D_SPANS, TN_C_YELLOW, "fast recovery");
    s->alpha = 0.35;
    size_t fr = tn_plot_series_index(p, s);
    s = tn_plot_series_new(p, TN_D_SPANS, TN_C_PURPLE, "RTO recovery");
    s->alpha = 0.2;
    size_t rto = tn_plot_series_index(p, s);

    /* initial slow start: first data packet of the sender to the slowstart_end event */
    int64_t first = -1, last = -1;
    for (size_t i = 0; i < c->npkts; i++)
        if (c->pkts[i].dir == d && c->pkts[i].len > 0) {
            if (first < 0)
                first = c->pkts[i].t_ns;
            last = c->pkts[i].t_ns;
        }
    if (first >= 0) {
        int64_t end = last;
        for (size_t i = 0; i < c->nevents; i++)
            if (c->events[i].kind == TN_EV_SLOWSTART_END && c->events[i].dir == d) {
                end = c->events[i].t_ns;
                break;
            }
        if (c->inf[d].slowstart_ended && c->inf[d].slowstart_end_ns > 0 && c->inf[d].slowstart_end_ns < end)
            end = c->inf[d].slowstart_end_ns;
        span(p, ss, first, end, from, to);
    }

    int64_t open_t = 0;
    size_t open_s = 0;
    bool open = false;
    for (size_t i = 0; i < c->nevents; i++) {
        const struct tn_event *e = &c->events[i];
        bool start = (e->kind == TN_EV_RECOVERY_START || e->kind == TN_EV_RTO_START) && e->dir == d;
        bool end = (e->kind == TN_EV_RECOVERY_END || e->kind == TN_EV_RTO_END) && e->dir != d;
        if ((start || end) && open) {
            span(p, open_s, open_t, e->t_ns, from, to);
            open = false;
        }
        if (start) {
            open = true;
            open_t = e->t_ns;
            open_s = e->kind == TN_EV_RTO_START ? rto : fr;
        }
    }
    if (open)
        span(p, open_s, open_t, to, from, to);
}

struct tn_fig_style tn_fig_style(size_t k)
{
    /* Okabe & Ito, "Color Universal Design" (2008), without yellow (too light for a line on
     * white) and vermillion (retransmissions); a dash and a marker each for grey-scale print */
    static const struct tn_fig_style styles[] = {
        {TN_C_BLUE, false, 0, TN_MK_DIAMOND}, {TN_C_ORANGE, true, 0, TN_MK_BOX},
        {TN_C_GREEN, true, 1, TN_MK_UTRI},    {TN_C_PURPLE, true, 2, TN_MK_CIRCLE},
        {TN_C_BLACK, true, 3, TN_MK_X},       {TN_C_SKY, false, 0, TN_MK_DTRI},
        {TN_C_GREY, true, 2, TN_MK_PLUS},
    };
    return styles[k % TN_ARRAY_LEN(styles)];
}

static void proto_label(enum tn_pkt_kind proto, enum tn_cc_flavor cc, char *buf, size_t size)
{
    if (proto == TN_PK_DFCP)
        snprintf(buf, size, "DFCP");
    else if (cc != TN_CC_UNKNOWN)
        snprintf(buf, size, "TCP %s", tn_cc_flavor_name(cc));
    else
        snprintf(buf, size, "TCP");
}

void tn_fig_flow_label(const struct tn_fig_cfg *fc, const struct tn_exp_row *r, char *buf, size_t size)
{
    switch (fc ? fc->legend_by : TN_LEGBY_LABEL) {
    case TN_LEGBY_PROTO: proto_label(r->proto, r->cc, buf, size); return;
    case TN_LEGBY_HOST: snprintf(buf, size, "%s", r->host); return;
    default: snprintf(buf, size, "%s", r->flow); return;
    }
}

void tn_fig_conn_flow_label(const struct tn_fig_cfg *fc, const struct tn_conn *c, char *buf, size_t size)
{
    int m = c->d[TN_B2A].data_bytes > c->d[TN_A2B].data_bytes ? TN_B2A : TN_A2B;
    char a[80], b[80];
    switch (fc ? fc->legend_by : TN_LEGBY_LABEL) {
    case TN_LEGBY_PROTO: proto_label(c->proto, c->inf[m].flavor, buf, size); return;
    case TN_LEGBY_HOST:   /* sender > receiver of the data, with ports */
        tn_endpoint_str(m == TN_A2B ? &c->a : &c->b, m == TN_A2B ? c->a_port : c->b_port, a, sizeof a);
        tn_endpoint_str(m == TN_A2B ? &c->b : &c->a, m == TN_A2B ? c->b_port : c->a_port, b, sizeof b);
        snprintf(buf, size, "%s > %s", a, b);
        return;
    default:
        tn_flow_key(c, fc ? fc->rules : NULL, fc ? fc->nrules : 0, buf, size);
        return;
    }
}
