/* analysis_evict.c - the end of a connection's state: freeing it, and a bounded table: when cfg.max_conns connections hold analysis
 * state, the eighth of them that matters least is dropped, half-open ones first (a SYN flood's
 * entries), then the longest idle.  Dropped connections leave the outputs; the run counts them
 * (tn_trace_stats.evicted) and goes on.  One batch is O(n log n) every n/8 new connections.
 * Closing the holes a batch leaves is shared with a live capture's briefs that leave memory
 * (analysis_linger.c). */
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"

/* The DFCP results of a TCP connection: none (read-only, shared). */
const struct tn_dfcp_infer tn_no_dfcp;
const struct tn_tcp_infer tn_no_inf[2];

void tn_conn_free_inf(struct tn_conn *c)
{
    if (c->inf != tn_no_inf)
        free(c->inf);
    c->inf = (struct tn_tcp_infer *)tn_no_inf;
}

/* The analysis state of a connection (not its summary, not its records). */
void tn_conn_free_state(struct tn_conn_priv *cp)
{
    tn_tcp_conn_free(cp);
    free(cp->dfcp);
    cp->dfcp = NULL;
}

void tn_conn_priv_destroy(struct tn_conn_priv *cp)
{
    tn_conn_free_state(cp);
    tn_conn_free_records(&cp->pub);
    if (cp->pub.dfcp != &tn_no_dfcp)
        free(cp->pub.dfcp);
    tn_conn_free_inf(&cp->pub);
    free(cp);
}

struct victim {
    size_t k;                  /* index into conns */
    bool established;          /* both sides answered: kept before the half-open */
    int64_t last_ns;
};

/* Half-open first, then oldest last packet first. */
static int cmp_victim(const void *x, const void *y)
{
    const struct victim *a = x, *b = y;
    if (a->established != b->established)
        return a->established ? 1 : -1;
    if (a->last_ns != b->last_ns)
        return a->last_ns < b->last_ns ? -1 : 1;
    return a->k < b->k ? -1 : a->k > b->k;
}

static bool established(const struct tn_conn *c)
{
    return c->d[TN_A2B].pkts > 0 && c->d[TN_B2A].pkts > 0 && (c->synack_seen || !c->handshake_seen);
}

static bool never(const void *arg, long idx)
{
    (void)arg;
    (void)idx;
    return false;
}

/* The queue's entries at their new indexes, those dropped left out. */
static void remap(struct tn_idxq *q, const long *moved)
{
    size_t n = 0;
    for (size_t i = q->head; i < q->n; i++)
        if (moved[q->v[i]] >= 0)
            q->v[n++] = (size_t)moved[q->v[i]];
    q->head = 0;
    q->n = n;
}

void tn_analyzer_evict(struct tn_analyzer *a)
{
    tn_analyzer_compact_active(a);   /* no brief is a victim: they hold no state */
    size_t n = a->nactive, drop = n / 8 ? n / 8 : 1;
    struct victim *v = tn_xmalloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++) {
        const struct tn_conn *c = &a->conns[a->active[i]]->pub;
        v[i] = (struct victim){a->active[i], established(c), tn_time_ns(c->last)};
    }
    tn_sort(v, n, sizeof *v, cmp_victim);
    for (size_t i = 0; i < drop && i < n; i++) {
        tn_conn_priv_destroy(a->conns[v[i].k]);
        a->conns[v[i].k] = NULL;
    }
    a->st.evicted += drop < n ? drop : n;
    free(v);
    tn_analyzer_close_holes(a);
}

void tn_analyzer_close_holes(struct tn_analyzer *a)
{
    size_t nold = a->nconns;
    long *moved = tn_xmalloc((nold ? nold : 1) * sizeof *moved);
    size_t kept = 0;
    for (size_t k = 0; k < nold; k++) {
        moved[k] = a->conns[k] ? (long)kept : -1;
        if (a->conns[k])
            a->conns[kept++] = a->conns[k];
    }
    a->nconns = kept;
    tn_analyzer_renumber(a, moved, true);
    free(moved);
}

static void remap_linger(struct tn_lingerq *q, const long *moved)
{
    size_t n = 0, ndue = 0;
    for (size_t i = q->head; i < q->n; i++) {
        if (moved[q->v[i].k] < 0)
            continue;
        if (i < q->head + q->ndue)
            ndue++;
        q->v[n] = q->v[i];
        q->v[n++].k = (size_t)moved[q->v[i].k];
    }
    q->head = 0;
    q->n = n;
    q->ndue = ndue;
}

void tn_analyzer_renumber(struct tn_analyzer *a, const long *moved, bool table_briefs)
{
    /* indexes move, so the table, the active list and the queues are built again (summaries
     * of retired connections stay, out of the table as before) */
    tn_flowtab_free(a->flows);
    a->flows = tn_flowtab_new();
    size_t na = 0;
    for (size_t i = 0; i < a->nactive; i++) {
        long k = moved[a->active[i]];
        if (k < 0)
            continue;
        a->active[na++] = (size_t)k;
        const struct tn_conn *c = &a->conns[k]->pub;
        tn_flowtab_set(a->flows, tn_flow_hash_between(c->proto, &c->a, c->a_port, &c->b, c->b_port), k, never, NULL);
    }
    a->nactive = na;
    for (size_t k = 0; table_briefs && k < a->nconns; k++)   /* retired: late packets still find them */
        if (tn_slot_is_brief(a->conns[k])) {
            const struct tn_conn_brief *b = tn_slot_brief(a->conns[k]);
            tn_flowtab_set(a->flows, tn_flow_hash_between(b->proto, &b->a, b->a_port, &b->b, b->b_port), (long)k,
                           never, NULL);
        }
    remap(&a->closed, moved);
    remap(&a->half_open, moved);
    remap_linger(&a->linger[0], moved);
    remap_linger(&a->linger[1], moved);
    a->last_idx = -1;
    a->reading.k = SIZE_MAX;   /* the outputs' reading slot reads by index: read it again */
}
