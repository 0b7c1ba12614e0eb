/* analysis_adopt.c - connections retired in another analyzer (an MPI rank's) taken in by their
 * brief, their bytes in this analyzer's store; and of several copies of one connection the
 * last, since a connection retired and brought back by a late packet comes again. */
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"

static void adopt(struct tn_analyzer *a, const struct tn_conn_brief *b)
{
    struct tn_conn_brief *nb = tn_brief_new(a);
    *nb = *b;
    nb->retired = true;
    tn_grow((void **)&a->conns, &a->cap, a->nconns + 1, sizeof *a->conns);
    a->conns[a->nconns++] = tn_brief_slot(nb);
    nb->idx = ++a->numbered;
    a->nretired++;
}

void tn_analyzer_adopt_retired(struct tn_analyzer *a, const struct tn_conn_brief *b)
{
    TN_BUG_ON(!a->cfg.spill_get);   /* its bytes are read back from the store */
    adopt(a, b);
}

void tn_analyzer_adopt_brief(struct tn_analyzer *a, const struct tn_conn_brief *b)
{
    struct tn_conn_brief nb = *b;
    nb.out = (struct tn_out_ref){.part = TN_OUT_AWAY};   /* no bytes here (read_bytes) */
    nb.unfinished = false;
    adopt(a, &nb);
}

struct ord_pos {
    uint64_t ord;
    size_t pos;
};

static int cmp_ord_pos(const void *x, const void *y)
{
    const struct ord_pos *a = x, *b = y;
    if (a->ord != b->ord)
        return a->ord < b->ord ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

size_t tn_analyzer_keep_latest(struct tn_analyzer *a)
{
    if (a->nconns < 2)
        return 0;
    struct ord_pos *v = tn_xmalloc(a->nconns * sizeof *v);
    for (size_t k = 0; k < a->nconns; k++)
        v[k] = (struct ord_pos){tn_slot_ord(a->conns[k]), k};
    qsort(v, a->nconns, sizeof *v, cmp_ord_pos);
    /* the connections left in the order of their first packets: tn_analyzer_merge then merges
     * them with rank 0's own without sorting them again */
    struct tn_conn_priv **kept = tn_xmalloc(a->nconns * sizeof *kept);
    size_t n = 0, dropped = 0;
    for (size_t i = 0; i < a->nconns; i++) {
        struct tn_conn_priv *slot = a->conns[v[i].pos];
        if (i + 1 == a->nconns || v[i].ord != v[i + 1].ord) {
            kept[n++] = slot;
            continue;
        }
        /* a later copy follows */
        if (tn_slot_is_brief(slot))
            a->nretired--;   /* its brief stays in its slab, unused */
        else
            tn_conn_priv_destroy(slot);
        dropped++;
    }
    free(v);
    memcpy(a->conns, kept, n * sizeof *kept);
    free(kept);
    a->nconns = n;
    a->last_idx = -1;
    return dropped;
}
