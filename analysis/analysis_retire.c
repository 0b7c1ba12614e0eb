/* analysis_retire.c - offline retirement: a connection closed both ways whose inference has
 * finished goes whole to the caller's store (cfg.spill_put) and only its brief stays in memory,
 * so that memory follows the open connections, not all that were ever seen.  Nothing of it is
 * lost: a late packet brings it back whole (its counters go on as before), and an output reads
 * it back one connection at a time, so every output is what it is without a store. */
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"

struct tn_conn_brief *tn_analyzer_retire_conn(struct tn_analyzer *a, size_t k)
{
    struct tn_conn_priv *cp = a->conns[k];
    TN_BUG_ON(tn_slot_is_brief(cp) || cp->dp[0].snd || cp->dp[1].snd);   /* no sender state left */
    if (!a->cfg.spill_put)
        return NULL;
    a->spill.n = 0;
    tn_conn_priv_pack(cp, &a->spill);
    /* finished: another analyzer keeps it (on_retire), late packets go there (on_away) */
    bool away = a->cfg.on_away && a->cfg.on_retire && cp->inferred;
    struct tn_out_ref out = {.len = (uint32_t)a->spill.n, .part = TN_OUT_AWAY};
    if (!away && !a->cfg.spill_put(a->cfg.spill_arg, a->cfg.shard, a->spill.p, a->spill.n, &out))
        return NULL;   /* kept in memory */
    struct tn_conn_brief *b = tn_brief_new(a);
    tn_conn_brief_of(&cp->pub, b);
    b->out = out;
    b->retired = true;
    if (a->cfg.on_retire) {
        uint64_t id = a->cfg.on_retire(a->cfg.on_retire_arg, b, a->spill.p, a->spill.n);
        if (away)
            b->out.at = id;   /* for on_away */
    }
    if (!away)
        tn_linger_push(a, k, b, tn_time_ns(cp->pub.last));
    tn_conn_priv_destroy(cp);
    a->conns[k] = tn_brief_slot(b);   /* the flow table still finds it, by the brief */
    if (a->last_idx == (long)k)
        a->last_idx = -1;
    a->nretired++;
    /* the active list drops it lazily: at most half of it is stale */
    if (++a->nstale * 2 > a->nactive)
        tn_analyzer_compact_active(a);
    return b;
}

/* The bytes of brief b into buf. */
static const uint8_t *read_bytes(const struct tn_analyzer *a, const struct tn_conn_brief *b,
                                 struct tn_packbuf *buf)
{
    TN_BUG_ON(b->out.part == TN_OUT_AWAY);   /* its bytes are elsewhere: an output that reads briefs only */
    if (buf->cap < b->out.len) {
        free(buf->p);
        buf->p = tn_xmalloc(b->out.len);
        buf->cap = b->out.len;
    }
    a->cfg.spill_get(a->cfg.spill_arg, &b->out, buf->p);
    return buf->p;
}

/* The bytes of brief b back into a connection (read through buf), numbered as the brief is (a
 * shard's merge renumbers the briefs); in arena when one is given. */
static struct tn_conn_priv *read_back(const struct tn_analyzer *a, const struct tn_conn_brief *b,
                                      struct tn_packbuf *buf, struct tn_arena *arena)
{
    const uint8_t *bytes = read_bytes(a, b, buf);
    struct tn_conn_priv *cp = arena ? tn_conn_priv_unpack_in(bytes, b->out.len, arena)
                                    : tn_conn_priv_unpack(bytes, b->out.len);
    TN_BUG_ON(!cp);   /* our own bytes, read back as written */
    cp->pub.idx = b->idx;
    return cp;
}

void tn_analyzer_revive(struct tn_analyzer *a, size_t k)
{
    struct tn_conn_brief *b = tn_slot_brief(a->conns[k]);
    /* its slot in the active list may still be there, stale: dropped while k is a brief, or
     * the list would hold k twice */
    tn_analyzer_compact_active(a);
    a->conns[k] = read_back(a, b, &a->spill, NULL);
    a->nretired--;
    tn_grow((void **)&a->active, &a->cap_active, a->nactive + 1, sizeof *a->active);
    size_t i = a->nactive++;
    while (i > 0 && a->active[i - 1] > k) {   /* the list stays in connection order */
        a->active[i] = a->active[i - 1];
        i--;
    }
    a->active[i] = k;
}

static void drop_reading(struct tn_reader *r)
{
    if (r->cp && !r->in_arena)
        tn_conn_priv_destroy(r->cp);
    r->cp = NULL;
    tn_arena_reset(&r->mem);
}

/* For an output: the connection as it would be at the end of the run.  It lies in the reading
 * slot's arena, given back at the next read: the outputs read a million connections one after
 * the other without malloc and free for each of their arrays.  One retired before its end (one
 * SYN) is finished as tn_analyzer_finish would have, which may grow its arrays: that one is
 * read into malloc's memory.  Nothing of the analyzer changes: slots of several threads read
 * side by side. */
const struct tn_conn *tn_reader_read_retired(struct tn_reader *r, size_t k)
{
    if (r->cp && r->k == k)
        return &r->cp->pub;
    const struct tn_analyzer *a = r->a;
    drop_reading(r);
    const struct tn_conn_brief *b = tn_slot_brief(a->conns[k]);
    r->cp = read_back(a, b, &r->buf, &r->mem);
    r->in_arena = true;
    if (r->cp->pub.proto == TN_PK_TCP && !r->cp->inferred) {
        drop_reading(r);
        r->cp = read_back(a, b, &r->buf, NULL);
        r->in_arena = false;
        struct tn_analyzer_ctx ctx = a->ctx;   /* the config, no packet; the slot's own copy */
        tn_tcp_conn_finish(&ctx, r->cp);
    }
    r->k = k;
    return &r->cp->pub;
}

void tn_reader_fini(struct tn_reader *r)
{
    drop_reading(r);
    tn_arena_free(&r->mem);
    tn_packbuf_fini(&r->buf);
}

struct tn_reader *tn_reader_new(const struct tn_analyzer *a)
{
    struct tn_reader *r = tn_xcalloc(1, sizeof *r);
    r->a = a;
    return r;
}

const struct tn_conn *tn_reader_conn(struct tn_reader *r, size_t i)
{
    const struct tn_analyzer *a = r->a;
    if (i >= a->nconns)
        return NULL;
    if (tn_slot_is_brief(a->conns[i]))
        return tn_reader_read_retired(r, i);
    return &a->conns[i]->pub;
}

void tn_reader_free(struct tn_reader *r)
{
    if (!r)
        return;
    tn_reader_fini(r);
    free(r);
}

/* A connection retired idle (tn_analyzer_retire_quiet) was not finished: at the end it is read
 * back, finished as tn_analyzer_finish finishes the open ones, and written again, so that the
 * outputs read it finished and its brief says what the finished connection says. */
void tn_analyzer_finish_retired(struct tn_analyzer *a)
{
    for (size_t k = 0; k < a->nconns; k++) {
        if (!tn_slot_is_brief(a->conns[k]) || !tn_slot_brief(a->conns[k])->unfinished)
            continue;
        struct tn_conn_brief *b = tn_slot_brief(a->conns[k]);
        struct tn_conn_priv *cp = read_back(a, b, &a->spill, NULL);
        if (cp->pub.proto == TN_PK_TCP)
            tn_tcp_conn_finish(&a->ctx, cp);
        else
            tn_dfcp_conn_finish(&a->ctx, cp);
        a->spill.n = 0;
        tn_conn_priv_pack(cp, &a->spill);
        struct tn_out_ref out;
        if (!a->cfg.spill_put(a->cfg.spill_arg, a->cfg.shard, a->spill.p, a->spill.n, &out)) {
            a->conns[k] = cp;   /* the store is full: finished, in memory (its brief's slab stays) */
            a->nretired--;
            continue;
        }
        tn_conn_brief_of(&cp->pub, b);
        b->out = out;
        b->retired = true;
        tn_conn_priv_destroy(cp);
    }
}
