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

static bool key_is(const struct truth_key *k, const struct tn_addr *sa, uint16_t sp,
                   const struct tn_addr *da, uint16_t dp)
{
    char a[64], b[64], x[80], y[80];
    tn_addr_str(sa, a, sizeof a);
    tn_addr_str(da, b, sizeof b);
    snprintf(x, sizeof x, "%s:%u", a, sp);
    snprintf(y, sizeof y, "%s:%u", b, dp);
    return strcmp(k->src, x) == 0 && strcmp(k->dst, y) == 0;
}

/* The direction of c whose sender the key names, or -1. */
static int key_dir(const struct truth_key *k, const struct tn_conn *c, int64_t t_ns)
{
    /* only what happened while the capture saw the connection can be graded */
    int64_t first = tn_time_ns(c->first) - 1000000, last = tn_time_ns(c->last) + 1000000;
    if (t_ns < first || t_ns > last)
        return -1;
    if (key_is(k, &c->a, c->a_port, &c->b, c->b_port))
        return TN_A2B;
    if (key_is(k, &c->b, c->b_port, &c->a, c->a_port))
        return TN_B2A;
    return -1;
}

size_t tn_truth_window(const struct tn_truth *t, const struct tn_conn *c, int d, struct tn_point **cwnd,
                       struct tn_point **ssth, size_t *nssth)
{
    size_t n = 0, cap = 0, cap_s = 0;
    *cwnd = *ssth = NULL;
    *nssth = 0;
    for (size_t i = 0; i < t->nprobes; i++) {
        const struct truth_probe *p = &t->probes[i];
        if (key_dir(&p->k, c, p->t_ns) != d)
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

/* Kernel congestion state of the flow at time t (0 Open when nothing is known). */
static int state_at(const struct tn_truth *t, const struct truth_key *k, int64_t at)
{
    int st = 0;
    for (size_t i = 0; i < t->nstates && t->states[i].t_ns <= at; i++)
        if (strcmp(t->states[i].k.src, k->src) == 0 && strcmp(t->states[i].k.dst, k->dst) == 0)
            st = t->states[i].state;
    return st;
}

static void grade_cwnd_rtt(const struct tn_truth *t, const struct tn_conn *c, int d,
                           struct tn_accuracy *r)
{
    const struct tn_series *cw = &c->series[d][TN_SER_CWND_EST], *rt = &c->series[d][TN_SER_RTT_MS];
    double mss = c->inf[d].seg_size > 0 ? c->inf[d].seg_size : 1448;
    double *ecw = tn_xcalloc(t->nprobes + 1, sizeof *ecw), *ecw_all = tn_xcalloc(t->nprobes + 1, sizeof *ecw_all);
    double *ert = tn_xcalloc(t->nprobes + 1, sizeof *ert);
    size_t ncw = 0, nall = 0, nrt = 0;
    double srtt = -1;
    size_t ri = 0;
    for (size_t i = 0; i < t->nprobes; i++) {
        const struct truth_probe *p = &t->probes[i];
        if (key_dir(&p->k, c, p->t_ns) != d)
            continue;
        r->probes++;
        /* our smoothed RTT (RFC 6298) over the samples up to the probe */
        for (; ri < rt->n && rt->pts[ri].t_ns <= p->t_ns; ri++)
            srtt = srtt < 0 ? rt->pts[ri].v : 0.875 * srtt + 0.125 * rt->pts[ri].v;
        if (srtt > 0 && p->srtt_ms > 0)
            ert[nrt++] = fabs(srtt - p->srtt_ms) / p->srtt_ms;
        /* tcp_probe fires before the ACK is processed: the window after this ACK is the next
         * record's.  Our estimate for the same ACK is the point nearest in time (our points are
         * placed where the sender processes the ACK). */
        const struct truth_probe *after = NULL;
        for (size_t k = i + 1; k < t->nprobes && !after; k++)
            if (strcmp(t->probes[k].k.src, p->k.src) == 0 && strcmp(t->probes[k].k.dst, p->k.dst) == 0)
                after = &t->probes[k];
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
        int st = state_at(t, &p->k, p->t_ns);
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
/* The kernel's smoothed RTT of the flow at time at (ns), or -1. */
static double srtt_at(const struct tn_truth *t, const struct truth_key *k, int64_t at)
{
    double v = -1;
    for (size_t i = 0; i < t->nprobes && t->probes[i].t_ns <= at; i++)
        if (strcmp(t->probes[i].k.src, k->src) == 0 && strcmp(t->probes[i].k.dst, k->dst) == 0)
            v = t->probes[i].srtt_ms;
    return v;
}

static void grade_episodes(const struct tn_truth *t, const struct tn_conn *c, int d, struct tn_accuracy *r)
{
    double hs_ns = (c->hs_rtt_ms > 0 ? c->hs_rtt_ms : 100.0) * 1e6;
    bool *used = tn_xcalloc(c->nevents + 1, sizeof *used);
    int prev = 0;
    for (size_t i = 0; i < t->nstates; i++) {
        const struct truth_state *s = &t->states[i];
        if (key_dir(&s->k, c, s->t_ns) != d)
            continue;
        bool entry = (s->state == 3 || s->state == 4) && s->state != prev;
        prev = s->state;
        if (!entry)
            continue;
        int kind = s->state == 3 ? TN_EV_RECOVERY_START : TN_EV_RTO_START;
        /* within one RTT, the RTT of the moment (queues inflate it beyond the handshake's) */
        double srtt = srtt_at(t, &s->k, s->t_ns);
        double rtt_ns = srtt > 0 && srtt * 1e6 > hs_ns ? srtt * 1e6 : hs_ns;
        r->truth_episodes[s->state == 4]++;
        for (size_t k = 0; k < c->nevents; k++) {
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
static void grade_rexmits(const struct tn_truth *t, const struct tn_conn *c, int d, struct tn_accuracy *r)
{
    bool *used = tn_xcalloc(c->nevents + 1, sizeof *used);
    for (size_t i = 0; i < t->nrexmits; i++) {
        const struct truth_rexmit *x = &t->rexmits[i];
        if (key_dir(&x->k, c, x->t_ns) != d)
            continue;
        int st = state_at(t, &x->k, x->t_ns);
        int tc = st == 3 ? 0 : st == 4 ? 1 : 2;
        r->truth_rexmits++;
        long best = -1;
        /* within 5 ms of the kernel's event, or within the RTT of the moment: a monitor away
         * from the sender sees the retransmission up to a round trip later */
        double srtt = srtt_at(t, &x->k, x->t_ns);
        double bestdt = srtt > 5 ? srtt * 1e6 : 5e6;
        for (size_t k = 0; k < c->nevents; k++) {
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

size_t tn_truth_compare(const struct tn_truth *t, const struct tn_analyzer *a, struct tn_accuracy *out,
                        size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < tn_analyzer_conn_count(a) && n < max; i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (c->proto != TN_PK_TCP)
            continue;
        for (int d = 0; d < 2 && n < max; d++) {
            bool any = false;
            for (size_t k = 0; k < t->nprobes && !any; k++)
                any = key_dir(&t->probes[k].k, c, t->probes[k].t_ns) == d;
            if (!any || !c->d[d].data_pkts)
                continue;
            struct tn_accuracy *r = &out[n++];
            memset(r, 0, sizeof *r);
            r->conn = c->idx;
            r->dir = d;
            grade_cwnd_rtt(t, c, d, r);
            grade_episodes(t, c, d, r);
            grade_rexmits(t, c, d, r);
        }
    }
    return n;
}
