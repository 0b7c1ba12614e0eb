/* views_queue1pt.c - router queue estimated from one capture point.
 *
 * Without a second capture point the queue is invisible, but its effect is not: every packet
 * that waits in the bottleneck queue comes back with a longer RTT.  Assumptions (printed with
 * the results, analysis.h "Single capture point"):
 *  - one FIFO bottleneck shared by the flows, and a route that does not change;
 *  - a sender's smallest RTT sample saw an empty queue: queueing delay = sample - minimum;
 *  - the queue drains at the bottleneck rate; the ACK clock shows that rate while the queue is
 *    busy, estimated as the 90th percentile of the acknowledged rate per interval (the goodput
 *    series), summed over the flows for the shared queue;
 *  - occupancy = delay * rate, in packets of the largest segment size;
 *  - the monitor is near the sender: the sample's data left the bottleneck about half a
 *    minimum RTT before its ACK was seen, so the estimate is placed there in time.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "views.h"

static int dbl_cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double p90(double *v, size_t n)
{
    if (n == 0)
        return 0;
    tn_sort(v, n, sizeof *v, dbl_cmp);
    size_t i = (size_t)ceil(0.9 * (double)n) - 1;
    return v[i < n ? i : n - 1];
}

static int pt_cmp(const void *x, const void *y)
{
    const struct tn_point *a = x, *b = y;
    return (a->t_ns > b->t_ns) - (a->t_ns < b->t_ns);
}

static void push(struct tn_series *s, int64_t t, double v)
{
    tn_grow((void **)&s->pts, &s->cap, s->n + 1, sizeof *s->pts);
    s->pts[s->n++] = (struct tn_point){t, v};
}

/* Bottleneck rate: p90 over intervals of the goodput summed across the flows. */
static double shared_rate(const struct tn_analyzer *a, const struct tn_q1 *fl, size_t n)
{
    struct tn_series all = {0};
    for (size_t i = 0; i < n; i++) {
        const struct tn_series *g = &tn_analyzer_conn_by_number(a, fl[i].conn)->series[fl[i].dir][TN_SER_GOODPUT];
        for (size_t j = 0; j < g->n; j++)
            push(&all, g->pts[j].t_ns, g->pts[j].v);
    }
    tn_sort(all.pts, all.n, sizeof *all.pts, pt_cmp);
    double *sums = tn_xcalloc(all.n + 1, sizeof *sums);
    size_t ns = 0;
    for (size_t j = 0; j < all.n;) {
        double s = 0;
        size_t k = j;
        while (k < all.n && all.pts[k].t_ns == all.pts[j].t_ns)
            s += all.pts[k++].v;
        if (s > 0)
            sums[ns++] = s;
        j = k;
    }
    double r = p90(sums, ns);
    free(sums);
    free(all.pts);
    return r;
}

void tn_q1_estimate(const struct tn_analyzer *a, struct tn_q1_result *out)
{
    memset(out, 0, sizeof *out);
    size_t cap = 0;
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        for (int d = 0; d < 2; d++) {
            const struct tn_series *rtt = &c->series[d][TN_SER_RTT_MS];
            if (rtt->n == 0)
                continue;
            tn_grow((void **)&out->flows, &cap, out->n + 1, sizeof *out->flows);
            struct tn_q1 *q = &out->flows[out->n++];
            memset(q, 0, sizeof *q);
            q->conn = c->idx;
            q->dir = d;
            q->min_rtt_ms = rtt->pts[0].v;
            for (size_t j = 0; j < rtt->n; j++)
                if (rtt->pts[j].v < q->min_rtt_ms)
                    q->min_rtt_ms = rtt->pts[j].v;
            for (size_t j = 0; j < rtt->n; j++)
                push(&q->delay_ms, rtt->pts[j].t_ns, rtt->pts[j].v - q->min_rtt_ms);
            const struct tn_series *g = &c->series[d][TN_SER_GOODPUT];
            double *v = tn_xcalloc(g->n + 1, sizeof *v);
            size_t nv = 0;
            for (size_t j = 0; j < g->n; j++)
                if (g->pts[j].v > 0)
                    v[nv++] = g->pts[j].v;
            q->rate_bps = p90(v, nv);
            free(v);
            q->seg_size = c->d[d].seg_max ? c->d[d].seg_max : 1448;
            if (q->seg_size > out->seg_size)
                out->seg_size = q->seg_size;
        }
    }
    if (out->n == 0)
        return;
    out->rate_bps = shared_rate(a, out->flows, out->n);
    for (size_t i = 0; i < out->n; i++) {
        const struct tn_q1 *q = &out->flows[i];
        int64_t shift = (int64_t)(q->min_rtt_ms * 1e6 / 2);
        for (size_t j = 0; j < q->delay_ms.n; j++) {
            double bytes = q->delay_ms.pts[j].v / 1000 * out->rate_bps / 8;
            push(&out->queue_bytes, q->delay_ms.pts[j].t_ns - shift, bytes);
            push(&out->queue_pkts, q->delay_ms.pts[j].t_ns - shift, bytes / out->seg_size);
        }
    }
    tn_sort(out->queue_bytes.pts, out->queue_bytes.n, sizeof *out->queue_bytes.pts, pt_cmp);
    tn_sort(out->queue_pkts.pts, out->queue_pkts.n, sizeof *out->queue_pkts.pts, pt_cmp);
}

void tn_q1_fini(struct tn_q1_result *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->flows[i].delay_ms.pts);
    free(r->flows);
    free(r->queue_pkts.pts);
    free(r->queue_bytes.pts);
    memset(r, 0, sizeof *r);
}

double tn_series_mae(const struct tn_series *est, const struct tn_series *truth, size_t *n)
{
    *n = 0;
    if (truth->n == 0)
        return 0;
    double sum = 0;
    int64_t lo = truth->pts[0].t_ns, hi = truth->pts[truth->n - 1].t_ns;
    for (size_t i = 0; i < est->n; i++) {
        int64_t t = est->pts[i].t_ns;
        if (t < lo || t > hi)
            continue;
        size_t l = 0, h = truth->n;   /* last truth point with time <= t */
        while (h - l > 1) {
            size_t m = (l + h) / 2;
            if (truth->pts[m].t_ns <= t)
                l = m;
            else
                h = m;
        }
        sum += fabs(est->pts[i].v - truth->pts[l].v);
        (*n)++;
    }
    return *n ? sum / (double)*n : 0;
}
