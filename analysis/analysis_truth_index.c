/* analysis_truth_index.c - the kernel's records by flow key and by time, for grading.
 *
 * Grading asks, for each record of a flow, for the flow's congestion state and smoothed RTT at
 * that moment and for its next probe; answered by scans over every record this was quadratic
 * (a 278k-probe file took a minute).  The index answers each in O(log n): records are listed
 * per flow in file order, and "the records a scan in file order sees before the first one
 * later than t" is found by binary search over the running maximum of the times, which gives
 * the same answer as the scan even where a file is not in time order.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"
#include "analysis_truth_int.h"

/* FNV-1a over both ends of the key. */
static size_t key_hash(const char *src, const char *dst)
{
    uint64_t h = 14695981039346656037u;
    for (const char *p = src; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211u;
    h = (h ^ 0xff) * 1099511628211u;   /* the boundary between src and dst */
    for (const char *p = dst; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211u;
    return (size_t)h;
}

static size_t *slot_of(const struct truth_index *ix, const char *src, const char *dst)
{
    size_t i = key_hash(src, dst) & (ix->nslots - 1);
    for (;; i = (i + 1) & (ix->nslots - 1)) {
        size_t v = ix->slots[i];
        if (!v)
            return &ix->slots[i];
        const struct truth_key *k = &ix->flows[v - 1].k;
        if (strcmp(k->src, src) == 0 && strcmp(k->dst, dst) == 0)
            return &ix->slots[i];
    }
}

static struct truth_flow *flow_add(struct truth_index *ix, const struct truth_key *k)
{
    size_t *s = slot_of(ix, k->src, k->dst);
    if (!*s) {
        tn_grow((void **)&ix->flows, &ix->cap_flows, ix->nflows + 1, sizeof *ix->flows);
        ix->flows[ix->nflows] = (struct truth_flow){.k = *k};
        *s = ++ix->nflows;
    }
    return &ix->flows[*s - 1];
}

static void list_add(size_t **list, size_t *n, size_t *cap, size_t v)
{
    tn_grow((void **)list, cap, *n + 1, sizeof **list);
    (*list)[(*n)++] = v;
}

static int64_t *running_max(const void *recs, size_t n, size_t size, size_t t_off)
{
    int64_t *m = tn_xcalloc(n + 1, sizeof *m);
    for (size_t i = 0; i < n; i++) {
        int64_t t;
        memcpy(&t, (const char *)recs + i * size + t_off, sizeof t);
        m[i] = i && m[i - 1] > t ? m[i - 1] : t;
    }
    return m;
}

void truth_index_build(const struct tn_truth *t, struct truth_index *ix)
{
    memset(ix, 0, sizeof *ix);
    /* a power of two at least twice the records: every key fits with the table half empty */
    size_t recs = t->nprobes + t->nstates + t->nrexmits;
    ix->nslots = 16;
    while (ix->nslots < 2 * recs)
        ix->nslots *= 2;
    ix->slots = tn_xcalloc(ix->nslots, sizeof *ix->slots);
    ix->probe_flow = tn_xcalloc(t->nprobes + 1, sizeof *ix->probe_flow);
    for (size_t i = 0; i < t->nprobes; i++) {
        struct truth_flow *f = flow_add(ix, &t->probes[i].k);
        ix->probe_flow[i] = (size_t)(f - ix->flows);
        list_add(&f->probes, &f->nprobes, &f->cap_probes, i);
    }
    for (size_t i = 0; i < t->nstates; i++) {
        struct truth_flow *f = flow_add(ix, &t->states[i].k);
        list_add(&f->states, &f->nstates, &f->cap_states, i);
    }
    for (size_t i = 0; i < t->nrexmits; i++) {
        struct truth_flow *f = flow_add(ix, &t->rexmits[i].k);
        list_add(&f->rexmits, &f->nrexmits, &f->cap_rexmits, i);
    }
    ix->probe_tmax = running_max(t->probes, t->nprobes, sizeof *t->probes,
                                 offsetof(struct truth_probe, t_ns));
    ix->state_tmax = running_max(t->states, t->nstates, sizeof *t->states,
                                 offsetof(struct truth_state, t_ns));
}

void truth_index_free(struct truth_index *ix)
{
    for (size_t i = 0; i < ix->nflows; i++) {
        free(ix->flows[i].probes);
        free(ix->flows[i].states);
        free(ix->flows[i].rexmits);
    }
    free(ix->flows);
    free(ix->slots);
    free(ix->probe_flow);
    free(ix->probe_tmax);
    free(ix->state_tmax);
    memset(ix, 0, sizeof *ix);
}

long truth_index_flow(const struct truth_index *ix, const char *src, const char *dst)
{
    size_t v = *slot_of(ix, src, dst);
    return v ? (long)v - 1 : -1;
}

size_t truth_index_before(const int64_t *tmax, size_t n, int64_t at)
{
    size_t lo = 0, hi = n;   /* first i with tmax[i] > at; tmax ascends */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tmax[mid] > at)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

long truth_index_last_below(const size_t *list, size_t n, size_t end)
{
    size_t lo = 0, hi = n;   /* first position with list[pos] >= end */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (list[mid] >= end)
            hi = mid;
        else
            lo = mid + 1;
    }
    return (long)lo - 1;
}
