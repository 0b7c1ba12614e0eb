/* analysis_shard.c - the merge of shards (-j N): every shard's finished connections moved into
 * one analyzer, in the order of their first packet in the trace and numbered as one analyzer
 * numbers them, so that every output reads what -j 1 gives. */
#include <stdlib.h>

#include "analysis_int.h"

static int cmp_ord(const void *x, const void *y)
{
    uint64_t a = tn_slot_ord(*(struct tn_conn_priv *const *)x), b = tn_slot_ord(*(struct tn_conn_priv *const *)y);
    return a < b ? -1 : a > b;
}

void tn_analyzer_merge(struct tn_analyzer *into, struct tn_analyzer *const *shards, size_t n)
{
    TN_BUG_ON(into->nconns != 0);
    size_t total = 0;
    for (size_t s = 0; s < n; s++)
        total += shards[s]->nconns;
    tn_grow((void **)&into->conns, &into->cap, total, sizeof *into->conns);
    for (size_t s = 0; s < n; s++) {
        struct tn_analyzer *sh = shards[s];
        for (size_t k = 0; k < sh->nconns; k++)
            into->conns[into->nconns++] = sh->conns[k];
        into->st.evicted += sh->st.evicted;
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
    /* ordinals are unique (one packet starts one connection): the order is total */
    if (into->nconns > 1)
        qsort(into->conns, into->nconns, sizeof *into->conns, cmp_ord);
    for (size_t k = 0; k < into->nconns; k++)
        *tn_slot_idx(into->conns[k]) = (unsigned)(k + 1);
    /* evicted connections leave no gaps here (they do in one analyzer): with evictions the
     * numbers depend on -j, as the evicted connections themselves do */
    into->numbered = (unsigned)into->nconns;
    into->last_idx = -1;
}
