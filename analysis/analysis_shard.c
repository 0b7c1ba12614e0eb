/* analysis_shard.c - the merge of shards (-j N): every shard's finished connections moved into
 * one analyzer, in the order of their first packet in the trace and numbered as one analyzer
 * numbers them, so that every output reads what -j 1 gives. */
#include <stdlib.h>

#include "analysis_int.h"

struct ord_slot {
    uint64_t ord;
    struct tn_conn_priv *slot;
};

static int cmp_ord(const void *x, const void *y)
{
    uint64_t a = ((const struct ord_slot *)x)->ord, b = ((const struct ord_slot *)y)->ord;
    return a < b ? -1 : a > b;
}

/* The connections of v (n) in the order of their first packets: the shards' runs seg[0..k]
 * (seg[s] .. seg[s + 1]) merged when each is in that order already (an analyzer makes its
 * connections in the order of their first packets, tn_analyzer_keep_latest leaves them so),
 * sorted otherwise; into out. */
static void order(struct ord_slot *v, size_t n, const size_t *seg, size_t k, struct tn_conn_priv **out)
{
    bool runs = true;
    for (size_t s = 0; s < k && runs; s++)
        for (size_t i = seg[s] + 1; i < seg[s + 1]; i++)
            if (v[i - 1].ord > v[i].ord) {
                runs = false;
                break;
            }
    if (!runs) {
        qsort(v, n, sizeof *v, cmp_ord);
        for (size_t i = 0; i < n; i++)
            out[i] = v[i].slot;
        return;
    }
    size_t *at = tn_xmalloc((k ? k : 1) * sizeof *at);
    for (size_t s = 0; s < k; s++)
        at[s] = seg[s];
    for (size_t i = 0; i < n; i++) {
        size_t best = k;
        for (size_t s = 0; s < k; s++)
            if (at[s] < seg[s + 1] && (best == k || v[at[s]].ord < v[at[best]].ord))
                best = s;
        out[i] = v[at[best]++].slot;
    }
    free(at);
}

void tn_analyzer_merge(struct tn_analyzer *into, struct tn_analyzer *const *shards, size_t n)
{
    TN_BUG_ON(into->nconns != 0);
    size_t total = 0;
    for (size_t s = 0; s < n; s++)
        total += shards[s]->nconns;
    tn_grow((void **)&into->conns, &into->cap, total, sizeof *into->conns);
    struct ord_slot *v = tn_xmalloc((total ? total : 1) * sizeof *v);
    size_t *seg = tn_xmalloc((n + 1) * sizeof *seg);
    for (size_t s = 0; s < n; s++) {
        struct tn_analyzer *sh = shards[s];
        seg[s] = into->nconns;
        for (size_t k = 0; k < sh->nconns; k++)
            v[into->nconns++] = (struct ord_slot){tn_slot_ord(sh->conns[k]), sh->conns[k]};
        into->st.evicted += sh->st.evicted;
        into->st.briefs_out += sh->st.briefs_out;
        into->st.listed_peak += sh->st.listed_peak;
        into->nretired += sh->nretired;
        struct tn_brief_slab **tail = &into->slabs;   /* the briefs are into's too */
        while (*tail)
            tail = &(*tail)->next;
        *tail = sh->slabs;
        sh->slabs = NULL;
        sh->nretired = sh->nstale = 0;
        /* the connections are into's now: the shard keeps an empty table */
        sh->nconns = sh->nactive = 0;
        sh->closed.head = sh->closed.n = 0;
        sh->half_open.head = sh->half_open.n = 0;
        sh->last_idx = -1;
    }
    seg[n] = into->nconns;
    /* ordinals are unique (one packet starts one connection): the order is total */
    order(v, into->nconns, seg, n, into->conns);
    free(seg);
    free(v);
    for (size_t k = 0; k < into->nconns; k++)
        *tn_slot_idx(into->conns[k]) = (unsigned)(k + 1);
    /* evicted connections leave no gaps here (they do in one analyzer): with evictions the
     * numbers depend on -j, as the evicted connections themselves do */
    into->numbered = (unsigned)into->nconns;
    into->last_idx = -1;
}
