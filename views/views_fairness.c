/* views_fairness.c - Jain's fairness index, throughput ratios and shares of competing flows.
 *
 * R. Jain, D. Chiu, W. Hawe, "A Quantitative Measure of Fairness and Discrimination for Resource
 * Allocation in Shared Computer Systems", DEC-TR-301 (1984): J = (sum x)^2 / (n sum x^2).
 * A flow is a connection, a host pair or a protocol (tn_fair_by); its throughput is the data it
 * carried (payload bytes, retransmissions included: what it took of the bottleneck) over its
 * own lifetime, first to last packet (of any of its connections).  The series uses fixed
 * windows from the first packet of any flow; a flow counts in a window its lifetime overlaps.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views.h"

double tn_jain_index(const double *x, size_t n)
{
    double s = 0, s2 = 0;
    for (size_t i = 0; i < n; i++) {
        s += x[i];
        s2 += x[i] * x[i];
    }
    if (n == 0 || s2 <= 0)
        return 1;
    return s * s / ((double)n * s2);
}

const char *tn_fair_by_name(enum tn_fair_by b)
{
    switch (b) {
    case TN_FAIR_HOSTPAIR: return "hostpair";
    case TN_FAIR_PROTO: return "proto";
    default: return "conn";
    }
}

static bool picked(const struct tn_fair_cfg *cfg, unsigned idx)
{
    if (!cfg->sel || cfg->nsel == 0)
        return true;
    for (size_t i = 0; i < cfg->nsel; i++)
        if (cfg->sel[i] == idx)
            return true;
    return false;
}

static uint64_t conn_bytes(const struct tn_conn *c)
{
    return c->d[TN_A2B].data_bytes + c->d[TN_B2A].data_bytes;
}

/* A connection's span: its first to its last packet (the same duration as the connection
 * table's and tn_conn_throughput_bps, so the numbers agree everywhere). */
static void conn_data_span(const struct tn_conn *c, int64_t *first, int64_t *last)
{
    *first = tn_time_ns(c->first);
    *last = tn_time_ns(c->last);
}

static void flow_name(const struct tn_conn *c, enum tn_fair_by by, char *buf, size_t len)
{
    char a[64], b[64];
    switch (by) {
    case TN_FAIR_HOSTPAIR:
        tn_addr_str(&c->a, a, sizeof a);
        tn_addr_str(&c->b, b, sizeof b);
        if (strcmp(a, b) > 0)   /* both directions and both orders are one pair */
            snprintf(buf, len, "%s-%s", b, a);
        else
            snprintf(buf, len, "%s-%s", a, b);
        return;
    case TN_FAIR_PROTO:
        snprintf(buf, len, "%s", c->proto == TN_PK_DFCP ? "dfcp" : "tcp");
        return;
    default:
        snprintf(buf, len, "conn %u", c->idx);
        return;
    }
}

/* Flow names to their index in out->flows: open addressing on an FNV-1a hash of the name,
 * resized at half load.  A linear search per connection made --csv on 50,000 short connections
 * spend two thirds of its time in strcmp (the flows are the connections there). */
struct name_index {
    size_t *slot;              /* flow index + 1, 0: empty */
    size_t cap;
};

static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static size_t *name_slot(const struct name_index *ix, const struct tn_fairness *out, const char *name)
{
    size_t mask = ix->cap - 1;
    for (size_t i = name_hash(name) & mask;; i = (i + 1) & mask)
        if (!ix->slot[i] || strcmp(out->flows[ix->slot[i] - 1].name, name) == 0)
            return &ix->slot[i];
}

/* Room for one more flow (the table at most half full). */
static void name_index_room(struct name_index *ix, const struct tn_fairness *out)
{
    if ((out->nflows + 1) * 2 <= ix->cap)
        return;
    free(ix->slot);
    ix->cap = ix->cap ? ix->cap * 2 : 64;
    ix->slot = tn_xcalloc(ix->cap, sizeof *ix->slot);
    for (size_t k = 0; k < out->nflows; k++)
        *name_slot(ix, out, out->flows[k].name) = k + 1;
}

/* Which flow each considered connection belongs to (-1: not considered). */
static long *assign_flows(const struct tn_analyzer *a, const struct tn_fair_cfg *cfg,
                          struct tn_fairness *out)
{
    size_t nc = tn_analyzer_conn_count(a);
    long *fl = tn_xcalloc(nc ? nc : 1, sizeof *fl);
    struct tn_signif sig;
    tn_signif_init(&sig, a, cfg->sel, cfg->nsel, cfg->all_connections);
    size_t cap = 0, xcap = 0;
    struct name_index ix = {NULL, 0};
    for (size_t i = 0; i < nc; i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        fl[i] = -1;
        uint64_t bytes = conn_bytes(c);
        if (!picked(cfg, c->idx) || bytes == 0)
            continue;
        if (!tn_signif_keep(&sig, c)) {   /* a control connection: its span would stretch the flow's */
            tn_grow((void **)&out->excluded, &xcap, out->nexcluded + 1, sizeof *out->excluded);
            out->excluded[out->nexcluded++] = c->idx;
            continue;
        }
        char name[128];
        flow_name(c, cfg->by, name, sizeof name);
        name_index_room(&ix, out);
        size_t *slot = name_slot(&ix, out, name);
        size_t k = *slot ? *slot - 1 : out->nflows;
        if (k == out->nflows) {
            *slot = k + 1;
            tn_grow((void **)&out->flows, &cap, k + 1, sizeof *out->flows);
            memset(&out->flows[k], 0, sizeof out->flows[k]);
            snprintf(out->flows[k].name, sizeof out->flows[k].name, "%s", name);
            out->flows[k].conn = cfg->by == TN_FAIR_CONN ? c->idx : 0;
            out->nflows++;
        }
        struct tn_fair_flow *f = &out->flows[k];
        int64_t first, last;
        conn_data_span(c, &first, &last);
        if (f->nconns == 0 || first < f->first_ns)
            f->first_ns = first;
        if (f->nconns == 0 || last > f->last_ns)
            f->last_ns = last;
        f->nconns++;
        f->bytes += bytes;
        fl[i] = (long)k;
    }
    free(ix.slot);
    return fl;
}

static void whole_trace(struct tn_fairness *out)
{
    double *x = tn_xcalloc(out->nflows ? out->nflows : 1, sizeof *x);
    double sum = 0, mx = 0, mn = 0;
    for (size_t k = 0; k < out->nflows; k++) {
        struct tn_fair_flow *f = &out->flows[k];
        double dur = (double)(f->last_ns - f->first_ns) / 1e9;
        f->throughput_bps = dur > 0 ? (double)f->bytes * 8 / dur : 0;
        x[k] = f->throughput_bps;
        sum += x[k];
        if (k == 0 || x[k] > mx)
            mx = x[k];
        if (k == 0 || x[k] < mn)
            mn = x[k];
    }
    for (size_t k = 0; k < out->nflows; k++)
        out->flows[k].share = sum > 0 ? x[k] / sum : 0;
    out->jain = tn_jain_index(x, out->nflows);
    out->max_min = mn > 0 ? mx / mn : 0;
    out->ratio = out->nflows == 2 && x[1] > 0 ? x[0] / x[1] : 0;
    free(x);
}

static void add_point(struct tn_series *s, int64_t t, double v)
{
    tn_grow((void **)&s->pts, &s->cap, s->n + 1, sizeof *s->pts);
    s->pts[s->n++] = (struct tn_point){t, v};
}

/* Per-window throughput of every flow from the packet records, and Jain's index over the flows
 * active in each window. */
static void windows(const struct tn_analyzer *a, const long *fl, struct tn_fairness *out)
{
    int64_t w = out->window_ns, t0 = 0, t1 = 0;
    for (size_t k = 0; k < out->nflows; k++) {
        if (k == 0 || out->flows[k].first_ns < t0)
            t0 = out->flows[k].first_ns;
        if (out->flows[k].last_ns > t1)
            t1 = out->flows[k].last_ns;
    }
    if (w <= 0 || out->nflows == 0)
        return;
    size_t nw = (size_t)((t1 - t0) / w) + 1;
    if (nw > 10000000)
        return;   /* a window far too small for the trace: no series rather than gigabytes */
    double *bins = tn_xcalloc(nw * out->nflows, sizeof *bins);
    bool any = false;
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        if (fl[i] < 0)
            continue;
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        for (size_t j = 0; j < c->npkts; j++) {
            const struct tn_pktrec *r = &c->pkts[j];
            if (!r->len || r->t_ns < t0)
                continue;
            size_t b = (size_t)((r->t_ns - t0) / w);
            if (b < nw) {
                bins[b * out->nflows + (size_t)fl[i]] += r->len;
                any = true;
            }
        }
    }
    if (any) {
        out->flow_tput = tn_xcalloc(out->nflows, sizeof *out->flow_tput);
        double *x = tn_xcalloc(out->nflows, sizeof *x);
        for (size_t b = 0; b < nw; b++) {
            int64_t ws = t0 + (int64_t)b * w, we = ws + w;
            size_t m = 0;
            for (size_t k = 0; k < out->nflows; k++) {
                const struct tn_fair_flow *f = &out->flows[k];
                if (f->last_ns < ws || f->first_ns >= we)
                    continue;   /* not active in this window */
                double bps = bins[b * out->nflows + k] * 8 / ((double)w / 1e9);
                add_point(&out->flow_tput[k], we, bps);
                x[m++] = bps;
            }
            if (m >= 2)
                add_point(&out->jain_series, we, tn_jain_index(x, m));
        }
        free(x);
    }
    free(bins);
}

size_t tn_fairness_compute(const struct tn_analyzer *a, const struct tn_fair_cfg *cfg,
                           struct tn_fairness *out)
{
    memset(out, 0, sizeof *out);
    out->by = cfg->by;
    out->window_ns = cfg->window_ns;
    long *fl = assign_flows(a, cfg, out);
    whole_trace(out);
    windows(a, fl, out);
    free(fl);
    return out->nflows;
}

void tn_fairness_fini(struct tn_fairness *f)
{
    if (f->flow_tput)
        for (size_t k = 0; k < f->nflows; k++)
            free(f->flow_tput[k].pts);
    free(f->flow_tput);
    free(f->flows);
    free(f->excluded);
    free(f->jain_series.pts);
    memset(f, 0, sizeof *f);
}
