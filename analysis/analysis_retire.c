/* analysis_retire.c - offline retirement: a connection closed both ways whose inference has
 * finished goes whole to the caller's store (cfg.spill_put) and only its brief stays in memory,
 * so that memory follows the open connections, not all that were ever seen.  Nothing of it is
 * lost: a late packet brings it back whole (its counters go on as before), and an output reads
 * it back one connection at a time, so every output is what it is without a store. */
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"

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

static struct tn_conn_brief *brief_new(struct tn_analyzer *a)
{
    if (!a->slabs || a->slabs->n == sizeof a->slabs->v / sizeof a->slabs->v[0]) {
        struct tn_brief_slab *s = tn_xmalloc(sizeof *s);
        s->next = a->slabs;
        s->n = 0;
        a->slabs = s;
    }
    return &a->slabs->v[a->slabs->n++];
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

void tn_analyzer_retire_conn(struct tn_analyzer *a, size_t k)
{
    struct tn_conn_priv *cp = a->conns[k];
    TN_BUG_ON(tn_slot_is_brief(cp) || !cp->inferred);
    if (!a->cfg.spill_put)
        return;
    a->spill.n = 0;
    tn_conn_priv_pack(cp, &a->spill);
    struct tn_out_ref out;
    if (!a->cfg.spill_put(a->cfg.spill_arg, a->cfg.shard, a->spill.p, a->spill.n, &out))
        return;   /* kept in memory */
    struct tn_conn_brief *b = brief_new(a);
    tn_conn_brief_of(&cp->pub, b);
    b->out = out;
    b->retired = true;
    tn_conn_priv_destroy(cp);
    a->conns[k] = tn_brief_slot(b);   /* the flow table still finds it, by the brief */
    if (a->last_idx == (long)k)
        a->last_idx = -1;
    a->nretired++;
    /* the active list drops it lazily: at most half of it is stale */
    if (++a->nstale * 2 > a->nactive)
        tn_analyzer_compact_active(a);
}

/* The bytes of brief b back into a connection, numbered as the brief is (a shard's merge
 * renumbers the briefs). */
static struct tn_conn_priv *read_back(const struct tn_analyzer *a, const struct tn_conn_brief *b)
{
    struct tn_packbuf *buf = (struct tn_packbuf *)&a->spill;   /* scratch, not state */
    if (buf->cap < b->out.len) {
        free(buf->p);
        buf->p = tn_xmalloc(b->out.len);
        buf->cap = b->out.len;
    }
    a->cfg.spill_get(a->cfg.spill_arg, &b->out, buf->p);
    struct tn_conn_priv *cp = tn_conn_priv_unpack(buf->p, b->out.len);
    TN_BUG_ON(!cp);   /* our own bytes, read back as written */
    cp->pub.idx = b->idx;
    return cp;
}

void tn_analyzer_revive(struct tn_analyzer *a, size_t k)
{
    struct tn_conn_brief *b = tn_slot_brief(a->conns[k]);
    if (a->reading && a->reading_k == k) {   /* already read back for an output */
        a->conns[k] = a->reading;
        a->reading = NULL;
    } else {
        a->conns[k] = read_back(a, b);
    }
    a->nretired--;
    /* it is active again (its slot in the active list may still be there, stale) */
    tn_analyzer_compact_active(a);
    tn_grow((void **)&a->active, &a->cap_active, a->nactive + 1, sizeof *a->active);
    size_t i = a->nactive++;
    while (i > 0 && a->active[i - 1] > k) {   /* the list stays in connection order */
        a->active[i] = a->active[i - 1];
        i--;
    }
    a->active[i] = k;
}

const struct tn_conn *tn_analyzer_read_retired(const struct tn_analyzer *a, size_t k)
{
    struct tn_analyzer *m = (struct tn_analyzer *)a;   /* the reading slot is a cache */
    if (!m->reading || m->reading_k != k) {
        if (m->reading)
            tn_conn_priv_destroy(m->reading);
        m->reading = NULL;
        m->reading = read_back(a, tn_slot_brief(a->conns[k]));
        m->reading_k = k;
    }
    return &m->reading->pub;
}

static inline bool addr_eq(const struct tn_addr *x, const struct tn_addr *y)
{
    return x->family == y->family && memcmp(x->a, y->a, x->family == 4 ? 4 : 16) == 0;
}

bool tn_brief_is_of(const struct tn_conn_brief *b, const struct tn_pkt *p)
{
    if (b->proto != p->kind)
        return false;
    if (p->sport == b->a_port && p->dport == b->b_port && addr_eq(&p->src, &b->a) && addr_eq(&p->dst, &b->b))
        return true;
    return p->sport == b->b_port && p->dport == b->a_port && addr_eq(&p->src, &b->b) && addr_eq(&p->dst, &b->a);
}

uint64_t tn_brief_flow_hash(const struct tn_conn_brief *b)
{
    struct tn_pkt p;
    memset(&p, 0, sizeof p);
    p.kind = (enum tn_pkt_kind)b->proto;
    p.src = b->a;
    p.dst = b->b;
    p.sport = b->a_port;
    p.dport = b->b_port;
    return tn_flow_hash(&p);
}
