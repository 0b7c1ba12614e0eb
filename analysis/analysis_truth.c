/* analysis_truth.c - grade the inference against kernel ground truth: tcp_probe (snd_cwnd,
 * srtt), tcp_cong_state_set (Recovery/Loss entries) and tcp_retransmit_skb, as
 * analysis_truth_load.c reads them (the lab's CSV files, a raw tracefs dump, an ss -tin log). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"

#include "analysis_truth_int.h"

/* ---- comparison ---- */

/* One connection as the truth's flows name it: the flow of each direction's sender (-1 when
 * the truth has none), the window in which the capture saw it, and whether its events are in
 * time order (tn_infer_finish sorts them), so that a match searches a window of them. */
struct graded_conn {
    const struct tn_conn *c;
    long flow[2];
    int64_t first, last;
    bool events_sorted;
};

/* The kernel's names of the connection's ends: "10.1.1.2:40001" (IPv6 without brackets). */
static void conn_key(const struct tn_conn *c, struct truth_key *ab, struct truth_key *ba)
{
    char a[48], b[48];   /* INET6_ADDRSTRLEN (46) and more: with ":65535" within a key end */
    tn_addr_str(&c->a, a, sizeof a);
    tn_addr_str(&c->b, b, sizeof b);
    snprintf(ab->src, sizeof ab->src, "%s:%u", a, c->a_port);
    snprintf(ab->dst, sizeof ab->dst, "%s:%u", b, c->b_port);
    *ba = (struct truth_key){{0}, {0}};
    memcpy(ba->src, ab->dst, sizeof ba->src);
    memcpy(ba->dst, ab->src, sizeof ba->dst);
}

static bool key_eq(const struct truth_key *x, const struct truth_key *y)
{
    return strcmp(x->src, y->src) == 0 && strcmp(x->dst, y->dst) == 0;
}

static void graded_conn_init(struct graded_conn *g, const struct truth_index *ix,
                             const struct tn_conn *c)
{
    struct truth_key ab, ba;
    conn_key(c, &ab, &ba);
    g->c = c;
    g->flow[TN_A2B] = truth_index_flow(ix, ab.src, ab.dst);
    g->flow[TN_B2A] = truth_index_flow(ix, ba.src, ba.dst);
    if (g->flow[TN_B2A] == g->flow[TN_A2B])   /* both ends alike: the key names A2B */
        g->flow[TN_B2A] = -1;
    /* only what happened while the capture saw the connection can be graded */
    g->first = tn_time_ns(c->first) - 1000000;
    g->last = tn_time_ns(c->last) + 1000000;
    g->events_sorted = true;
    for (size_t k = 1; k < c->nevents && g->events_sorted; k++)
        g->events_sorted = c->events[k - 1].t_ns <= c->events[k].t_ns;
}

static bool in_window(const struct graded_conn *g, int64_t t_ns)
{
    return t_ns >= g->first && t_ns <= g->last;
}

/* The events of the connection that can lie within w ns of t: [*lo, *hi). */
static void event_window(const struct graded_conn *g, int64_t t, double w, size_t *lo, size_t *hi)
{
    const struct tn_conn *c = g->c;
    *lo = 0;
    *hi = c->nevents;
    /* times are below 2^62 ns (TN_TIME_SEC_MAX), where a double is exact to 2^10 ns */
    if (!g->events_sorted || !(w < 1e18))
        return;
    int64_t span = (int64_t)w + 2048, from = t - span, to = t + span;
    size_t a = 0, b = c->nevents;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (c->events[mid].t_ns < from)
            a = mid + 1;
        else
            b = mid;
    }
    *lo = a;
    for (b = a; b < c->nevents && c->events[b].t_ns <= to; b++)
        ;
    *hi = b;
}

size_t tn_truth_window(const struct tn_truth *t, const struct tn_conn *c, int d, struct tn_point **cwnd,
                       struct tn_point **ssth, size_t *nssth)
{
    size_t n = 0, cap = 0, cap_s = 0;
    *cwnd = *ssth = NULL;
    *nssth = 0;
    /* the connection's two keys, made once (not per probe) */
    struct truth_key ab, ba;
    conn_key(c, &ab, &ba);
    const struct graded_conn g = {.first = tn_time_ns(c->first) - 1000000,
                                  .last = tn_time_ns(c->last) + 1000000};
    for (size_t i = 0; i < t->nprobes; i++) {
        const struct truth_probe *p = &t->probes[i];
        if (!in_window(&g, p->t_ns))
            continue;
        bool is_ab = key_eq(&p->k, &ab);   /* both ends alike: the key names A2B */
        if (d == TN_A2B ? !is_ab : is_ab || !key_eq(&p->k, &ba))
            continue;
        tn_grow((void **)cwnd, &cap, n + 1, sizeof **cwnd);
        (*cwnd)[n++] = (struct tn_point){p->t_ns, p->cwnd};
        if (p->ssthresh > 0 && p->ssthresh < 0x7fffffff) {
            tn_grow((void **)ssth, &cap_s, *nssth + 1, sizeof **ssth);
            (*ssth)[(*nssth)++] = (struct tn_point){p->t_ns, p->ssthresh};
        }
    }
    return n;
}

/* Index of the last point at or before t, or -1. */
static long series_at(const struct tn_series *s, int64_t t)
{
    long lo = 0, hi = (long)s->n - 1, best = -1;
    while (lo <= hi) {
        long mid = (lo + hi) / 2;
        if (s->pts[mid].t_ns <= t) {
            best = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return best;
}

static int cmp_dbl(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static void quantiles(double *v, size_t n, double *med, double *p90)
{
    if (!n) {
        *med = *p90 = -1;
        return;
    }
    tn_sort(v, n, sizeof *v, cmp_dbl);
    *med = v[n / 2];
    *p90 = v[(size_t)((double)(n - 1) * 0.9)];
}

/* Kernel congestion state of the flow at time t (0 Open when nothing is known): the last state
 * record of the flow before the first record later than t. */
static int state_at(const struct tn_truth *t, const struct truth_index *ix, size_t flow, int64_t at)
{
    const struct truth_flow *f = &ix->flows[flow];
    long j = truth_index_last_below(f->states, f->nstates,
                                    truth_index_before(ix->state_tmax, t->nstates, at));
    return j < 0 ? 0 : t->states[f->states[j]].state;
}

/* The kernel's smoothed RTT of the flow at time at (ns), or -1: the same rule with probes. */
static double srtt_at(const struct tn_truth *t, const struct truth_index *ix, size_t flow, int64_t at)
{
    const struct truth_flow *f = &ix->flows[flow];
    long j = truth_index_last_below(f->probes, f->nprobes,
                                    truth_index_before(ix->probe_tmax, t->nprobes, at));
    return j < 0 ? -1 : t->probes[f->probes[j]].srtt_ms;
}

static void grade_cwnd_rtt(const struct tn_truth *t, const struct truth_index *ix,
                           const struct graded_conn *g, int d, struct tn_accuracy *r)
{
    const struct tn_conn *c = g->c;
    const struct truth_flow *f = &ix->flows[g->flow[d]];
    const struct tn_series *cw = &c->series[d][TN_SER_CWND_EST], *rt = &c->series[d][TN_SER_RTT_MS];
    double mss = c->inf[d].seg_size > 0 ? c->inf[d].seg_size : 1448;
    double *ecw = tn_xcalloc(f->nprobes + 1, sizeof *ecw), *ecw_all = tn_xcalloc(f->nprobes + 1, sizeof *ecw_all);
    double *ert = tn_xcalloc(f->nprobes + 1, sizeof *ert);
    size_t ncw = 0, nall = 0, nrt = 0;
    double srtt = -1;
    size_t ri = 0;
    for (size_t i = 0; i < f->nprobes; i++) {
        const struct truth_probe *p = &t->probes[f->probes[i]];
        if (!in_window(g, p->t_ns))
            continue;
        r->probes++;
        /* our smoothed RTT (RFC 6298) over the samples up to the probe */
        for (; ri < rt->n && rt->pts[ri].t_ns <= p->t_ns; ri++)
            srtt = srtt < 0 ? rt->pts[ri].v : 0.875 * srtt + 0.125 * rt->pts[ri].v;
        if (srtt > 0 && p->srtt_ms > 0)
            ert[nrt++] = fabs(srtt - p->srtt_ms) / p->srtt_ms;
        /* tcp_probe fires before the ACK is processed: the window after this ACK is the next
         * record's (the flow's next probe).  Our estimate for the same ACK is the point nearest
         * in time (our points are placed where the sender processes the ACK). */
        const struct truth_probe *after = i + 1 < f->nprobes ? &t->probes[f->probes[i + 1]] : NULL;
        long j = series_at(cw, p->t_ns);
        if (j + 1 < (long)cw->n && (j < 0 || cw->pts[j + 1].t_ns - p->t_ns < p->t_ns - cw->pts[j].t_ns))
            j++;
        if (!after || j < 0 || after->cwnd <= 0)
            continue;
        bool limited = (double)after->inflight >= (after->cwnd - 2) * mss;
        if (!limited)
            continue;
        double e = fabs(cw->pts[j].v / mss - after->cwnd) / after->cwnd;
        ecw_all[nall++] = e;
        int st = state_at(t, ix, (size_t)g->flow[d], p->t_ns);
        if (st < 2)   /* Open or Disorder: outside window reductions */
            ecw[ncw++] = e;
        r->limited++;
    }
    quantiles(ecw_all, nall, &r->cwnd_err_med, &r->cwnd_err_p90);
    quantiles(ecw, ncw, &r->cwnd_err_open_med, &r->cwnd_err_open_p90);
    quantiles(ert, nrt, &r->rtt_err_med, &r->rtt_err_p90);
    r->cwnd_n = nall;
    r->cwnd_open_n = ncw;
    r->rtt_n = nrt;
    free(ecw);
    free(ecw_all);
    free(ert);
}

/* Match kernel Recovery (3) / Loss (4) entries with our recovery_start / rto_start events within
 * one RTT. */
static void grade_episodes(const struct tn_truth *t, const struct truth_index *ix,
                           const struct graded_conn *g, int d, struct tn_accuracy *r)
{
    const struct tn_conn *c = g->c;
    const struct truth_flow *f = &ix->flows[g->flow[d]];
    double hs_ns = (c->hs_rtt_ms > 0 ? c->hs_rtt_ms : 100.0) * 1e6;
    bool *used = tn_xcalloc(c->nevents + 1, sizeof *used);
    int prev = 0;
    for (size_t i = 0; i < f->nstates; i++) {
        const struct truth_state *s = &t->states[f->states[i]];
        if (!in_window(g, s->t_ns))
            continue;
        bool entry = (s->state == 3 || s->state == 4) && s->state != prev;
        prev = s->state;
        if (!entry)
            continue;
        int kind = s->state == 3 ? TN_EV_RECOVERY_START : TN_EV_RTO_START;
        /* within one RTT, the RTT of the moment (queues inflate it beyond the handshake's) */
        double srtt = srtt_at(t, ix, (size_t)g->flow[d], s->t_ns);
        double rtt_ns = srtt > 0 && srtt * 1e6 > hs_ns ? srtt * 1e6 : hs_ns;
        r->truth_episodes[s->state == 4]++;
        size_t lo, hi;
        event_window(g, s->t_ns, rtt_ns, &lo, &hi);
        for (size_t k = lo; k < hi; k++) {
            const struct tn_event *e = &c->events[k];
            if (!used[k] && e->kind == kind && e->dir == d && fabs((double)(e->t_ns - s->t_ns)) <= rtt_ns) {
                used[k] = true;
                r->matched_episodes[s->state == 4]++;
                break;
            }
        }
    }
    for (size_t k = 0; k < c->nevents; k++) {
        if (c->events[k].dir != d)
            continue;
        if (c->events[k].kind == TN_EV_RECOVERY_START)
            r->our_episodes[0]++;
        else if (c->events[k].kind == TN_EV_RTO_START)
            r->our_episodes[1]++;
    }
    free(used);
}

/* Kernel retransmissions, their cause from the congestion state at that moment (Recovery: fast,
 * Loss: timeout, else: other, e.g. a tail loss probe), against ours matched by time. */
static void grade_rexmits(const struct tn_truth *t, const struct truth_index *ix,
                          const struct graded_conn *g, int d, struct tn_accuracy *r)
{
    const struct tn_conn *c = g->c;
    const struct truth_flow *f = &ix->flows[g->flow[d]];
    bool *used = tn_xcalloc(c->nevents + 1, sizeof *used);
    for (size_t i = 0; i < f->nrexmits; i++) {
        const struct truth_rexmit *x = &t->rexmits[f->rexmits[i]];
        if (!in_window(g, x->t_ns))
            continue;
        int st = state_at(t, ix, (size_t)g->flow[d], x->t_ns);
        int tc = st == 3 ? 0 : st == 4 ? 1 : 2;
        r->truth_rexmits++;
        long best = -1;
        /* within 5 ms of the kernel's event, or within the RTT of the moment: a monitor away
         * from the sender sees the retransmission up to a round trip later */
        double srtt = srtt_at(t, ix, (size_t)g->flow[d], x->t_ns);
        double bestdt = srtt > 5 ? srtt * 1e6 : 5e6;
        size_t lo, hi;
        event_window(g, x->t_ns, bestdt, &lo, &hi);
        for (size_t k = lo; k < hi; k++) {
            const struct tn_event *e = &c->events[k];
            bool rx = e->kind == TN_EV_REXMIT_FAST || e->kind == TN_EV_REXMIT_RTO || e->kind == TN_EV_REXMIT_OTHER;
            double dt = fabs((double)(e->t_ns - x->t_ns));
            if (rx && !used[k] && e->dir == d && dt < bestdt) {
                bestdt = dt;
                best = (long)k;
            }
        }
        int oc = 3;
        if (best >= 0) {
            used[best] = true;
            int k = c->events[best].kind;
            oc = k == TN_EV_REXMIT_FAST ? 0 : k == TN_EV_REXMIT_RTO ? 1 : 2;
        }
        r->confusion[tc][oc]++;
    }
    r->our_rexmits = tn_dir_rexmits(c, d);
    free(used);
}

/* Whether the truth has a probe of this sender while the capture saw the connection. */
static bool graded_dir(const struct tn_truth *t, const struct truth_index *ix,
                       const struct graded_conn *g, int d)
{
    if (g->flow[d] < 0)
        return false;
    const struct truth_flow *f = &ix->flows[g->flow[d]];
    for (size_t k = 0; k < f->nprobes; k++)
        if (in_window(g, t->probes[f->probes[k]].t_ns))
            return true;
    return false;
}

size_t tn_truth_compare(const struct tn_truth *t, const struct tn_analyzer *a, struct tn_accuracy *out,
                        size_t max)
{
    struct truth_index ix;
    truth_index_build(t, &ix);
    size_t n = 0;
    for (size_t i = 0; i < tn_analyzer_conn_count(a) && n < max; i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (c->proto != TN_PK_TCP)
            continue;
        struct graded_conn g;
        graded_conn_init(&g, &ix, c);
        for (int d = 0; d < 2 && n < max; d++) {
            if (!graded_dir(t, &ix, &g, d) || !c->d[d].data_pkts)
                continue;
            struct tn_accuracy *r = &out[n++];
            memset(r, 0, sizeof *r);
            r->conn = c->idx;
            r->dir = d;
            grade_cwnd_rtt(t, &ix, &g, d, r);
            grade_episodes(t, &ix, &g, d, r);
            grade_rexmits(t, &ix, &g, d, r);
        }
    }
    truth_index_free(&ix);
    return n;
}
