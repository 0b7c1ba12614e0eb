/* views_parallel.c - parallel transfers: connections of one host pair started together.
 *
 * psock and GridFTP striping open several connections between the same two hosts at about the
 * same moment and spread one transfer over them.  Here: connections with data, of the same
 * protocol and host pair (either order), whose first packet lies within start_window_ns of the
 * group's first connection, form one parallel transfer when there are at least two carrying
 * TN_SIGNIF_SHARE (1%) or more of the largest one's bytes (control connections are not
 * subflows).  The server port is not part of the key (GridFTP data channels use several).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views.h"

static bool same_pair(const struct tn_conn *x, const struct tn_conn *y)
{
    if (x->proto != y->proto)
        return false;
    bool same = memcmp(&x->a, &y->a, sizeof x->a) == 0 && memcmp(&x->b, &y->b, sizeof x->b) == 0;
    bool swapped = memcmp(&x->a, &y->b, sizeof x->a) == 0 && memcmp(&x->b, &y->a, sizeof x->b) == 0;
    return same || swapped;
}

static uint64_t bytes_of(const struct tn_conn *c)
{
    return c->d[TN_A2B].data_bytes + c->d[TN_B2A].data_bytes;
}

static void push(struct tn_series *s, int64_t t, double v)
{
    tn_grow((void **)&s->pts, &s->cap, s->n + 1, sizeof *s->pts);
    s->pts[s->n++] = (struct tn_point){t, v};
}

/* Aggregate throughput and subflow shares per window, from the packet records. */
static void group_series(const struct tn_analyzer *a, struct tn_parallel *g, int64_t w)
{
    g->sub = tn_xcalloc(g->n, sizeof *g->sub);
    if (w <= 0 || g->last_ns <= g->first_ns)
        return;
    size_t nw = (size_t)((g->last_ns - g->first_ns) / w) + 1;
    if (nw > 10000000)
        return;
    double *bins = tn_xcalloc(nw * g->n, sizeof *bins);
    for (size_t s = 0; s < g->n; s++) {
        const struct tn_conn *c = tn_analyzer_conn_by_number(a, g->conns[s]);
        for (size_t j = 0; j < c->npkts; j++) {
            const struct tn_pktrec *r = &c->pkts[j];
            if (r->len && r->t_ns >= g->first_ns) {
                size_t b = (size_t)((r->t_ns - g->first_ns) / w);
                if (b < nw)
                    bins[b * g->n + s] += r->len;
            }
        }
    }
    for (size_t b = 0; b < nw; b++) {
        int64_t we = g->first_ns + (int64_t)(b + 1) * w;
        double tot = 0;
        for (size_t s = 0; s < g->n; s++)
            tot += bins[b * g->n + s];
        push(&g->aggregate, we, tot * 8 / ((double)w / 1e9));
        for (size_t s = 0; s < g->n; s++)
            push(&g->sub[s], we, tot > 0 ? bins[b * g->n + s] / tot : 0);
    }
    free(bins);
}

size_t tn_parallel_find(const struct tn_analyzer *a, int64_t start_window_ns, int64_t series_window_ns,
                        struct tn_parallel **out)
{
    size_t nc = tn_analyzer_conn_count(a), ng = 0, cap = 0;
    bool *used = tn_xcalloc(nc ? nc : 1, sizeof *used);
    *out = NULL;
    for (size_t i = 0; i < nc; i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (used[i] || bytes_of(c) == 0)
            continue;
        int64_t t0 = tn_time_ns(c->first);
        unsigned *members = tn_xcalloc(nc, sizeof *members);
        size_t n = 0;
        for (size_t j = i; j < nc; j++) {
            const struct tn_conn *o = tn_analyzer_conn(a, j);
            if (used[j] || bytes_of(o) == 0 || !same_pair(c, o))
                continue;
            int64_t dt = tn_time_ns(o->first) - t0;
            if (dt >= 0 && dt <= start_window_ns)
                members[n++] = (unsigned)j;
        }
        /* subflows carry a real part of the transfer: a connection that is not significant
         * against the group's largest (a control connection, e.g. iperf3's; tn_signif) is not one */
        uint64_t maxb = 0;
        for (size_t s = 0; s < n; s++)
            if (bytes_of(tn_analyzer_conn(a, members[s])) > maxb)
                maxb = bytes_of(tn_analyzer_conn(a, members[s]));
        size_t kept = 0;
        for (size_t s = 0; s < n; s++)
            if ((double)bytes_of(tn_analyzer_conn(a, members[s])) >= TN_SIGNIF_SHARE * (double)maxb)
                members[kept++] = members[s];
        n = kept;
        if (n < 2) {
            free(members);
            continue;
        }
        tn_grow((void **)out, &cap, ng + 1, sizeof **out);
        struct tn_parallel *g = &(*out)[ng++];
        memset(g, 0, sizeof *g);
        g->conns = members;
        g->n = n;
        g->share = tn_xcalloc(n, sizeof *g->share);
        char x[64], y[64];
        tn_addr_str(&c->a, x, sizeof x);
        tn_addr_str(&c->b, y, sizeof y);
        snprintf(g->name, sizeof g->name, "%s-%s", x, y);
        for (size_t s = 0; s < n; s++) {
            const struct tn_conn *o = tn_analyzer_conn(a, members[s]);
            used[members[s]] = true;
            int64_t f = tn_time_ns(o->first), l = tn_time_ns(o->last);
            if (s == 0 || f < g->first_ns)
                g->first_ns = f;
            if (l > g->last_ns)
                g->last_ns = l;
            g->bytes += bytes_of(o);
            members[s] = o->idx;   /* from here on: connection numbers */
        }
        for (size_t s = 0; s < n; s++)
            g->share[s] = g->bytes ? (double)bytes_of(tn_analyzer_conn_by_number(a, members[s])) / (double)g->bytes : 0;
        double dur = (double)(g->last_ns - g->first_ns) / 1e9;
        g->throughput_bps = dur > 0 ? (double)g->bytes * 8 / dur : 0;
        group_series(a, g, series_window_ns);
    }
    free(used);
    return ng;
}

void tn_parallel_free(struct tn_parallel *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i].sub)
            for (size_t s = 0; s < p[i].n; s++)
                free(p[i].sub[s].pts);
        free(p[i].sub);
        free(p[i].aggregate.pts);
        free(p[i].share);
        free(p[i].conns);
    }
    free(p);
}
