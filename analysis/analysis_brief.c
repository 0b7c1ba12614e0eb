/* analysis_brief.c - a connection in brief: its state, and what stays in memory of one retired
 * offline (analysis_retire.c), which the outputs written at the end read without bringing it
 * back (the list, the significance rule, the summary), and which the flow table finds it by. */
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"

const char *tn_conn_state_name(enum tn_conn_state s)
{
    switch (s) {
    case TN_ST_COMPLETE: return "complete";
    case TN_ST_RESET: return "reset";
    case TN_ST_OPEN: return "open";
    case TN_ST_PARTIAL: return "partial";
    }
    return "?";
}

enum tn_conn_state tn_conn_state(const struct tn_conn *c)
{
    if (c->reset)
        return TN_ST_RESET;
    if (!c->handshake_seen)
        return TN_ST_PARTIAL;
    if (c->closed)
        return TN_ST_COMPLETE;
    return TN_ST_OPEN;
}

void tn_conn_brief_of(const struct tn_conn *c, struct tn_conn_brief *b)
{
    memset(b, 0, sizeof *b);
    b->ord = c->ord;
    b->idx = c->idx;
    b->a = c->a;
    b->b = c->b;
    b->a_port = c->a_port;
    b->b_port = c->b_port;
    b->proto = (uint8_t)c->proto;
    b->state = (uint8_t)tn_conn_state(c);
    b->dfcp_over_udp = c->dfcp_over_udp;
    for (int d = 0; d < 2; d++) {
        b->pkts[d] = c->d[d].pkts;
        b->data_bytes[d] = c->d[d].data_bytes;
        b->mss[d] = c->d[d].mss_seen ? c->d[d].mss : 0;
    }
    b->capture_gaps = c->inf[0].capture_gaps + c->inf[1].capture_gaps;
}

void tn_analyzer_brief(const struct tn_analyzer *a, size_t i, struct tn_conn_brief *b)
{
    TN_BUG_ON(i >= a->nconns);
    const struct tn_conn_priv *slot = a->conns[i];
    if (tn_slot_is_brief(slot))
        *b = *tn_slot_brief(slot);
    else
        tn_conn_brief_of(&slot->pub, b);
}

size_t tn_analyzer_retired(const struct tn_analyzer *a)
{
    return a->nretired;
}

uint64_t tn_slot_ord(const struct tn_conn_priv *slot)
{
    return tn_slot_is_brief(slot) ? tn_slot_brief(slot)->ord : slot->pub.ord;
}

unsigned *tn_slot_idx(struct tn_conn_priv *slot)
{
    return tn_slot_is_brief(slot) ? &tn_slot_brief(slot)->idx : &slot->pub.idx;
}

struct tn_conn_brief *tn_brief_new(struct tn_analyzer *a)
{
    if (a->free_briefs) {   /* one written out (analysis_linger.c) */
        struct tn_conn_brief *b = a->free_briefs;
        memcpy(&a->free_briefs, b, sizeof a->free_briefs);
        return b;
    }
    if (!a->slabs || a->slabs->n == sizeof a->slabs->v / sizeof a->slabs->v[0]) {
        struct tn_brief_slab *s = tn_xmalloc(sizeof *s);
        s->next = a->slabs;
        s->n = 0;
        a->slabs = s;
    }
    return &a->slabs->v[a->slabs->n++];
}

void tn_brief_release(struct tn_analyzer *a, struct tn_conn_brief *b)
{
    _Static_assert(sizeof *b >= sizeof b, "a brief holds the link of the free list");
    memcpy(b, &a->free_briefs, sizeof a->free_briefs);
    a->free_briefs = b;
}

void tn_brief_slabs_free(struct tn_brief_slab *s)
{
    while (s) {
        struct tn_brief_slab *next = s->next;
        free(s);
        s = next;
    }
}

void tn_analyzer_compact_active(struct tn_analyzer *a)
{
    if (!a->nstale)
        return;
    size_t kept = 0;
    for (size_t i = 0; i < a->nactive; i++)
        if (!tn_slot_is_brief(a->conns[a->active[i]]))
            a->active[kept++] = a->active[i];
    a->nactive = kept;
    a->nstale = 0;
}
