/* analysis_linger.c - a live capture in flat memory (issue 12): a connection retired to the
 * store (analysis_retire.c) keeps its brief, its slot in the list and its flow-table entry only
 * while a late packet of it may still come; then the brief is written out (cfg.brief_put) and
 * the slot and the entry leave memory, so that a day on a mirror port holds the connections of
 * the last minutes, not all of the day's.  A later packet of those endpoints starts a new
 * connection, as one after --idle-timeout does.  At the end the briefs are read back into
 * their places (cfg.brief_each), and the outputs are those of a run that kept them.
 *
 * How long a late packet may come:
 *  - closed both ways (or reset): 2*MSL, the TIME-WAIT during which the closing end still
 *    answers a retransmitted FIN (RFC 9293 3.3.2, "TIME-WAIT ... 2 MSL"); Linux holds it
 *    TCP_TIMEWAIT_LEN, 60 s (include/net/tcp.h), cfg.time_wait_ns;
 *  - any other (a lone SYN, one without data): --idle-timeout (cfg.idle_retire_ns), after
 *    which a live capture takes a connection for ended anyway (cli/pipeline.c); one retired
 *    idle has had it already, and goes at once.
 * The clock is the trace's (the packets' time stamps), as for every other timeout here. */
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"

static bool closed_or_reset(const struct tn_conn_brief *b)
{
    return b->state == TN_ST_COMPLETE || b->state == TN_ST_RESET;
}

void tn_linger_push(struct tn_analyzer *a, size_t k, const struct tn_conn_brief *b, int64_t last_ns)
{
    if (!a->cfg.brief_put)
        return;
    bool closed = closed_or_reset(b);
    int64_t wait_ns = closed ? a->cfg.time_wait_ns : a->cfg.idle_retire_ns;
    if (wait_ns <= 0)
        return;   /* no timeout for it: it stays, as without brief_put */
    /* one queue per timeout: in each, the due times follow the retirements (one queue would
     * hold the closed ones behind the SYNs, for the longer of the two timeouts) */
    struct tn_lingerq *q = &a->linger[closed];
    if (q->head > 0 && q->head * 2 > q->n) {   /* the written-out front, given back */
        memmove(q->v, q->v + q->head, (q->n - q->head) * sizeof *q->v);
        q->n -= q->head;
        q->head = 0;
    }
    tn_grow((void **)&q->v, &q->cap, q->n + 1, sizeof *q->v);
    q->v[q->n++] = (struct tn_linger){k, b, last_ns + wait_ns};
}

/* Slot k still holds the brief the entry was queued with (not brought back by a late packet,
 * nor retired again since: then a later entry has it). */
static bool still_retired(const struct tn_analyzer *a, const struct tn_linger *e)
{
    return tn_slot_is_brief(a->conns[e->k]) && tn_slot_brief(a->conns[e->k]) == e->b;
}

/* The due entries' briefs of q out; their slots set to NULL.  A brief the store cannot take
 * stays (as the connections stay in memory when the store fails). */
static size_t write_out_due(struct tn_analyzer *a, struct tn_lingerq *q)
{
    size_t out = 0;
    for (size_t i = q->head; i < q->head + q->ndue; i++) {
        const struct tn_linger *e = &q->v[i];
        if (!still_retired(a, e))
            continue;
        struct tn_conn_brief *b = tn_slot_brief(a->conns[e->k]);
        if (!a->cfg.brief_put(a->cfg.spill_arg, a->cfg.shard, b))
            continue;
        tn_brief_release(a, b);
        a->conns[e->k] = NULL;
        out++;
    }
    q->head += q->ndue;
    q->ndue = 0;
    return out;
}

static void count_due(struct tn_lingerq *q, int64_t now)
{
    while (q->head + q->ndue < q->n && q->v[q->head + q->ndue].due_ns <= now)
        q->ndue++;
}

/* Closing the holes costs the whole list: it waits until the due are a quarter of it, so that
 * they pay for it, and the list holds at most a third more than the connections not due. */
void tn_linger_sweep(struct tn_analyzer *a, int64_t now)
{
    count_due(&a->linger[0], now);
    count_due(&a->linger[1], now);
    size_t due = a->linger[0].ndue + a->linger[1].ndue;
    if (due == 0 || due * 4 < a->nconns)
        return;
    tn_analyzer_compact_active(a);   /* no stale entry for a slot that goes */
    size_t out = write_out_due(a, &a->linger[0]) + write_out_due(a, &a->linger[1]);
    a->briefs_written += out;
    a->st.briefs_out += out;
    if (out)
        tn_analyzer_close_holes(a);
}

struct read_back {
    struct tn_analyzer *a;
    struct tn_conn_brief **v;
    size_t n, cap;
};

static void take_brief(void *ctx, const struct tn_conn_brief *b)
{
    struct read_back *rb = ctx;
    struct tn_conn_brief *nb = tn_brief_new(rb->a);
    *nb = *b;
    tn_grow((void **)&rb->v, &rb->cap, rb->n + 1, sizeof *rb->v);
    rb->v[rb->n++] = nb;
}

static int cmp_brief_idx(const void *x, const void *y)
{
    const struct tn_conn_brief *a = *(struct tn_conn_brief *const *)x, *b = *(struct tn_conn_brief *const *)y;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* The number of slot k: the list is in the order of these numbers (new_conn, adopt). */
static unsigned slot_number(struct tn_conn_priv *slot)
{
    return *tn_slot_idx(slot);
}

void tn_linger_read_back(struct tn_analyzer *a)
{
    if (!a->briefs_written)
        return;   /* (a shard's merge adds up briefs_out: its briefs were read back there) */
    struct read_back rb = {.a = a};
    a->cfg.brief_each(a->cfg.spill_arg, a->cfg.shard, take_brief, &rb);
    TN_BUG_ON(rb.n != a->briefs_written);   /* the store gives back what it took, or the run ends */
    tn_sort(rb.v, rb.n, sizeof *rb.v, cmp_brief_idx);
    /* merge the two lists, both in number order */
    size_t nold = a->nconns, total = nold + rb.n, i = 0, j = 0, n = 0;
    struct tn_conn_priv **all = tn_xmalloc(total * sizeof *all);
    long *moved = tn_xmalloc((nold ? nold : 1) * sizeof *moved);
    while (i < nold || j < rb.n) {
        if (j == rb.n || (i < nold && slot_number(a->conns[i]) < rb.v[j]->idx)) {
            moved[i] = (long)n;
            all[n++] = a->conns[i++];
        } else {
            all[n++] = tn_brief_slot(rb.v[j++]);
        }
    }
    free(a->conns);
    a->conns = all;
    a->nconns = a->cap = total;
    tn_analyzer_compact_active(a);
    tn_analyzer_renumber(a, moved, false);   /* no packet comes after the end: a table of
                                              * the open ones only, not of a day's */
    free(moved);
    free(rb.v);
    for (size_t t = 0; t < 2; t++)   /* nothing leaves memory after the end */
        a->linger[t].head = a->linger[t].n = a->linger[t].ndue = 0;
    a->briefs_written = 0;
}
